"""The quiet random playout picks exactly the moves of the ordinary loop and scores the hand alike."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.games.baha import Rules

OPTIONS = [{"target": 1}, {}, {"players": 3}, {"players": 2}, {"players": 3, "draw_pile": True},
           {"players": 5, "scoring": "face"}, {"players": 6, "moon": False}, {"passing": False}]


def _ordinary(state, rand):
    deal = state.hand_no
    while not state.is_over and state.hand_no == deal:
        legal = state.legal_actions()
        state.apply(legal[int(rand() * len(legal))])


def _score_event(state):
    return next(e for e in reversed(state.log) if e["t"] == "score")


@settings(max_examples=300, deadline=None)
@given(options=st.sampled_from(OPTIONS), seed=st.integers(0, 10**6), moves=st.integers(0, 60))
def test_playout_matches_the_ordinary_loop(options, seed, moves):
    state = Rules.from_dict(options).new_game(seed)
    walk = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[walk.randrange(len(legal))])
    if state.is_over:
        return
    slow, fast = state.clone(), state.clone()
    r_slow, r_fast = random.Random(seed + 1), random.Random(seed + 1)
    _ordinary(slow, r_slow.random)
    fast.random_playout(r_fast.random)
    assert _score_event(fast) == _score_event(slow)  # horns taken, moon, points, face-down cards
    assert (fast.totals, fast.winner, fast.is_over) == (slow.totals, slow.winner, slow.is_over)
    assert fast.returns() == slow.returns()
    assert r_fast.random() == r_slow.random()  # the same number of draws: the same moves
    assert fast.hand_no == state.hand_no  # the next hand is not dealt
    if not fast.is_over:
        assert fast.legal_actions() == [] and fast.current_player is None


@pytest.mark.parametrize("seed", range(20))
def test_playout_from_the_deal_scores_every_point(seed):
    rules = Rules(target=1000)
    state = rules.new_game(seed)
    state.random_playout(random.Random(seed).random)
    score = _score_event(state)
    assert score["hand"] == 1
    expected = 3 * rules.points_per_hand if score["moon"] is not None else rules.points_per_hand
    assert sum(state.totals) == expected
