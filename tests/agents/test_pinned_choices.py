"""Bots choose exactly as they did: pinned choices of ISMCTS and whole heuristic games.

The figures were taken from the code before the bots found their game's parts through the
registry (the UCB constant, the heuristic, the quiet playout, decoded actions); a change that
alters a single decision fails here. The ISMCTS figures are the Python search's
(``engine=python``): on native Baha the agent searches in C++ by default, on its own stream.
Every figure was taken on the Twister chance stream (``stream=twister``, the games of before the
split stream), which these games name: the bots' choices there must not move either.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from cardroom.agents import make
from cardroom.engine import State
from cardroom.games import make_rules

GAMES = {"baha": {"players": 4}, "baebae": {"players": 4}}


def position(game: str, options: dict[str, Any], seed: int, moves: int) -> State:
    """A game after ``moves`` random moves drawn from ``seed``."""
    state = make_rules(game, {**options, "stream": "twister"}).new_game(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


ISMCTS_CHOICES = {
    ("baha", "heuristic"): [55, 72, 48, 15],
    ("baha", "random"): [67, 101, 42, 23],
    ("baebae", "heuristic"): [107, 16, 47, 105],
    ("baebae", "random"): [107, 25, 48, 105],
}


@pytest.mark.parametrize(("game", "rollout"), list(ISMCTS_CHOICES))
def test_ismcts_choices_are_pinned(game: str, rollout: str) -> None:
    chosen = []
    for seed, moves in ((1, 0), (2, 7), (3, 19), (4, 33)):
        state = position(game, GAMES[game], seed, moves)
        seat = state.current_player
        assert seat is not None
        chosen.append(make("ismcts", seed=seed, iterations=40, rollout=rollout, engine="python").act(state, seat))
    assert chosen == ISMCTS_CHOICES[game, rollout]


ISMCTS_LINES = {
    ("baha", "heuristic"): [46, 25, 45, 39, 49, 37, 48, 41, 29, 27, 35, 26],
    ("baha", "random"): [40, 38, 45, 41, 30, 28, 32, 33, 27, 35, 31, 29],
    ("baebae", "heuristic"): [105, 34, 21, 47, 42, 116, 3, 104, 11, 111, 113, 1],
    ("baebae", "random"): [105, 34, 21, 47, 42, 116, 51, 48, 116, 104, 105, 9],
}


@pytest.mark.parametrize(("game", "rollout"), list(ISMCTS_LINES))
def test_ismcts_plays_a_pinned_line(game: str, rollout: str) -> None:
    """Twelve moves of ISMCTS against itself (Baha from after the pass: tricks are searched)."""
    state = position(game, GAMES[game], 5, 12)
    bots = [make("ismcts", seed=10 + s, iterations=25, rollout=rollout, engine="python") for s in range(len(state.scores))]
    line = []
    for _ in range(12):
        seat = state.current_player
        assert seat is not None
        action = bots[seat].act(state, seat)
        line.append(action)
        state.apply(action)
    assert line == ISMCTS_LINES[game, rollout]


HEURISTIC_GAMES = [
    ("baha", {"players": 4}, 1, "3369b2dbc6134d26", 244),
    ("baha", {"players": 4}, 2, "6e932ca792d8e8fb", 424),
    ("baha", {"players": 3}, 1, "32e554246047576b", 231),
    ("baha", {"players": 3}, 2, "aa8d4d1899171f86", 231),
    ("baebae", {"players": 4}, 1, "c5afa82399643a70", 161),
    ("baebae", {"players": 4}, 2, "7e4a781d537198bf", 111),
    ("baebae", {"players": 3, "rounds": 2}, 1, "715ceb10102f12bb", 38),
    ("baebae", {"players": 3, "rounds": 2}, 2, "b663f9288c43f17a", 50),
]


@pytest.mark.parametrize(("game", "options", "seed", "digest", "actions"), HEURISTIC_GAMES)
def test_heuristic_games_are_pinned(game: str, options: dict[str, Any], seed: int, digest: str, actions: int) -> None:
    """A whole game of four heuristic bots, by a hash of every action taken."""
    state = make_rules(game, {**options, "stream": "twister"}).new_game(seed)
    bots = [make("heuristic", seed=seed + s) for s in range(len(state.scores))]
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(state, seat))
    taken = [a for _, a in state.history]
    assert len(taken) == actions
    assert hashlib.sha256(",".join(map(str, taken)).encode()).hexdigest()[:16] == digest
