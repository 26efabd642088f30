"""A results folder read back: its manifest checked, its Parquet tables as polars frames.

A folder is results when it holds ``manifest.json`` (written last, so a run that stopped
half-way has none) of the schema version this Cardroom writes, and the tables it names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from cardroom import games as game_registry
from cardroom.engine import DeckRules
from cardroom.sim.results import ResultsError, read_manifest

__all__ = ["Results", "ResultsError", "read_results"]

REQUIRED = ("games", "deals")
"""The tables every game's results hold; cards, hands and a game's own tables are read when present."""


@dataclass
class Results:
    """One run's tables and its manifest."""

    path: Path
    manifest: dict[str, Any]
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)
    stopped: int = 0
    """Games the action guard stopped (no winner, no places): left out of every table, counted
    here so the report can say so."""
    deck_files: tuple[str, ...] = ()
    """The texts of deck files the run played: read from beside the tables (``simulate --out``
    keeps them there, their digest checked) or given by the caller (``analyze --deck``); the
    tables name a deck file by its digest only, and a game's analysis may need its designs."""
    deck_note: str = ""
    """Why the deck files' texts are not known, when the run played deck files and they are not
    (a game's analysis says it where it leaves figures out)."""

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
    """The results in ``path``, or :class:`ResultsError` saying why the folder is not readable:
    the manifest checked as the writer checks it (:func:`cardroom.sim.results.read_manifest`),
    then the game, the format and the tables."""
    manifest = read_manifest(path)
    game = manifest["game"]
    if not isinstance(game, str) or game not in game_registry.names():
        raise ResultsError(f"{path} holds results of a game this Cardroom does not know "
                           f"({str(game)[:40]!r}); the games are {', '.join(game_registry.names())}")
    if manifest.get("format", "parquet") != "parquet":
        raise ResultsError(f"{path} holds {str(manifest['format'])[:20]} tables; analysis reads Parquet "
                           "(simulate --out again without --csv)")
    results = Results(path, manifest)
    listed = manifest.get("tables")
    names = list(listed) if isinstance(listed, dict) else []
    for name in dict.fromkeys([*REQUIRED, *names]):
        file = path / f"{name}.parquet"
        if not file.exists():
            raise ResultsError(f"{path} is incomplete: the table {name}.parquet is missing")
        try:
            results.tables[name] = pl.read_parquet(file)
        except (OSError, pl.exceptions.PolarsError) as err:
            raise ResultsError(f"{file} cannot be read as Parquet: {str(err)[:200]}") from None
    needed = {"seed", "game_index", "totals", "winners", "places", "deals", "decisions"}
    missing = needed - set(results.games.columns)
    if missing:
        raise ResultsError(f"{path}/games.parquet lacks the columns {', '.join(sorted(missing))}")
    _leave_out_stopped(results)
    results.deck_files, results.deck_note = _beside_decks(path, manifest)
    return results


def _beside_decks(path: Path, manifest: dict[str, Any]) -> tuple[tuple[str, ...], str]:
    """The deck files' texts kept beside the tables, checked against the run's deck by digest;
    or none, and why."""
    rules = manifest.get("rules")
    played = manifest.get("deck")
    spec = str(rules.get("deck", "")) if isinstance(rules, dict) else ""
    if not isinstance(rules, dict) or "sha256:" not in spec:
        return (), ""  # only built-in decks (or none): nothing to keep
    names = manifest.get("deck_files")
    redo = "give the deck file the run played to analyze with --deck FILE"
    if not isinstance(names, list) or not names:
        return (), (f"The run played a deck file, and {path} keeps no copy of it (a run written before "
                    f"simulate --out kept one): the designs' cards, types and marks are unknown; {redo}.")
    texts = []
    for name in names:
        file = path / str(name)
        try:
            texts.append(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as err:
            reason = getattr(err, "strerror", None) or err
            return (), f"The deck file {file} that the manifest names cannot be read ({reason}); {redo}."
    try:
        made = game_registry.make_rules(str(manifest["game"]), {**rules, "deck_files": texts})
    except (ValueError, TypeError) as err:
        return (), (f"The deck files beside the tables in {path} are not the deck the run played "
                    f"(changed since the run? {err}); {redo}.")
    have = made.deck_record() if isinstance(made, DeckRules) else None
    if isinstance(played, dict) and (have is None or have["digest"] != played.get("digest")):
        return (), (f"The deck files beside the tables in {path} are not the deck the run played (their "
                    f"digest differs from the manifest's: changed since the run); {redo}.")
    return tuple(texts), ""


def _leave_out_stopped(results: Results) -> None:
    """Drop the games the action guard stopped from every table: with no winner and no places
    they have no outcome to count, and counting them as losses would bias every figure."""
    games = results.games
    stopped = games["winners"].list.len() == 0
    if "guard_stopped" in games.columns:
        stopped = stopped | games["guard_stopped"]
    left_out = games.filter(stopped)["game_index"]
    if not left_out.len():
        return
    results.stopped = left_out.len()
    for name, table in results.tables.items():
        if "game_index" in table.columns:
            results.tables[name] = table.filter(~pl.col("game_index").is_in(left_out.implode()))
