"""Batches of native games: the very games `cardroom simulate` plays with random agents."""

from __future__ import annotations

import pytest
from native_support import needs_native

from cardroom.engine import RulesError
from cardroom.games.baha import Rules
from cardroom.sim.tournament import Lineup, run_games

pytestmark = needs_native


@pytest.mark.parametrize("options", [
    {}, {"players": 2}, {"players": 3, "draw_pile": True, "random_dealer": True},
    {"players": 5, "scoring": "face", "moon": False}, {"players": 6, "passing": False, "target": 40},
])
def test_a_batch_plays_the_games_simulate_plays_with_random_agents(options):
    from cardroom.games.baha.native import random_games

    rules = Rules(**options)
    first = -7
    found = random_games(rules, 40, first)
    expected = run_games(rules, 40, first, Lineup.parse("random", rules.players), workers=1)
    assert found.totals == [r.totals for r in expected]
    assert [[w] for w in found.winners] == [r.winners for r in expected]
    assert found.hands == [r.deals for r in expected]
    assert found.actions == [r.actions for r in expected]
    assert found.moons == [r.extras["moons"] for r in expected]


def test_the_action_guard_stops_a_game_and_bad_arguments_are_refused():
    from cardroom.games.baha.native import random_games

    found = random_games(Rules(), 2, 0, max_actions=10)
    assert found.actions == [10, 10] and found.winners == [-1, -1]
    with pytest.raises(RulesError, match="first_seed"):
        random_games(Rules(), 2, 2**63)
    with pytest.raises(RulesError, match="games must be"):
        random_games(Rules(), -1)


def test_fast_play_outs_play_whole_uniform_games():
    from cardroom.games.baha.native import random_games

    rules = Rules(players=4, target=1)
    fast = random_games(rules, 3000, 0, exact=False)
    exact = random_games(rules, 3000, 0)
    assert fast.totals != exact.totals and min(fast.hands) == 1
    # every hand gives out its 60 horns, or a moon's 3 x 60 (a tie for lowest plays another hand)
    assert all(sum(t) % 60 == 0 and 60 * h <= sum(t) <= 180 * h for t, h in zip(fast.totals, fast.hands, strict=True))
    assert all(w in range(4) for w in fast.winners)
    # uniform choices: each seat wins about a quarter of the hands
    for seat in range(4):
        assert abs(fast.winners.count(seat) / 3000 - 0.25) < 0.05
