"""Batches of native BAEBAE games: the very games `cardroom simulate` plays with random agents,
and run_games on the native path with the Python engine's results."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from baebae_native_support import DECK_OPTIONS
from native_support import counted_games, needs_native

from cardroom import native
from cardroom.engine import RulesError
from cardroom.games.baebae import Rules
from cardroom.sim import tournament
from cardroom.sim.tournament import Lineup, run_games

pytestmark = needs_native

EXTRAS = DECK_OPTIONS[list(DECK_OPTIONS)[1]]


def results(rules: Rules, games: int, seed: int, agents: str, engine: str) -> list[dict[str, object]]:
    native.use_engine(engine)
    try:
        steps: list[int] = []
        found = run_games(rules, games, seed, Lineup.parse(agents, rules.players), progress=steps.append)
        assert sum(steps) == games
        return [r.to_dict() for r in found]
    finally:
        native.use_engine(None)


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The games each native batch call played, in order."""
    import cardroom.games.baebae.native as baebae_native

    yield from counted_games(monkeypatch, baebae_native)


@pytest.mark.parametrize("options", [
    {}, {"players": 2}, {"players": 3, **EXTRAS, "draw_when_able": True},
    {"players": 5, **EXTRAS, "chosen_target": "each_step", "ace_penalty": 5}, {"players": 6, "turn_limit": 10},
    {"players": 8, "decks": 2, "hand_size": 7, "rounds": 1},
])
def test_run_games_takes_the_native_batches_with_the_python_engines_results(batches, monkeypatch, options):
    monkeypatch.setattr(tournament, "NATIVE_CHUNK", 7)  # several batches, the bar moved after each
    rules = Rules(**options)
    expected = results(rules, 20, -41, "random", "python")
    assert batches == []
    assert results(rules, 20, -41, "random", "native") == expected
    assert batches == [7, 7, 6]


@pytest.mark.parametrize("stream", ["splitmix", "twister"])
def test_seeds_from_zero_up_seat_the_python_engines_agents(stream):
    # Games 0, 1, ...: seed 0 and seeds above it, whose seats' generators the split stream's
    # batch hashes in two parts (the seed's digits once, then each seat's three).
    rules = Rules(players=3, rounds=1, stream=stream)
    assert results(rules, 12, 0, "random", "native") == results(rules, 12, 0, "random", "python")
    rules = Rules(players=4, rounds=1, stream=stream)
    assert results(rules, 4, 10**15 + 999, "random", "native") == results(rules, 4, 10**15 + 999, "random", "python")


def test_ties_for_first_place_give_every_winner():
    from cardroom.games.baebae.native import random_games

    rules = Rules(players=2, rounds=1, turn_limit=10)  # most rounds stop at the guard
    found = random_games(rules, 200, 0)
    shared = [w for w in found.winner_lists if len(w) > 1]
    assert shared, "no tie among 200 short games"
    expected = run_games(rules, 200, 0, Lineup.parse("random", 2), workers=1)
    assert found.winner_lists == [r.winners for r in expected]


def test_the_action_guard_stops_a_game_and_bad_arguments_are_refused():
    from cardroom.games.baebae.native import agent_games, random_games

    found = random_games(Rules(), 2, 0, max_actions=10)
    assert found.actions == [10, 10] and found.winners == [-1, -1] and found.winner_lists == [[], []]
    with pytest.raises(RulesError, match="first_seed"):
        random_games(Rules(), 2, 2**63)
    with pytest.raises(RulesError, match="games must be"):
        random_games(Rules(), -1)
    with pytest.raises(RulesError, match="plays random or heuristic at each of the 4 seats"):
        agent_games(Rules(), 2, 0, ("random", "ismcts", "random", "random"))


def test_fast_play_outs_keep_the_deals_and_play_whole_uniform_games():
    from cardroom.games.baebae.native import agent_games, random_games

    rules = Rules(players=4, rounds=1)
    fast = random_games(rules, 2000, 0, exact=False)
    exact = random_games(rules, 2000, 0)
    assert fast.totals != exact.totals and all(len(points) == 1 for points in fast.deal_points)
    assert all(w is not None for w in fast.winners) and -1 not in fast.winners
    # uniform choices at every seat: each seat goes out first in about a quarter of the rounds
    for seat in range(4):
        assert abs(sum(seat in w for w in fast.winner_lists) / 2000 - 0.25) < 0.06
    with pytest.raises(RulesError, match="random agents only"):
        agent_games(rules, 1, 0, ("heuristic",), exact=False)



def test_the_core_batch_refuses_the_flat_layout_in_words() -> None:
    # baebae_games is bound as every game's batch is (core_type.hpp's register_batch), flat
    # among its parameters; BAEBAE's batch has no flat layout and says so.
    from cardroom.games.baebae.native import core_rules

    rules = Rules(players=3)
    with pytest.raises(ValueError, match="flat must be False"):
        native.core().baebae_games(core_rules(rules), 0, 2, 200_000, True, [False] * 3, True)
