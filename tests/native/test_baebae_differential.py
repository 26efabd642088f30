"""BAEBAE on the native engine against the Python reference, its own cases: generated decks
compared at every action (legal actions, events) and position by position (every field, views,
filtered logs, observations); determinized worlds, clones and pickles; a step the core lacks.
The random games over every option set, the refusals and the hand-made start are every
game's (``test_games_differential.py``, BAEBAE's cases in ``baebae_native_support.py``)."""

from __future__ import annotations

import pickle
import random

import pytest
from baebae_native_support import compare_positions, play_both
from baebae_support import DECK_OPTIONS, random_decks, write_deck
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import needs_native

from cardroom import native
from cardroom.engine import RulesError
from cardroom.games.baebae import Rules
from cardroom.games.baebae.rules import read_decks
from cardroom.games.baebae.state import BaebaeState

pytestmark = needs_native


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck=random_decks(), players=st.integers(2, 6), seed=st.integers(-(2**63), 2**63),
       chosen=st.sampled_from(["once", "each_step"]), draw_when_able=st.booleans(), choices=st.randoms())
def test_generated_decks_agree_at_every_action(deck, players, seed, chosen, draw_when_able, choices):
    rules = Rules(**read_decks(str(write_deck(deck, "native"))), players=players, rounds=2,
                  chosen_target=chosen, draw_when_able=draw_when_able, turn_limit=200)
    play_both(rules, seed, random.Random(choices.random()), check_views=0.05)


@pytest.mark.parametrize("deck", list(DECK_OPTIONS), ids=["sample", "sample-and-extras"])
def test_determinized_worlds_clones_and_pickles_agree(deck):
    from cardroom.games.baebae.native import NativeBaebaeState

    for seed in range(16):
        rules = Rules(players=2 + seed % 4, **DECK_OPTIONS[deck], rounds=2)
        rng = random.Random(seed)
        python, fast = BaebaeState.start(rules, seed), NativeBaebaeState.start(rules, seed)
        for _ in range(rng.randrange(0, 80)):
            if python.is_over:
                break
            action = rng.choice(python.legal_actions())
            python.apply(action)
            fast.apply(action)
        seat = rng.randrange(rules.players)
        world_python = python.determinize(seat, random.Random(seed))
        world_fast = fast.determinize(seat, random.Random(seed))
        assert isinstance(world_fast, NativeBaebaeState) and world_fast.seed == world_python.seed
        compare_positions(world_python, world_fast)
        copy = fast.clone()
        copied = pickle.loads(pickle.dumps(fast))
        compare_positions(python, copied)
        for _ in range(40):  # the worlds play on alike
            if world_python.is_over:
                break
            action = rng.choice(world_python.legal_actions())
            assert world_fast.apply(action) == world_python.apply(action)
        compare_positions(world_python, world_fast)
        compare_positions(python, copy)  # the clone did not move with the world


def test_a_step_the_core_lacks_is_said_in_words_and_refused_never_played_on_python(monkeypatch):
    from cardroom.games.baebae import native as baebae_native
    from cardroom.games.baebae.program import OPS, unsupported

    assert unsupported(native.core().baebae_ops()) == [] and baebae_native.gaps() is None
    lacking = unsupported([op for op in OPS if op != "coin"])
    assert lacking[0] == "coin"  # and every op after it, which would run under the wrong code
    monkeypatch.setattr(baebae_native, "UNSUPPORTED", ("coin",))
    assert baebae_native.gaps() == "BAEBAE steps coin are not in this native core"
    assert "BAEBAE steps coin are not in this native core" in native.describe()
    assert "coin" in baebae_native.compile_rules(Rules()).used  # the sample deck flips coins
    with pytest.raises(RulesError, match="the native engine cannot play this deck: its steps coin are not"):
        baebae_native.NativeBaebaeState.start(Rules(), 1)
    with pytest.raises(RulesError, match="cannot play this deck"):
        baebae_native.random_games(Rules(), 1)
    plain = Rules(**read_decks(str(write_deck("name = \"Plain\"\n" + "".join(
        f"[[card]]\nrank = \"{r}\"\nsuit = \"{s}\"\n" for r in "23456789" for s in "CDHS"), "plain"))))
    assert baebae_native.NativeBaebaeState.start(plain, 1).log  # a deck without coins still plays natively
