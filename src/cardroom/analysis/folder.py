"""A results folder read back: its manifest checked, its Parquet tables as polars frames.

A folder is results when it holds ``manifest.json`` (written last, so a run that stopped
half-way has none) of a schema version this Cardroom reads, and the tables it names.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from cardroom import games as game_registry
from cardroom.record import RecordError

__all__ = ["READ_VERSIONS", "Results", "ResultsError", "read_results"]

READ_VERSIONS = (1,)
"""The results schema versions this Cardroom reads."""

MANIFEST = "manifest.json"
REQUIRED = ("games", "deals")
"""The tables every game's results hold; cards, hands and a game's own tables are read when present."""


class ResultsError(RecordError):
    """A folder that is not results Cardroom can read: the message says what was wrong (a
    :class:`~cardroom.record.RecordError`, so every front tells it as bad input)."""


@dataclass
class Results:
    """One run's tables and its manifest."""

    path: Path
    manifest: dict[str, Any]
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)
    deck_files: tuple[str, ...] = ()
    """The texts of deck files the run played, when the caller has them: the tables name a deck
    file by its digest only, and a game's analysis may need its designs."""

    @property
    def game(self) -> str:
        return str(self.manifest["game"])

    @property
    def games(self) -> pl.DataFrame:
        return self.tables["games"]

    @property
    def deals(self) -> pl.DataFrame:
        return self.tables["deals"]

    def table(self, name: str) -> pl.DataFrame | None:
        """A table the run wrote, or ``None`` (an older run, a game without it)."""
        return self.tables.get(name)

    @property
    def players(self) -> int:
        return int(self.games["players"][0]) if self.games.height else 0

    @property
    def label(self) -> str:
        """The run's variant label, else its folder's name."""
        variants = self.games["variant"].unique().to_list() if "variant" in self.games.columns else []
        named = [v for v in variants if v]
        return str(named[0]) if len(named) == 1 else self.path.name

    @property
    def agents(self) -> list[str]:
        """The agents by seat (the first game's; a run plays one line-up)."""
        if "agents" in self.manifest and isinstance(self.manifest["agents"], list):
            return [str(a) for a in self.manifest["agents"]]
        return [str(a) for a in self.games["agents"][0].to_list()] if self.games.height else []


def read_results(path: Path) -> Results:
    """The results in ``path``, or :class:`ResultsError` saying why the folder is not readable."""
    if not path.exists():
        raise ResultsError(f"{path}: no such folder (give a folder written by cardroom simulate --out)")
    if not path.is_dir():
        raise ResultsError(f"{path} is a file; give a results folder written by cardroom simulate --out")
    manifest_path = path / MANIFEST
    parquet = sorted(p.name for p in path.glob("*.parquet"))
    if not manifest_path.exists():
        if parquet or any(path.glob("*.parquet.tmp*")) or any(path.glob(".*")):
            raise ResultsError(
                f"{path} is incomplete: it has no {MANIFEST} (written last), so the run that wrote it "
                f"did not finish; run it again"
            )
        raise ResultsError(
            f"{path} holds no results: no {MANIFEST} (give a folder written by cardroom simulate --out)"
        )
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ResultsError(f"{manifest_path} cannot be read as JSON: {err}") from None
    if not isinstance(manifest, dict) or "schema_version" not in manifest or "game" not in manifest:
        raise ResultsError(f"{manifest_path} is not a results manifest (it needs schema_version and game)")
    version = manifest["schema_version"]
    if version not in READ_VERSIONS:
        known = ", ".join(map(str, READ_VERSIONS))
        raise ResultsError(
            f"{path} holds results of schema version {version!r}; this Cardroom reads "
            f"version {known} (simulate again with this Cardroom, or use the one that wrote it)"
        )
    game = manifest["game"]
    if not isinstance(game, str) or game not in game_registry.names():
        raise ResultsError(
            f"{path} holds results of a game this Cardroom does not know ({str(game)[:40]!r}); "
            f"the games are {', '.join(game_registry.names())}"
        )
    if manifest.get("format", "parquet") != "parquet":
        raise ResultsError(
            f"{path} holds {str(manifest['format'])[:20]} tables; analysis reads Parquet "
            "(simulate --out again without --csv)"
        )
    results = Results(path, manifest)
    listed = manifest.get("tables")
    names = [str(n) for n in listed] if isinstance(listed, list | dict) else [p[:-8] for p in parquet]
    names = [n.removesuffix(".parquet") for n in names]
    for name in dict.fromkeys([*REQUIRED, *names]):
        file = path / f"{name}.parquet"
        if not file.exists():
            raise ResultsError(f"{path} is incomplete: the table {name}.parquet is missing")
        try:
            results.tables[name] = pl.read_parquet(file)
        except (OSError, pl.exceptions.PolarsError) as err:
            raise ResultsError(f"{file} cannot be read as Parquet: {str(err)[:200]}") from None
    games = results.games
    missing = {"seed", "game_index", "totals", "winners", "places", "deals", "decisions"} - set(games.columns)
    if missing:
        raise ResultsError(f"{path}/games.parquet lacks the columns {', '.join(sorted(missing))}")
    return results
