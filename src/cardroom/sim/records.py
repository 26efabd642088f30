"""Summaries from saved records: a long simulation can be run in parts and reported at once.

``cardroom simulate --records DIR`` writes one record per game; ``cardroom report DIR...``
reads them back. When the records are duplicate deals (every seed played once per rotation
of one line-up over the seats), the report is the duplicate one, with paired differences;
otherwise it is the per-seat and per-agent summary of ``simulate``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cardroom.games import GameSpec
from cardroom.record import RecordError, load, record_game, recorded_options, verify
from cardroom.sim.duplicate import rotations, summarize_duplicate
from cardroom.sim.report import summarize
from cardroom.sim.tournament import GameResult, Lineup, result_from_log

__all__ = ["report_records", "record_files"]


def record_files(paths: Iterable[Path]) -> list[Path]:
    """The record files named, folders read for their ``*.json`` files, in name order."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(path.glob("*.json")))
        else:
            files.append(path)
    if not files:
        raise RecordError("no record files found")
    return files


def report_records(paths: Iterable[Path]) -> dict[str, Any]:
    """Summarize the games of the records under ``paths`` (all of one game, rules and deck)."""
    files = record_files(paths)
    first: dict[str, Any] | None = None
    spec: GameSpec | None = None
    games: list[tuple[int, tuple[str, ...], GameResult]] = []
    for i, path in enumerate(files):
        record = load(path)
        verdict = verify(record, str(path))
        if not verdict.ok:
            # The figures come from the log: only a log the actions reproduce is counted.
            raise RecordError(f"{verdict.message}; a report counts only records that replay exactly")
        key = (record["game"], record["rules"], record.get("deck"))
        if first is None:
            first, spec = record, record_game(record)
        elif key != (first["game"], first["rules"], first.get("deck")):
            raise RecordError(f"{path}: another game, rules or deck than {files[0]}; report them apart")
        specs = tuple(seat["agent"] for seat in record["seats"])
        totals = [0] * len(specs)
        for event in record["log"]:
            if "totals" in event:
                totals = list(event["totals"])
        assert spec is not None  # verify() refuses a game no one registered
        result = result_from_log(spec, record["log"], i, record["seed"], totals)
        games.append((record["seed"], specs, result))
    assert first is not None
    assert spec is not None
    rules = spec.make_rules(recorded_options(spec, first["rules"]))
    seeds = sorted({seed for seed, _, _ in games})
    lineup = Lineup(games[0][1])
    turned = [r.specs for r in rotations(lineup)]
    by_seed: dict[int, dict[tuple[str, ...], GameResult]] = defaultdict(dict)
    for seed, specs, result in games:
        if specs in by_seed[seed]:
            raise RecordError(
                f"two records of seed {seed} with the same seats {list(specs)}; report them apart"
            )
        by_seed[seed][specs] = result
    rotated = len(turned) > 1 and all(specs in turned for _, specs, _ in games)
    complete = [s for s in seeds if set(by_seed[s]) == set(turned)]
    if rotated and complete:
        # A run stopped part-way leaves its last deal with some rotations only: such deals
        # are left out (and counted), since a duplicate comparison needs every rotation.
        rows = [[by_seed[s][specs] for specs in turned] for s in complete]
        summary = summarize_duplicate(rules, lineup, [Lineup(t) for t in turned], rows, complete[0], 0.0)
        summary["incomplete_deals_left_out"] = len(seeds) - len(complete)
        summary["games_left_out"] = sum(len(by_seed[s]) for s in seeds if s not in complete)
        seeds = complete
    else:
        if any(specs != lineup.specs for _, specs, _ in games):
            raise RecordError("the records seat different line-ups and hold no complete duplicate deal")
        summary = summarize(rules, lineup, [r for _, _, r in games], seeds[0], 0.0)
    del summary["seconds"]  # the run's time is not in its records; the report's own is no figure
    summary["records"] = len(files)
    summary["seeds"] = [seeds[0], seeds[-1]]
    summary["seed_ranges"] = _ranges(seeds)
    return summary


def _ranges(seeds: list[int]) -> str:
    """Sorted seeds as runs: ``2100..2124, 2600..2608``."""
    runs: list[list[int]] = []
    for seed in seeds:
        if runs and seed == runs[-1][1] + 1:
            runs[-1][1] = seed
        else:
            runs.append([seed, seed])
    return ", ".join(f"{a}..{b}" if a != b else str(a) for a, b in runs)
