"""The ``win`` reward in the native BAEBAE search (``native/cardroom/baebae_reward.hpp``) is the
Python search's (``games/baebae/reward.py``): the same shares number for number, the same rounds
left counted, the same values backed up where the outcome is sure."""

from __future__ import annotations

import random
from typing import Any

import pytest
from native_support import needs_native

from cardroom.agents.ismcts import ISMCTSAgent
from cardroom.games.baebae import Rules
from cardroom.games.baebae.reward import win_returns
from cardroom.native import core

pytestmark = needs_native

ENGINES = ("native", "python")


def test_the_native_shares_are_the_pythons_number_for_number() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        n = rng.randrange(2, 9)
        totals = [rng.randrange(0, 200) for _ in range(n)]
        if rng.random() < 0.3:
            totals[rng.randrange(n)] = min(totals)  # shared leads
        left = rng.randrange(0, 4)
        temperature = rng.choice([0.5, 4.0, 8.0, 25.0, 1e6])
        assert core().baebae_win_returns(totals, left, temperature) == win_returns(totals, left, temperature)
    with pytest.raises(ValueError, match="temperature must be a finite number more than 0"):
        core().baebae_win_returns([1, 2], 1, 0.0)


def position(rules: Rules, seed: int, margin: int) -> tuple[Any, int]:
    """A first position with a choice, its player's total ``margin`` below (minus: above) every
    other's."""
    probe = rules.new_game(seed)
    while len(probe.legal_actions()) < 2:
        probe.apply(probe.legal_actions()[0])
    seat = probe.current_player
    assert seat is not None
    totals = [0 if s == seat else margin for s in range(rules.players)]
    if margin < 0:
        totals = [-margin if s == seat else 0 for s in range(rules.players)]
    state = rules.new_game(seed, totals=totals)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    assert state.current_player == seat
    return state, seat


def values(state: Any, seat: int, engine: str, **options: Any) -> list[float]:
    bot = ISMCTSAgent(seed=3, iterations=60 if engine == "python" else 400, engine=engine, **options)
    found = bot.action_values(state, seat)
    assert len(found) >= 2
    return [mean for _, mean in found.values()]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_sure_win_in_the_last_round_backs_up_the_whole_share(engine: str) -> None:
    """Ten thousand points ahead in the game's last round, every move wins: each is worth exactly
    1 - 1/4 to the win reward (and nothing else matters), while the points reward still tells the
    moves apart by the penalties they leave."""
    rules = Rules(players=4, rounds=1)
    ahead, seat = position(rules, 5, 10_000)
    assert set(values(ahead, seat, engine, reward="win")) == {0.75}
    assert len(set(values(ahead, seat, engine))) > 1
    behind, seat = position(rules, 5, -10_000)
    assert set(values(behind, seat, engine, reward="win")) == {-0.25}


@pytest.mark.parametrize("engine", ENGINES)
def test_before_the_last_round_the_share_is_smoothed_over_the_rounds_left(engine: str) -> None:
    """In round one of two the search's roll-outs end with the round: one round is still to
    score, so at a huge temperature every seat's share is a quarter (a return of about 0), however
    far ahead; the exact share would be 0.75."""
    rules = Rules(players=4, rounds=2)
    ahead, seat = position(rules, 5, 10_000)
    found = values(ahead, seat, engine, reward="win", win_temperature=1e12)
    assert max(abs(v) for v in found) < 1e-6
    assert set(values(ahead, seat, engine, reward="win")) == {0.75}  # at 8 points: a sure win still


def test_a_game_horizon_plays_every_round_out() -> None:
    """``horizon=game``: the roll-outs play to the game's end, so in round one of two the share is
    exact again, at any temperature (the round's horizon smooths it to about 0 above)."""
    rules = Rules(players=4, rounds=2)
    ahead, seat = position(rules, 5, 10_000)
    found = values(ahead, seat, "native", reward="win", win_temperature=1e12, horizon="game")
    assert set(found) == {0.75}
