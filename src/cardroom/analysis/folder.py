"""A results folder read back: its manifest checked, its Parquet tables as polars frames.

A folder is results when it holds ``manifest.json`` (written last, so a run that stopped
half-way has none) of the schema version this Cardroom writes, and the tables it names.

:func:`open_folder` reads no table whole: it scans them (polars lazy frames) and hands out the
games part by part (:meth:`Folder.parts`, each part a :class:`Results` of a range of game
indices), so ``cardroom analyze`` of any number of games holds one part at a time.
:func:`read_results` reads every table at once (compare, tests).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from cardroom import games as game_registry
from cardroom.engine import DeckRules
from cardroom.games import GameSpec
from cardroom.sim.results import ResultsError, read_manifest

__all__ = ["PART_GAMES", "Folder", "Results", "ResultsError", "open_folder", "read_results", "seed_runs"]

REQUIRED = ("games", "deals")
"""The tables every game's results hold; cards, hands and a game's own tables are read when present."""
PART_GAMES = 10_000
"""Games in one part of :meth:`Folder.parts`: a part of BAEBAE's tables takes about 100 MB
while it is summed (docs/analytics.md, "A million games")."""


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
    def spec(self) -> GameSpec:
        """The spec of the game the run played: its manifest names it (checked known when the
        folder was read), and this is where a results folder's game is looked up."""
        return game_registry.get(self.game)

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

    @property
    def played(self) -> int:
        """The games with an outcome (those the guard stopped left out)."""
        return self.games.height

    def has(self, name: str) -> bool:
        """Whether the run wrote the table ``name``."""
        return name in self.tables

    @property
    def rules_record(self) -> Any:
        """The rules the run recorded (its manifest's, else its first game's), or ``None``."""
        rules = self.manifest.get("rules")
        if rules is None and self.games.height and "rules" in self.games.columns:
            rules = json.loads(self.games["rules"][0])
        return rules

    @property
    def deck_record(self) -> Any:
        """The deck the run recorded (its manifest's, else its first game's), or ``None``."""
        deck = self.manifest.get("deck")
        if not deck and "deck" in self.games.columns and self.games.height:
            deck = self.games["deck"][0]
        return deck

    @property
    def seed_runs(self) -> list[tuple[int, int]]:
        """The first runs of consecutive seeds (see :func:`seed_runs`)."""
        return seed_runs(self.games.lazy())

    def parts(self, size: int = PART_GAMES) -> Iterator[Results]:
        """The games part by part: tables already read are one part."""
        del size
        yield self


@dataclass
class Folder:
    """A results folder opened without reading its tables whole (:func:`open_folder`): what a
    report says of the whole run, and :meth:`parts`, the games a part at a time."""

    path: Path
    manifest: dict[str, Any]
    scans: dict[str, pl.LazyFrame]
    played: int
    """The games with an outcome."""
    stopped: int
    """Games the action guard stopped, left out of every part (see :class:`Results`)."""
    players: int
    agents: list[str]
    label: str
    rules_record: Any
    deck_record: Any
    seed_runs: list[tuple[int, int]]
    """The first runs of consecutive seeds (see :func:`seed_runs`)."""
    indices: tuple[int, int]
    """The first and last game index."""
    deck_files: tuple[str, ...] = ()
    deck_note: str = ""

    @property
    def game(self) -> str:
        return str(self.manifest["game"])

    @property
    def spec(self) -> GameSpec:
        """The spec of the game the run played: its manifest names it (checked known when the
        folder was read), and this is where a results folder's game is looked up."""
        return game_registry.get(self.game)

    def has(self, name: str) -> bool:
        return name in self.scans

    def parts(self, size: int = PART_GAMES) -> Iterator[Results]:
        """The games ``size`` indices at a time, each part a :class:`Results` of every table's
        rows of those games (the stopped games left out). Row groups are written a batch of
        games at a time, so Parquet's statistics let each part skip the others' rows."""
        first, last = self.indices
        for start in range(first, last + 1, size):
            span = pl.col("game_index").is_between(start, start + size - 1)
            tables = {name: scan.filter(span).collect() for name, scan in self.scans.items()}
            if not tables["games"].height:
                continue
            part = Results(self.path, self.manifest, tables, deck_files=self.deck_files,
                           deck_note=self.deck_note)
            _leave_out_stopped(part)
            yield part


def read_results(path: Path) -> Results:
    """The results in ``path``, or :class:`ResultsError` saying why the folder is not readable:
    the manifest checked as the writer checks it (:func:`cardroom.sim.results.read_manifest`),
    then the game, the format and the tables."""
    manifest, files = _checked(path)
    results = Results(path, manifest)
    for name, file in files.items():
        try:
            results.tables[name] = pl.read_parquet(file)
        except (OSError, pl.exceptions.PolarsError) as err:
            raise ResultsError(f"{file} cannot be read as Parquet: {str(err)[:200]}") from None
    _check_columns(path, results.games.columns)
    _leave_out_stopped(results)
    results.deck_files, results.deck_note = _beside_decks(path, manifest)
    return results


def open_folder(path: Path) -> Folder:
    """The results in ``path`` as :func:`read_results` checks them, their tables scanned, not
    read: the whole run's facts come from small queries, the games from :meth:`Folder.parts`."""
    manifest, files = _checked(path)
    scans = {}
    for name, file in files.items():
        try:
            scans[name] = pl.scan_parquet(file)
            columns = scans[name].collect_schema().names()
        except (OSError, pl.exceptions.PolarsError) as err:
            raise ResultsError(f"{file} cannot be read as Parquet: {str(err)[:200]}") from None
        if "game_index" not in columns:
            raise ResultsError(f"{file} lacks the column game_index")
    games = scans["games"]
    columns = games.collect_schema().names()
    _check_columns(path, columns)
    stopped = pl.col("winners").list.len() == 0
    if "guard_stopped" in columns:
        stopped = stopped | pl.col("guard_stopped")
    try:
        counts = games.select(
            pl.len().alias("games"), stopped.sum().alias("stopped"),
            pl.col("game_index").min().alias("first"), pl.col("game_index").max().alias("last"),
        ).collect().row(0, named=True)
        kept = games.filter(~stopped)
        fields = [c for c in ("players", "agents", "rules", "deck") if c in columns]
        head = kept.select(fields).head(1).collect()
        seeds = seed_runs(kept)
        variants = (kept.select(pl.col("variant").unique()).collect()["variant"].to_list()
                    if "variant" in columns else [])
    except (OSError, pl.exceptions.PolarsError) as err:
        raise ResultsError(f"{path}/games.parquet cannot be read: {str(err)[:200]}") from None
    first: dict[str, Any] = head.row(0, named=True) if head.height else {}
    agents = manifest.get("agents")
    named = [v for v in variants if v]
    rules = manifest.get("rules")
    if rules is None and first.get("rules"):
        rules = json.loads(first["rules"])
    folder = Folder(
        path, manifest, scans,
        played=int(counts["games"]) - int(counts["stopped"]),
        stopped=int(counts["stopped"]),
        players=int(first.get("players") or 0),
        agents=[str(a) for a in (agents if isinstance(agents, list) else first.get("agents") or [])],
        label=str(named[0]) if len(named) == 1 else path.name,
        rules_record=rules,
        deck_record=manifest.get("deck") or first.get("deck"),
        seed_runs=seeds,
        indices=(int(counts["first"] or 0), int(counts["last"] or -1)),
    )
    folder.deck_files, folder.deck_note = _beside_decks(path, manifest)
    return folder


SEED_RUNS = 7
"""Runs of seeds a report needs: it names six, then "..." when there are more."""


def seed_runs(games: pl.LazyFrame) -> list[tuple[int, int]]:
    """The games' seeds as runs of consecutive values (first, last), the lowest first: at most
    :data:`SEED_RUNS` of them, found by one query (no list of every seed)."""
    seeds = games.select(pl.col("seed").unique().sort())
    runs = (
        seeds.with_columns((pl.col("seed").diff() != 1).fill_null(True).cum_sum().alias("run"))
        .group_by("run")
        .agg(pl.col("seed").min().alias("low"), pl.col("seed").max().alias("high"))
        .sort("low")
        .head(SEED_RUNS)
        .collect()
    )
    return [(int(low), int(high)) for low, high in runs.select("low", "high").iter_rows()]


def _checked(path: Path) -> tuple[dict[str, Any], dict[str, Path]]:
    """The manifest checked, and the files of the tables to read, by name."""
    manifest = read_manifest(path)
    game = manifest["game"]
    if not isinstance(game, str) or game not in game_registry.names():
        raise ResultsError(f"{path} holds results of a game this Cardroom does not know "
                           f"({str(game)[:40]!r}); the games are {', '.join(game_registry.names())}")
    if manifest.get("format", "parquet") != "parquet":
        raise ResultsError(f"{path} holds {str(manifest['format'])[:20]} tables; analysis reads Parquet "
                           "(simulate --out again without --csv)")
    listed = manifest.get("tables")
    names = list(listed) if isinstance(listed, dict) else []
    files = {}
    for name in dict.fromkeys([*REQUIRED, *names]):
        file = path / f"{name}.parquet"
        if not file.exists():
            raise ResultsError(f"{path} is incomplete: the table {name}.parquet is missing")
        files[name] = file
    return manifest, files


def _check_columns(path: Path, columns: list[str]) -> None:
    needed = {"seed", "game_index", "totals", "winners", "places", "deals", "decisions"}
    missing = needed - set(columns)
    if missing:
        raise ResultsError(f"{path}/games.parquet lacks the columns {', '.join(sorted(missing))}")


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
