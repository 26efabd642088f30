"""Baha's heuristic in C++ against agents/baha_heuristic.py: the same choice on positions from
many games over every option (its random tie-breaks drawn alike), and native batches of
heuristic games that are the very games `cardroom simulate` plays with heuristic agents."""

from __future__ import annotations

import random

import pytest
from baha_native_support import option_sets
from native_support import needs_native

from cardroom import native
from cardroom.agents.baha_heuristic import BahaHeuristic
from cardroom.engine import RulesError
from cardroom.games.baha import Rules
from cardroom.games.baha.rules import Deal
from cardroom.games.baha.state import BahaState
from cardroom.sim.tournament import Lineup, run_games

pytestmark = needs_native

OPTIONS = list(option_sets())


def play_compared(rules: Rules, seed: int, rng: random.Random, deal: Deal | None = None,
                  wander: float = 0.2) -> int:
    """One game on both engines, every seat's Python heuristic and native heuristic asked at
    every decision and compared; a share ``wander`` of the moves is then taken at random
    instead, for positions heuristic play alone would not reach. Returns the decisions."""
    from cardroom.games.baha.native import NativeBahaState

    python = BahaState.start(rules, seed, deal=deal)
    fast = NativeBahaState.start(rules, seed, deal=deal)
    agent_seeds = [seed * 1000 + s for s in range(rules.players)]
    theirs = [BahaHeuristic(s) for s in agent_seeds]
    ours = [native.core().BahaHeuristic(s, rules.stream == "splitmix") for s in agent_seeds]
    decisions = 0
    while not python.is_over:
        seat = python.current_player
        assert seat is not None
        expected = theirs[seat].act(python, seat)
        assert ours[seat].act(fast) == expected, (seed, python.log[-1], python.legal_actions())
        decisions += 1
        action = rng.choice(python.legal_actions()) if rng.random() < wander else expected
        assert fast.apply(action) == python.apply(action)
    for mine, reference in zip(ours, theirs, strict=True):
        assert mine.random() == reference.follow(python).random()  # the same draws were made
    return decisions


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{v}" for v in o.values()))
def test_the_native_heuristic_chooses_what_the_python_one_chooses(options):
    rng = random.Random(str(sorted(options.items())))
    decisions = 0
    for i in range(3):
        seed = rng.randrange(-(10**9), 10**9)
        decisions += play_compared(Rules(**options, target=(1, 60, 100)[i]), seed, rng, wander=(0.0, 0.2, 0.5)[i])
    assert decisions > 100


def test_moon_hands_and_shooters_are_played_alike():
    # Seat 0 holds every 11, 12 and 13 but one, and high cards besides: it keeps them, passes
    # low and tries the moon; the others see a shooter and try to stop it.
    high = [c for c in range(52) if c % 13 >= 10][:11]
    rest = sorted((c for c in range(52) if c not in high), key=lambda c: -(c % 13))
    rng = random.Random(4)
    for players in (3, 4):
        for seed in range(8):
            size = 52 // players
            hand0 = high + rest[:size - len(high)]
            others = rest[size - len(high):]
            rng.shuffle(others)
            hands = [hand0] + [others[k * size:(k + 1) * size] for k in range(players - 1)]
            leftover = others[(players - 1) * size:]
            deal = Deal(hands=hands, leftover=leftover, dealer=players - 1)
            for moon in (True, False):
                play_compared(Rules(players=players, moon=moon, target=200), seed, rng, deal=deal, wander=0.0)


@pytest.mark.parametrize("options", [
    {}, {"players": 2}, {"players": 3, "draw_pile": True, "random_dealer": True},
    {"players": 5, "scoring": "face", "moon": False}, {"players": 6, "passing": False, "target": 40},
])
def test_a_heuristic_batch_plays_the_games_simulate_plays_with_heuristic_agents(options):
    from cardroom.games.baha.native import agent_games, heuristic_games

    rules = Rules(**options)
    first = -3
    mixed = [("heuristic", "random")[s % 2] for s in range(rules.players)]
    for found, agents in ((heuristic_games(rules, 12, first), "heuristic"),
                          (agent_games(rules, 12, first, mixed), ",".join(mixed))):
        expected = run_games(rules, 12, first, Lineup.parse(agents, rules.players), workers=1)
        assert found.totals == [r.totals for r in expected]
        assert [[w] for w in found.winners] == [r.winners for r in expected]
        assert [len(p) for p in found.deal_points] == [r.deals for r in expected]
        assert found.deal_points == [r.deal_points for r in expected]
        assert found.actions == [r.actions for r in expected]
        assert found.moons == [r.extras["moons"] for r in expected]


def test_a_batch_refuses_agents_it_does_not_play():
    from cardroom.games.baha.native import agent_games

    with pytest.raises(RulesError, match="plays random or heuristic at each of the 4 seats"):
        agent_games(Rules(), 2, 0, ("ismcts",))
    with pytest.raises(RulesError, match="at each of the 4 seats"):
        agent_games(Rules(), 2, 0, ("random", "random"))
    with pytest.raises(RulesError, match="random agents only"):
        agent_games(Rules(), 2, 0, ("heuristic",), exact=False)
