"""Every native game's results tables on the native path, the runs each game gives
(``native_games.GAMES``; a game's own cases are in its ``test_*tables_native.py``):
``simulate --out`` (plain and ``--duplicate``, CSV on two workers, Ray), ``compare`` and
``sweep`` play the game's random and heuristic line-ups in native batches and write exactly the
tables of the Python engine for the same seeds: every table, every row, every column. Other
line-ups, records and ``CARDROOM_ENGINE=python`` take the Python path. (Ray's tasks:
``test_games_tables_ray.py``, a file of its own for the test run's balance.)"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from native_games import GAMES
from native_support import NativeGame, needs_native
from tables_support import counted_batches, designer_run, written

from cardroom.sim import results as sim_results
from cardroom.sim.results import Backend

pytestmark = needs_native

EVERY_GAME = list(GAMES.values())


def by_game(cases: str) -> Any:
    """Each game's cases of the field ``cases``, with the game first, and their ids."""
    found = [(game, case) for game in EVERY_GAME for case in getattr(game, cases)]
    return {"argvalues": found, "ids": [f"{game.name}-{i}" for i, (game, _) in enumerate(found)]}


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[list[int]]:
    """The games each native table batch of the test's game played (in this process), in order."""
    game: NativeGame = request.node.callspec.params["game"]
    yield from counted_batches(monkeypatch, importlib.import_module(f"cardroom.games.{game.name}.native"))


@pytest.mark.parametrize(("game", "run"), **by_game("table_runs"))
def test_simulate_out_writes_the_python_engines_tables(batches: list[int], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch, game: NativeGame,
                                                       run: tuple[dict[str, Any], str, bool]) -> None:
    options, agents, duplicate = run
    monkeypatch.setattr(sim_results, "NATIVE_CHUNK", 9)  # several chunks, several writes
    rules = game.rules(**options)
    expected = written(tmp_path / "python", "python", rules, 12, agents, duplicate=duplicate,
                       backend=Backend(workers=2))
    assert batches == []
    found = written(tmp_path / "native", "native", rules, 12, agents, duplicate=duplicate,
                    backend=Backend(workers=1))
    assert len(batches) > 1 and max(batches) <= 9 and sum(batches) == len(expected["games"])  # in chunks
    assert found.keys() == set(game.tables)
    for name in game.tables:
        assert len(found[name]) == len(expected[name]) > 0, name
        assert found[name] == expected[name], name


@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda g: g.name)
def test_csv_tables_and_two_workers_on_the_native_path(tmp_path: Path, game: NativeGame) -> None:
    rules = game.rules(**game.csv_run)
    written(tmp_path / "python", "python", rules, 10, "heuristic", csv=True, backend=Backend(workers=1))
    written(tmp_path / "native", "native", rules, 10, "heuristic", csv=True, backend=Backend(workers=2))
    for name in game.tables:
        assert (tmp_path / "native" / f"{name}.csv").read_text() == (tmp_path / "python" / f"{name}.csv").read_text()


@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda g: g.name)
def test_other_lineups_records_and_the_python_engine_write_through_python(batches: list[int], tmp_path: Path,
                                                                          game: NativeGame) -> None:
    rules = game.rules(**game.python_path_run)
    written(tmp_path / "a", "native", rules, 2, "ismcts:iterations=5,random,random,random", batched=False)
    written(tmp_path / "b", "native", rules, 2, "heuristic", batched=False, records=tmp_path / "records")
    written(tmp_path / "c", "python", rules, 2, "heuristic")
    assert batches == []
    assert len(list((tmp_path / "records").iterdir())) == 2


@pytest.mark.parametrize(("game", "command"), **by_game("designer_runs"))
def test_compare_and_sweep_play_natively_with_the_python_tables(batches: list[int], tmp_path: Path,
                                                                game: NativeGame, command: list[str]) -> None:
    expected = designer_run(tmp_path, "python", command)
    assert batches == []
    found = designer_run(tmp_path, "native", command)
    assert sum(batches) == 16
    assert found == expected
