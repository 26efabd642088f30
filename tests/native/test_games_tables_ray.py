"""Every native game's results tables written by Ray tasks on the native path, the run each
game gives (``native_games.GAMES``): exactly the tables of the Python engine for the same seeds
(the other runs: ``test_games_tables.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from native_games import GAMES
from native_support import NativeGame, needs_native
from tables_support import written

from cardroom.sim.results import Backend, read_manifest

pytestmark = needs_native


@pytest.mark.parametrize("game", list(GAMES.values()), ids=lambda g: g.name)
def test_ray_tasks_play_natively_with_the_python_tables(tmp_path: Path, game: NativeGame) -> None:
    options, games = game.ray_run
    rules = game.rules(**options)
    expected = written(tmp_path / "python", "python", rules, games, "heuristic,random,heuristic", duplicate=True)
    found = written(tmp_path / "ray", "native", rules, games, "heuristic,random,heuristic", duplicate=True,
                    backend=Backend(workers=2, ray=True))
    assert read_manifest(tmp_path / "ray")["backend"]["ray"] is True
    assert found == expected
