"""Baha's results tables on the native path, its own cases: a moon, a game the action guard
stopped, and ``--duplicate`` without tables, written exactly as the Python engine writes them.
``simulate --out`` (plain and ``--duplicate``, CSV, two workers, Ray), ``compare`` and ``sweep``
are every game's (``test_games_tables.py``, Baha's runs in ``baha_native_support.py``)."""

from __future__ import annotations

from typing import Any

from native_support import needs_native
from tables_support import native_rows, written

from cardroom import native
from cardroom.games.baha import Rules
from cardroom.games.baha.results import rows
from cardroom.sim.duplicate import run_duplicate
from cardroom.sim.tournament import Lineup

pytestmark = needs_native

def test_a_moon_is_written_as_the_python_engine_writes_it(tmp_path):
    rules = Rules(players=3, stream="twister")
    expected = written(tmp_path / "python", "python", rules, 4, "heuristic", seed=117)  # 118 shoots one
    found = written(tmp_path / "native", "native", rules, 4, "heuristic", seed=117)
    assert any(row["moon"] is not None for row in expected["deals"])
    assert found == expected


def test_a_game_stopped_by_the_action_guard_gives_the_python_rows():
    """A trick cut short keeps its cards (trick 0, taken by nobody); a stopped game has no places."""
    import cardroom.games.baha.native as baha_native

    lineup = Lineup.parse("heuristic,random,heuristic,random", 4)
    for result, expected in native_rows(baha_native, rows, Rules(players=4), [3, 4], lineup, 37):
        assert result.guard_stopped and expected.places is None
        assert expected.tables["cards"][-1]["horns_taken_by"] is None


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


