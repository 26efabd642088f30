"""The search's ``reward`` option: ``points`` (the default) backs up the penalty points below the
table's mean, ``win`` each seat's share of the game's win (``games/baebae/reward.py``); bad values
are refused in words."""

from __future__ import annotations

import math
from typing import Any

import pytest

from cardroom.agents import make
from cardroom.agents.base import AgentError
from cardroom.games.baebae import Rules
from cardroom.games.baebae.reward import rounds_left, win_returns
from cardroom.games.baebae.state import BaebaeState


def test_the_last_rounds_win_share_is_exact_and_ties_split() -> None:
    assert win_returns([10, 20, 30, 40], 0, 8.0) == [0.75, -0.25, -0.25, -0.25]
    assert win_returns([12, 12, 30, 40], 0, 8.0) == [0.25, 0.25, -0.25, -0.25]
    assert win_returns([5, 5, 5], 0, 8.0) == pytest.approx([0.0, 0.0, 0.0])
    # a lead of one point wins as much as a lead of fifty
    assert win_returns([29, 30, 31, 32], 0, 8.0) == win_returns([0, 50, 60, 70], 0, 8.0)


def test_an_earlier_rounds_share_is_a_softmax_that_flattens_with_the_rounds_left() -> None:
    totals = [10, 18, 30, 40]
    two = win_returns(totals, 2, 8.0)
    scale = 8.0 * math.sqrt(2)
    weights = [math.exp(-(t - 10) / scale) for t in totals]
    assert two == pytest.approx([w / sum(weights) - 0.25 for w in weights], abs=1e-15)
    one = win_returns(totals, 1, 8.0)
    assert abs(sum(two)) < 1e-12 and abs(sum(one)) < 1e-12  # zero-sum, as the points are
    assert one[0] > two[0] > 0 > two[3] > one[3]  # a lead counts for more with fewer rounds left
    assert sorted(two, reverse=True) == two  # lower totals, larger shares
    assert win_returns(totals, 1, 1e9) == pytest.approx([0.0] * 4, abs=1e-7)


def test_the_rounds_left_count_the_unscored_round() -> None:
    assert rounds_left(3, 1, False) == 3  # round one: it and two more
    assert rounds_left(3, 3, False) == 1  # the last round, cut short or not yet scored
    assert rounds_left(3, 3, True) == 0  # the game over: every round in the totals


def test_the_python_state_scores_its_position_by_the_win_share() -> None:
    rules = Rules(players=4, rounds=2)
    state = BaebaeState.start(rules, 3, totals=[0, 9, 20, 30])
    assert state.win_returns(8.0) == win_returns([0, 9, 20, 30], 2, 8.0)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    assert state.win_returns(8.0) == win_returns(state.totals, 0, 8.0)
    assert max(state.win_returns(8.0)) > 0


@pytest.mark.parametrize(("options", "words"), [
    ({"reward": "wins"}, "reward must be one of points, win"),
    ({"reward": 1}, "reward must be one of points, win"),
    ({"reward": "win", "win_temperature": 0}, "win_temperature must be a finite number more than 0"),
    ({"reward": "win", "win_temperature": math.inf}, "win_temperature must be a finite number more than 0"),
    ({"reward": "win", "win_temperature": True}, "win_temperature must be a finite number more than 0"),
    ({"win_temperature": 4}, "give reward=win too"),
    ({"reward": "win", "policy": "learned", "value": 0.5}, "leave value out with reward=win"),
    ({"horizon": "hand"}, "horizon must be one of round, game"),
    ({"horizon": "game", "engine": "python"}, "horizon=game runs in the native BAEBAE search only"),
])
def test_bad_reward_and_horizon_options_are_refused_in_words(options: dict[str, Any], words: str) -> None:
    with pytest.raises(AgentError, match=words):
        make("ismcts", **options)


def test_the_win_reward_is_refused_for_a_game_without_a_share_of_the_win() -> None:
    from cardroom.games import baha

    state = baha.Rules(players=4).new_game(1)
    with pytest.raises(AgentError, match="reward=win is built for baebae"):
        make("ismcts", reward="win", iterations=5).act(state, state.current_player)


def test_the_agent_spec_takes_the_reward() -> None:
    from cardroom.sim.tournament import Lineup

    lineup = Lineup.parse("ismcts:iterations=5:reward=win:win_temperature=4,heuristic", 2)
    bot = lineup.make(0, 1)
    assert (bot.reward, bot.win_temperature) == ("win", 4.0)  # type: ignore[attr-defined]
    with pytest.raises(AgentError, match="reward must be one of"):
        Lineup.parse("ismcts:reward=wins,heuristic", 2)


def test_a_game_horizon_is_refused_where_the_search_is_not_baebaes_native() -> None:
    from cardroom.games import baha

    state = baha.Rules(players=4).new_game(1)
    with pytest.raises(AgentError, match="horizon=game is built for baebae's native search"):
        make("ismcts", horizon="game", iterations=5).act(state, state.current_player)
