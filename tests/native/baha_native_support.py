"""What Baha's native tests share: its option sets, a position compared field by field, random
games played on both engines side by side, and its cases of the tests every game runs
(``GAME``, :class:`native_support.NativeGame`)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from native_support import NativeGame, play_both_engines, stream_for

from cardroom.games.baha import Rules
from cardroom.games.baha.state import BahaState


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


def play_both(rules: Rules, seed: int, rng: random.Random, check_views: float = 0.0) -> tuple[Any, Any]:
    """One random game of Baha on the Python engine and on the native one, compared at every
    action and, at a share ``check_views`` of the moments, position by position (every field
    the encoder reads, every seat's view and filtered log, the public view)."""
    from cardroom.games.baha.native import NativeBahaState

    return play_both_engines(BahaState, NativeBahaState, compare_positions, rules, seed, rng, check_views)


GAMES_PER_OPTION = 14
"""A few thousand games in all (the timed suite's share; benchmarks/native_differential.py
plays 100,000)."""


def random_games(options: dict[str, Any]) -> None:
    """Random games of one option set compared at every action, over three targets."""
    for i in range(GAMES_PER_OPTION):
        target = (1, 25, 100)[i % 3]
        rng = random.Random(f"{i}:{sorted(options.items())}")
        seed = rng.randrange(-(2**70), 2**70) if i % 4 == 0 else rng.randrange(10**6)
        play_both(Rules(**options, target=target), seed, rng, check_views=0.03 if i < 2 else 0.0)


def midgame(seed: int, moves: int) -> Any:
    state = Rules(players=4).new_game(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


def decisions() -> Iterator[tuple[Any, int]]:
    """Positions of Baha on the native engine (the first before any move) with the seed each
    search of them is given."""
    for seed, moves in [(1, 0), (2, 5), (3, 14), (4, 30), (5, 45), (6, 70)]:
        yield midgame(seed, moves), seed


def _illegal(python: BahaState) -> list[Any]:
    return [-1, 104, 10**30, 0, 51, True, None, 2.0, "7", python.legal_actions()[0] - 52]


def _hand_made() -> tuple[Rules, int, dict[str, Any], list[dict[str, Any]], tuple[type[Exception], ...]]:
    from cardroom.engine import RulesError
    from cardroom.games.baha.rules import Deal

    rules = Rules(players=3, draw_pile=True)
    cards = list(range(52))
    deal = Deal(hands=[cards[0:13], cards[13:26], cards[26:39]], draw_pile=cards[39:], dealer=2)
    return rules, 9, {"deal": deal, "totals": [5, 0, 90], "hand": 4}, [
        {"hand": 0}, {"totals": [1, 2]}, {"deal": Deal(hands=[[0]] * 3)}], (RulesError,)


GAME = NativeGame(
    name="baha", rules=Rules, python=BahaState, native="NativeBahaState", compare_positions=compare_positions,
    options=list(option_sets()), option_id=lambda o: "-".join(f"{v}" for v in o.values()),
    random_games=random_games, illegal=_illegal, hand_made=_hand_made,
    too_large=({"totals": [0, 0, 2**70]}, "below 2\\*\\*62"),
    decisions=decisions, search_iterations=300,
    tables=("games", "deals", "cards", "hands", "tricks"),
    table_runs=[
        ({}, "heuristic", False),
        ({}, "random,heuristic,heuristic,random", True),
        ({"players": 3, "draw_pile": True, "random_dealer": True, "stream": "twister"}, "heuristic,random,heuristic",
         False),
        ({"players": 5, "scoring": "face", "target": 60, "passing": False, "stream": "twister"}, "random", False),
        ({"players": 2, "moon": False}, "random,heuristic", True),
        ({"players": 6, "target": 40}, "heuristic", True),
    ],
    csv_run={"target": 50}, python_path_run={"target": 30},
    designer_runs=[
        ["compare", "baha", "--rule", "target=50", "--rule", "target=50,scoring=face", "--games", "8"],
        ["sweep", "baha", "--rule", "players=3,4", "--rule", "target=40", "--games", "8", "--agents", "random"],
    ],
    ray_run=({"players": 3, "target": 50}, 16),
)
"""Baha's cases of the native tests every game runs."""
