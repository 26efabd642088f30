"""The policy agent reads a seat's observation through the game's spec (no learning
environment imported): exactly what ``cardroom.rl`` gives the policies it trains."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardroom import games, rl
from cardroom.agents.policy import seen_by


@pytest.mark.parametrize("name", ["baha", "baebae"])
def test_the_policy_sees_what_the_environments_give(name: str) -> None:
    state = games.get(name).make_rules({"players": 3}).new_game(8)
    rng = random.Random(8)
    for _ in range(40):
        if state.is_over:
            break
        seat = state.current_player
        assert seat is not None
        observation, mask = seen_by(state, seat)
        assert np.array_equal(observation, rl.observe(state, seat))
        assert np.array_equal(mask, rl.action_mask(state).astype(bool))
        state.apply(rng.choice(state.legal_actions()))
