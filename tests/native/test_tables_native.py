"""Results tables on the native path: ``simulate --out`` (plain and ``--duplicate``, CSV, two
workers, Ray), ``--duplicate`` without tables, ``compare`` and ``sweep`` play Baha's random and
heuristic line-ups in native batches, and write exactly the tables of the Python engine for the
same seeds: every table, every row, every column. Other line-ups, records and
``CARDROOM_ENGINE=python`` take the Python path."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from native_support import needs_native
from tables_support import counted_batches, tables, written
from typer.testing import CliRunner

from cardroom import native
from cardroom.cli.main import app
from cardroom.games.baha import Rules
from cardroom.games.baha.results import rows
from cardroom.games.contracts import Decisions
from cardroom.sim import results as sim_results
from cardroom.sim.duplicate import run_duplicate
from cardroom.sim.results import Backend, read_manifest
from cardroom.sim.tournament import Lineup, play_state

pytestmark = needs_native

TABLES = ("games", "deals", "cards", "hands", "tricks")


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The games each native table batch played (in this process), in order."""
    import cardroom.games.baha.native as baha_native

    yield from counted_batches(monkeypatch, baha_native)


@pytest.mark.parametrize("options, agents, duplicate", [
    ({}, "heuristic", False),
    ({}, "random,heuristic,heuristic,random", True),
    ({"players": 3, "draw_pile": True, "random_dealer": True, "stream": "twister"}, "heuristic,random,heuristic",
     False),
    ({"players": 5, "scoring": "face", "target": 60, "passing": False, "stream": "twister"}, "random", False),
    ({"players": 2, "moon": False}, "random,heuristic", True),
    ({"players": 6, "target": 40}, "heuristic", True),
])
def test_simulate_out_writes_the_python_engines_tables(batches, tmp_path, monkeypatch, options, agents, duplicate):
    monkeypatch.setattr(sim_results, "NATIVE_CHUNK", 9)  # several chunks, several writes
    rules = Rules(**options)
    expected = written(tmp_path / "python", "python", rules, 12, agents, duplicate=duplicate,
                       backend=Backend(workers=2))
    assert batches == []
    found = written(tmp_path / "native", "native", rules, 12, agents, duplicate=duplicate,
                    backend=Backend(workers=1))
    assert len(batches) > 1 and max(batches) <= 9 and sum(batches) == len(expected["games"])  # in chunks
    assert found.keys() == set(TABLES)
    for name in TABLES:
        assert len(found[name]) == len(expected[name]) > 0, name
        assert found[name] == expected[name], name


def test_a_moon_is_written_as_the_python_engine_writes_it(tmp_path):
    rules = Rules(players=3, stream="twister")
    expected = written(tmp_path / "python", "python", rules, 4, "heuristic", seed=117)  # 118 shoots one
    found = written(tmp_path / "native", "native", rules, 4, "heuristic", seed=117)
    assert any(row["moon"] is not None for row in expected["deals"])
    assert found == expected


def test_csv_tables_and_two_workers_on_the_native_path(tmp_path):
    rules = Rules(target=50)
    written(tmp_path / "python", "python", rules, 10, "heuristic", csv=True, backend=Backend(workers=1))
    written(tmp_path / "native", "native", rules, 10, "heuristic", csv=True, backend=Backend(workers=2))
    for name in TABLES:
        assert (tmp_path / "native" / f"{name}.csv").read_text() == (tmp_path / "python" / f"{name}.csv").read_text()


def test_a_game_stopped_by_the_action_guard_gives_the_python_rows(tmp_path):
    """A trick cut short keeps its cards (trick 0, taken by nobody); a stopped game has no places."""
    import cardroom.games.baha.native as baha_native

    rules = Rules(players=4)
    lineup = Lineup.parse("heuristic,random,heuristic,random", 4)
    found = baha_native.table_games(rules, [3, 4], [lineup.specs] * 2, 37)
    columns, positions = found.columns(), found.row_games()
    native.use_engine("python")
    try:
        for game, seed in enumerate([3, 4]):
            marks: list[int] = []
            state, result = play_state(rules, seed, lineup, max_actions=37, marks=marks)
            assert result.guard_stopped and found.winners[game] == -1
            expected = rows(state.log, rules, Decisions(marks))
            assert found.places[game] is expected.places is None
            for name, table in expected.tables.items():
                at = [i for i, g in enumerate(positions[name].to_pylist()) if g == game]
                assert [{k: v[i].as_py() for k, v in columns[name].items()} for i in at] == table, name
            assert expected.tables["cards"][-1]["horns_taken_by"] is None
    finally:
        native.use_engine(None)


def test_duplicate_without_tables_plays_natively_with_the_python_results(monkeypatch):
    import cardroom.games.baha.native as baha_native
    from cardroom.sim import duplicate

    calls: list[int] = []
    real = baha_native.agent_games
    monkeypatch.setattr(baha_native, "agent_games", lambda r, g, *a: calls.append(g) or real(r, g, *a))
    monkeypatch.setattr(duplicate, "NATIVE_DEALS", 4)
    rules = Rules(players=3, target=60)
    lineup = Lineup.parse("heuristic,random,random", 3)
    found: dict[str, Any] = {}
    try:
        for engine in ("python", "native"):
            native.use_engine(engine)
            steps: list[int] = []
            lineups, games = run_duplicate(rules, 10, 5, lineup, workers=1, progress=steps.append)
            assert sum(steps) == 30
            found[engine] = [[g.to_dict() for g in row] for row in games]
    finally:
        native.use_engine(None)
    assert calls == [4] * 3 + [4] * 3 + [2] * 3  # each chunk of deals in each rotation
    assert found["native"] == found["python"] and len(found["native"]) == 10


def test_other_lineups_records_and_the_python_engine_write_through_python(batches, tmp_path):
    rules = Rules(target=30)
    written(tmp_path / "a", "native", rules, 2, "ismcts:iterations=5,random,random,random", batched=False)
    written(tmp_path / "b", "native", rules, 2, "heuristic", batched=False, records=tmp_path / "records")
    written(tmp_path / "c", "python", rules, 2, "heuristic")
    assert batches == []
    assert len(list((tmp_path / "records").iterdir())) == 2


def designer_run(tmp_path: Path, engine: str, command: list[str]) -> dict[str, Any]:
    """A compare or sweep through the command line: its figures and every variant's tables."""
    native.use_engine(engine)
    out, figures = tmp_path / f"{engine}-out", tmp_path / f"{engine}.json"
    result = CliRunner().invoke(app, [*command, "--workers", "1", "--out", str(out), "--json", str(figures)])
    assert result.exit_code == 0, result.output
    variants = sorted(p.name for p in out.iterdir())
    assert len(variants) == 2
    return {"figures": json.loads(figures.read_text()), **{v: tables(out / v) for v in variants}}


@pytest.mark.parametrize("command", [
    ["compare", "baha", "--rule", "target=50", "--rule", "target=50,scoring=face", "--games", "8"],
    ["sweep", "baha", "--rule", "players=3,4", "--rule", "target=40", "--games", "8", "--agents", "random"],
])
def test_compare_and_sweep_play_natively_with_the_python_tables(batches, tmp_path, command):
    expected = designer_run(tmp_path, "python", command)
    assert batches == []
    found = designer_run(tmp_path, "native", command)
    assert sum(batches) == 16
    assert found == expected


def test_ray_tasks_play_natively_with_the_python_tables(tmp_path):
    rules = Rules(players=3, target=50)
    expected = written(tmp_path / "python", "python", rules, 16, "heuristic,random,heuristic", duplicate=True)
    found = written(tmp_path / "ray", "native", rules, 16, "heuristic,random,heuristic", duplicate=True,
                    backend=Backend(workers=2, ray=True))
    assert read_manifest(tmp_path / "ray")["backend"]["ray"] is True
    assert found == expected
