"""What the native engine's tests share: the skip when it is not built, Baha's option sets,
and random games played on both engines side by side."""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator
from typing import Any

import pytest

from cardroom import native
from cardroom.games.baha import Rules
from cardroom.games.baha.state import BahaState

needs_native = pytest.mark.skipif(not native.available(), reason=f"native core {native.unavailable_reason()}")


def stream_for(options: dict[str, Any]) -> str:
    """One of the two chance streams for a set of options, half of the sets each, unrelated to
    any one option (a hash of them all): the option sets cover both streams at no extra cost."""
    return ("splitmix", "twister")[zlib.crc32(repr(sorted(options.items())).encode()) & 1]


def option_sets() -> Iterator[dict[str, Any]]:
    """Every combination of Baha's options that changes how a game is played (targets kept
    low enough for a whole game in a few hands, one high), each on one of the two streams."""
    for players in range(2, 7):
        for scoring in ("horns", "face"):
            for passing in (True, False):
                for moon in (True, False):
                    for draw_pile in (True, False) if players <= 3 else (False,):
                        for random_dealer in (True, False):
                            options = {
                                "players": players, "scoring": scoring, "passing": passing, "moon": moon,
                                "draw_pile": draw_pile, "random_dealer": random_dealer,
                            }
                            yield {**options, "stream": stream_for(options)}


def moments(state: Any, rng: random.Random, per_game: int, horizon: int, first: int = 1) -> Iterator[Any]:
    """``state`` at ``per_game`` moments of a random game (actions ``first`` to ``horizon``,
    drawn from ``rng``), the game played on at random between them, until it ends."""
    moves = 0
    for moment in sorted(rng.sample(range(first, horizon), per_game)):
        while moves < moment and not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            moves += 1
        if state.is_over:
            break
        yield state


def play_both(rules: Rules, seed: int, rng: random.Random, check_views: float = 0.0) -> tuple[Any, Any]:
    """One random game on the Python engine and on the native one, compared at every action:
    the seat to act, the legal actions, the events; at a share ``check_views`` of the moments,
    every seat's view and filtered log, the public view and the fields the encoder reads."""
    from cardroom.games.baha.native import NativeBahaState

    python = BahaState.start(rules, seed)
    fast = NativeBahaState.start(rules, seed)
    assert fast.log == python.log
    while True:
        assert fast.current_player == python.current_player and fast.is_over == python.is_over
        legal = python.legal_actions()
        assert fast.legal_actions() == legal
        if check_views and rng.random() < check_views:
            compare_positions(python, fast)
        if python.is_over:
            break
        action = rng.choice(legal)
        assert fast.apply(action) == python.apply(action)
    compare_positions(python, fast)
    assert fast.log == python.log and fast.history == python.history
    assert fast.scores == python.scores and fast.winner == python.winner and fast.returns() == python.returns()
    return python, fast


FIELDS = ("hand_no", "dealer", "phase", "turn", "hands", "taken", "face_down", "pass_offset", "picks", "passed",
          "received", "leftover", "draw_pile", "trick", "leader", "tricks_done", "played", "voids", "totals",
          "winner", "last_trick", "hand_start")


def compare_positions(python: Any, fast: Any) -> None:
    for name in FIELDS:
        assert getattr(fast, name) == getattr(python, name), name
    for seat in range(python.n):
        assert fast.view(seat) == python.view(seat)
        assert fast.view_log(seat) == python.view_log(seat)
        assert fast.observation(seat) == python.observation(seat)
    assert fast.public_view() == python.public_view()


def check_inference_steers_a_repeatable_search(state: Any, seat: int) -> None:
    """The ``ismcts`` search with ``infer`` at ``state`` for ``seat`` (either game's native
    search): the same seed gives the same root, on one thread or two; the weighed worlds, their
    noise and a fresh pool each iteration each change what the root finds."""
    from cardroom.agents import make
    from cardroom.agents.ismcts import ISMCTSAgent

    def root(**options: Any) -> dict[int, tuple[int, float]]:
        agent = make("ismcts", seed=5, iterations=300, **options)
        assert isinstance(agent, ISMCTSAgent)
        return agent.action_values(state, seat)

    first = root(infer=300)
    assert first == root(infer=300)
    assert first != root()
    assert root(infer=300, threads=2) == root(infer=300, threads=2)
    assert root(infer=300, infer_epsilon=0.05) != first
    fresh = root(infer=8, infer_pool="iteration")
    assert fresh == root(infer=8, infer_pool="iteration")
    assert fresh != root(infer=8)
