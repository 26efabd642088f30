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


def old_layout(players: int, found: dict[str, list[int]]) -> dict[str, object]:
    """BatchGames' lists cut from the core's flat lists in Python, as the batch made them before
    the core built them (native/cardroom/baha_batch.hpp): the layout the new one must equal."""
    flat = found["totals"]
    points = found["points"]
    rows = [points[i:i + players] for i in range(0, len(points), players)]
    deal_points, start = [], 0
    for deals in found["deals"]:
        deal_points.append(rows[start:start + deals])
        start += deals
    return {
        "totals": [flat[i:i + players] for i in range(0, len(flat), players)], "winners": found["winners"],
        "hands": found["hands"], "actions": found["actions"], "moons": found["moons"],
        "extras": [{"moons": moons} for moons in found["moons"]], "deal_points": deal_points,
    }


LAYOUT_CASES = [
    ({"players": 2}, "random", True), ({"players": 3, "draw_pile": True, "random_dealer": True}, "random", True),
    ({"players": 3}, "heuristic", True), ({}, "random", True), ({}, "random", False),
    ({"players": 4, "scoring": "face", "moon": False}, "random,heuristic,random,heuristic", True),
    ({"players": 5, "passing": False, "target": 40}, "heuristic", True), ({"players": 5}, "random", False),
    ({"players": 6, "target": 30}, "heuristic,random,random,random,random,random", True),
    ({"players": 2, "target": 200}, "random", False),
]


@pytest.mark.parametrize("stream", ["splitmix", "twister"])
@pytest.mark.parametrize(("options", "agents", "exact"), LAYOUT_CASES)
def test_the_cores_lists_are_the_old_layouts(options, agents, exact, stream):
    # Many batches (several sizes and seeds, one with the action guard): the lists the core makes
    # hold what the Python cut of its flat lists held, each game's rows their own lists.
    from cardroom.games.baha.native import BatchGames, agent_games, core_rules
    from cardroom.native import core

    rules = Rules(**options, stream=stream)
    seats = agents.split(",") * (rules.players if "," not in agents else 1)
    fields = ("totals", "winners", "hands", "actions", "moons", "extras", "deal_points")
    for games, first, guard in ((0, 3, 200_000), (1, -5, 200_000), (17, 2**40, 200_000), (60, -900, 200_000),
                                (9, 11, 150)):
        found = agent_games(rules, games, first, tuple(seats), guard, exact=exact)
        assert type(found) is BatchGames
        flat = core().baha_games(core_rules(rules), first, games, guard, exact, [a == "heuristic" for a in seats], True)
        expected = old_layout(rules.players, flat)
        assert {name: getattr(found, name) for name in fields} == expected
        assert len({id(row) for row in found.totals}) == games
        assert len({id(row) for rows in found.deal_points for row in rows}) == sum(flat["deals"])
        assert max(found.actions, default=0) <= guard

