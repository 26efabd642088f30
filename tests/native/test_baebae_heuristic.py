"""BAEBAE's heuristic in C++ against the Python one: the same choice at every decision of games
over the project's decks, generated decks and every option (some moves then taken at random,
for positions heuristic play alone would not reach), the same tie-break draws; and whole
heuristic and mixed batches against run_games."""

from __future__ import annotations

import random

import pytest
from baebae_native_support import DECK_OPTIONS
from baebae_support import random_decks, write_deck
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import needs_native, stream_for

from cardroom import native
from cardroom.agents.baebae_heuristic import BaebaeHeuristic
from cardroom.games.baebae import Rules
from cardroom.games.baebae.rules import read_decks
from cardroom.games.baebae.state import BaebaeState
from cardroom.sim.tournament import Lineup, run_games

pytestmark = needs_native


def play_both_heuristics(rules: Rules, seed: int, rng: random.Random, wander: float) -> int:
    """A game on both engines where every seat's heuristic is asked on both at each decision;
    at a share ``wander`` of them a random legal move is taken instead. Returns the decisions."""
    from cardroom.games.baebae.native import NativeBaebaeState, NativeHeuristic

    python, fast = BaebaeState.start(rules, seed), NativeBaebaeState.start(rules, seed)
    theirs = [BaebaeHeuristic(seed * 1000 + s) for s in range(rules.players)]
    ours = [NativeHeuristic(seed * 1000 + s, rules.stream) for s in range(rules.players)]
    decisions = 0
    while not python.is_over and decisions < 3000:
        seat = python.current_player
        assert seat is not None
        expected = theirs[seat].act(python, seat)
        assert ours[seat].act(fast, seat) == expected, (decisions, python.view(seat))
        action = rng.choice(python.legal_actions()) if rng.random() < wander else expected
        assert fast.apply(action) == python.apply(action)
        decisions += 1
    for mine, other in zip(ours, theirs, strict=True):
        assert mine.random() == other.follow(python).random()  # the same tie-break draws were taken
    return decisions


OPTIONS = [
    {**options, "stream": stream_for(options)} for options in (
        {"players": players, **DECK_OPTIONS[deck], "draw_when_able": dwa, "chosen_target": chosen,
         "decks": 2 if players == 8 else 1}
        for deck in DECK_OPTIONS for players in (2, 3, 4, 6, 8) for dwa in (False, True)
        for chosen in ("once", "each_step"))
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: f"{o['players']}-{o['draw_when_able']}-"
                         f"{o['chosen_target']}-{len(o['deck_files'])}")  # type: ignore[arg-type]
def test_the_native_heuristic_chooses_as_the_python_one(options):
    for i in range(3):
        rng = random.Random(f"{i}:{sorted(options.items())}")
        rules = Rules(**options, rounds=1 + i, ace_penalty=(1, 5, 0)[i], turn_limit=(2000, 40, 2000)[i])
        play_both_heuristics(rules, rng.randrange(-10**9, 10**9), rng, wander=(0.0, 0.2, 0.5)[i])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck=random_decks(), players=st.integers(2, 6), seed=st.integers(-(2**40), 2**40),
       wander=st.sampled_from([0.0, 0.3]), choices=st.randoms())
def test_the_native_heuristic_chooses_as_the_python_one_with_generated_decks(deck, players, seed, wander, choices):
    rules = Rules(**read_decks(str(write_deck(deck, "native"))), players=players, rounds=2, turn_limit=200)
    play_both_heuristics(rules, seed, random.Random(choices.random()), wander)


@pytest.mark.parametrize("options, agents", [
    ({}, "heuristic"), ({"players": 3, **DECK_OPTIONS[list(DECK_OPTIONS)[1]]}, "heuristic,random,heuristic"),
    ({"players": 2, "rounds": 1}, "random,heuristic"), ({"players": 6, "draw_when_able": True}, "heuristic"),
])
def test_heuristic_and_mixed_batches_are_the_games_run_games_plays(options, agents):
    rules = Rules(**options)
    lineup = Lineup.parse(agents, rules.players)
    try:
        native.use_engine("python")
        expected = [r.to_dict() for r in run_games(rules, 12, 5, lineup)]
        native.use_engine("native")
        assert [r.to_dict() for r in run_games(rules, 12, 5, lineup)] == expected
    finally:
        native.use_engine(None)
