"""Every native game's ISMCTS, on the positions each game gives (``native_games.GAMES``; a
game's own cases, its determinizer and the blind-bot test, are in its ``test_ismcts_*.py``):
the search legal and repeatable for a seed on one thread or two, its iterations all spent at
the root, run with the GIL released, and a seat out of range refused in words."""

from __future__ import annotations

import pytest
from native_games import GAMES
from native_support import NativeGame, needs_native

from cardroom.agents import make
from cardroom.engine import IllegalAction
from cardroom.native import core

pytestmark = needs_native

EVERY_GAME = list(GAMES.values())


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda g: g.name)
def test_native_search_is_legal_and_repeatable(game: NativeGame, rollout: str, threads: int) -> None:
    iterations = game.search_iterations
    for state, seed in game.decisions():
        seat = state.current_player
        choices = set()
        for _ in range(2):
            bot = make("ismcts", seed=seed, iterations=iterations, rollout=rollout, threads=threads, engine="native")
            choices.add(bot.act(state, seat))
            assert bot.last_iterations == (iterations if len(state.legal_actions()) > 1 else 0)
        assert len(choices) == 1 and choices <= set(state.legal_actions())


@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda g: g.name)
def test_native_search_spends_its_iterations_on_the_root(game: NativeGame) -> None:
    state = next(s for s, _ in game.decisions() if len(s.legal_actions()) > 1)
    seat = state.current_player
    for threads in (1, 3):
        action, done, root = state._search(seat, core().SearchOptions(
            iterations=400, seconds=0.0, exploration=1.0, heuristic=True, epsilon=0.1, max_depth=200, seed=9,
            threads=threads))
        assert done == 400 and sum(visits for _, visits, _ in root) == 400
        assert {key for key, _, _ in root} == set(state.legal_actions())
        assert action == max(root, key=lambda r: (r[1], r[2]))[0]


@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda g: g.name)
def test_the_search_refuses_a_seat_out_of_range(game: NativeGame) -> None:
    state, _ = next(game.decisions())
    for bad in (-1, state.n, True, "0"):
        with pytest.raises(IllegalAction, match="seat must be"):
            state.native_ismcts(bad, iterations=10, seconds=None, exploration=4.0, rollout="random",
                                epsilon=0.1, max_depth=200, seed=1, threads=1)


@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda g: g.name)
def test_native_search_lets_other_threads_run(game: NativeGame) -> None:
    """The search runs with the GIL released: Python code on another thread goes on while a
    one-second search runs (holding the GIL, it would wait for the search's end)."""
    import threading
    import time

    state, _ = next(game.decisions())
    bot = make("ismcts", seed=1, seconds=1.0, engine="native")
    search = threading.Thread(target=bot.act, args=(state, state.current_player))
    search.start()
    try:
        start = time.perf_counter()
        time.sleep(0.2)  # the search is in C++ by now; waking up again needs the GIL
        assert sum(range(100_000)) > 0  # some Python work, which needs the GIL too
        assert time.perf_counter() - start < 0.7
    finally:
        search.join()
    assert bot.last_iterations > 2
