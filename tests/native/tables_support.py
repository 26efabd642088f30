"""What the native results-tables tests share, every game's: the batches a run played, the
tables of a results folder read back, a run written on either engine, a designer's run through
the command line, and a native batch's rows against the Python rows of each game."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from cardroom import native
from cardroom.cli.main import app
from cardroom.games.contracts import Decisions
from cardroom.sim.results import read_manifest, simulate_to
from cardroom.sim.tournament import GameResult, Lineup, play_state


def counted_batches(monkeypatch: pytest.MonkeyPatch, module: ModuleType) -> Iterator[list[int]]:
    """The games each native table batch of a game's native ``module`` played (in this process),
    in order."""
    played: list[int] = []
    real = module.table_games

    def counted(rules: Any, seeds: list[int], *args: Any) -> Any:
        played.append(len(seeds))
        return real(rules, seeds, *args)

    monkeypatch.setattr(module, "table_games", counted)
    yield played
    native.use_engine(None)


def tables(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """Every table of a results folder, row by row, as read back."""
    manifest = read_manifest(folder)
    return {name: pq.read_table(folder / entry["file"]).to_pylist() for name, entry in manifest["tables"].items()}


def written(folder: Path, engine: str, rules: Any, games: int, agents: str, batched: bool = True,
            seed: int = 11, **options: Any) -> dict[str, Any]:
    native.use_engine(engine)
    steps: list[int] = []
    simulate_to(folder, rules, games, seed, Lineup.parse(agents, rules.players), progress=steps.append,
                batch_games=7, **options)
    manifest = read_manifest(folder)
    assert sum(steps) == manifest["games"]  # the bar reaches the end
    assert manifest["native_batches"] == (engine == "native" and batched)
    return {} if options.get("csv") else tables(folder)


def designer_run(tmp_path: Path, engine: str, command: list[str]) -> dict[str, Any]:
    """A compare or sweep through the command line: its figures and every variant's tables."""
    native.use_engine(engine)
    out, figures = tmp_path / f"{engine}-out", tmp_path / f"{engine}.json"
    result = CliRunner().invoke(app, [*command, "--workers", "1", "--out", str(out), "--json", str(figures)])
    assert result.exit_code == 0, result.output
    variants = sorted(p.name for p in out.iterdir())
    assert len(variants) == 2
    return {"figures": json.loads(figures.read_text()), **{v: tables(out / v) for v in variants}}


def native_rows(module: ModuleType, rows: Callable[..., Any], rules: Any, seeds: list[int], lineup: Lineup,
                max_actions: int) -> list[tuple[GameResult, Any]]:
    """Each game's rows from a native batch of the game's native ``module``, against the Python
    rows (the game's ``results.rows``) read from its log: per game its Python result and rows."""
    found = module.table_games(rules, seeds, [lineup.specs] * len(seeds), max_actions)
    columns, positions = found.columns(), found.row_games()
    out = []
    native.use_engine("python")
    try:
        for game, seed in enumerate(seeds):
            marks: list[int] = []
            state, result = play_state(rules, seed, lineup, max_actions=max_actions, marks=marks)
            expected = rows(state.log, rules, Decisions(marks))
            assert (found.winners[game] == -1) == result.guard_stopped
            assert found.places[game] == expected.places
            assert found.totals[game] == result.totals and found.actions[game] == result.actions
            assert found.deal_points[game] == result.deal_points and found.extras[game] == result.extras
            for name, table in expected.tables.items():
                at = [i for i, g in enumerate(positions[name].to_pylist()) if g == game]
                assert [{k: v[i].as_py() for k, v in columns[name].items()} for i in at] == table, name
            out.append((result, expected))
    finally:
        native.use_engine(None)
    return out
