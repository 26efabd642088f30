"""`cardroom simulate baha` on the native path: run_games plays random and heuristic lineups in
native batches when Baha runs on the native engine, with exactly the results of the Python
engine's games, the progress bar moved as before; other lineups and records take the usual path."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from native_support import counted_games, needs_native

from cardroom import native
from cardroom.games.baha import Rules
from cardroom.sim import tournament
from cardroom.sim.tournament import Lineup, run_games

pytestmark = needs_native


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The games each native batch call played, in order."""
    import cardroom.games.baha.native as baha_native

    yield from counted_games(monkeypatch, baha_native)


def results(rules: Rules, games: int, seed: int, agents: str, engine: str, **options: object) -> list[dict]:
    native.use_engine(engine)
    steps: list[int] = []
    found = run_games(rules, games, seed, Lineup.parse(agents, rules.players), progress=steps.append,
                      **options)
    assert sum(steps) == games
    return [r.to_dict() for r in found]


@pytest.mark.parametrize("options, agents", [
    ({}, "random"), ({}, "heuristic"), ({"players": 3, "draw_pile": True}, "heuristic,random,heuristic"),
    ({"players": 5, "scoring": "face", "target": 60}, "heuristic"), ({"players": 2, "moon": False}, "random,heuristic"),
])
def test_run_games_takes_the_native_batches_with_the_python_engines_results(batches, monkeypatch, options, agents):
    monkeypatch.setattr(tournament, "NATIVE_CHUNK", 7)  # several batches, the bar moved after each
    rules = Rules(**options)
    expected = results(rules, 20, 41, agents, "python", workers=2)
    assert batches == []
    assert results(rules, 20, 41, agents, "native") == expected
    assert batches == [7, 7, 6]


def test_other_lineups_records_and_the_python_engine_take_the_usual_path(batches, tmp_path: Path):
    rules = Rules(target=30)
    results(rules, 2, 0, "ismcts:iterations=5,random,random,random", "native")
    results(rules, 2, 0, "heuristic", "native", records=tmp_path / "records")
    results(rules, 2, 0, "heuristic", "python")
    assert batches == []
    assert len(list((tmp_path / "records").iterdir())) == 2
