"""OpenSpiel's own search bots play whole deals of Cardroom's games through the adapter."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from cardroom import openspiel


def _play_with_bots(game: Any, bot: Any) -> Any:
    state = game.new_initial_state()
    state.apply_action(3)
    steps = 0
    while not state.is_terminal():
        state.apply_action(bot.step(state))
        steps += 1
    assert steps <= game.max_game_length()
    return state


@pytest.mark.parametrize("name", ["baha", "baebae"])
def test_openspiels_ismcts_plays_a_whole_deal(name: str) -> None:
    game = openspiel.load(name, deals=1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=5,
                           random_state=np.random.RandomState(2))
    state = _play_with_bots(game, bot)
    # Baha's pass picks were searched too: the first actions of the hand are passes
    if name == "baha":
        assert [e["t"] for e in state.cardroom.log].count("pass") == 4
    assert state.cardroom.deal_number == 2 or state.cardroom.is_over


@pytest.mark.parametrize("name", ["baha", "baebae"])
def test_openspiels_mcts_plays_a_whole_deal(name: str) -> None:
    game = openspiel.load(name)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator,
                       random_state=np.random.RandomState(2))
    state = _play_with_bots(game, bot)
    assert sum(state.returns()) == pytest.approx(0.0)
