"""BAEBAE on the native engine against the Python reference: random games over every option,
the project's decks and generated ones, compared at every action (legal actions, events) and
position by position (every field, views, filtered logs, observations); records replayed on
either engine, determinized worlds, clones and pickles, hand-made starts, refusals."""

from __future__ import annotations

import pickle
import random

import pytest
from baebae_native_support import compare_positions, play_both
from baebae_support import DECK_OPTIONS, random_decks, write_deck
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import needs_native, stream_for

from cardroom import native
from cardroom.engine import IllegalAction, RulesError
from cardroom.games.baebae import Deal, Rules
from cardroom.games.baebae.rules import read_decks
from cardroom.games.baebae.state import BaebaeState

pytestmark = needs_native


def option_sets() -> list[dict[str, object]]:
    """Every option that changes how a game is played, with both project decks (the sample, and
    it shuffled with a deck of awkward cards), several player counts and hand sizes."""
    out = []
    for deck in DECK_OPTIONS:
        for players in (2, 3, 4, 6, 8):
            for draw_when_able in (False, True):
                for chosen_target in ("once", "each_step"):
                    options = {"players": players, **DECK_OPTIONS[deck], "draw_when_able": draw_when_able,
                               "chosen_target": chosen_target, "decks": 2 if players == 8 else 1}
                    out.append({**options, "stream": stream_for(options)})
    return out


OPTIONS = option_sets()


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: f"{o['players']}-{o['draw_when_able']}-"
                         f"{o['chosen_target']}-{len(o['deck_files'])}")  # type: ignore[arg-type]
def test_random_games_agree_at_every_action(options):
    for i in range(4):
        rng = random.Random(f"{i}:{sorted(options.items())}")
        seed = rng.randrange(-(2**70), 2**70) if i % 2 == 0 else rng.randrange(10**6)
        rules = Rules(**options, rounds=1 + i % 3, ace_penalty=(1, 0, 5, 1)[i], turn_limit=(2000, 25, 2000, 10)[i],
                      hand_size=(None, 3, None, 1)[i])
        play_both(rules, seed, rng, check_views=0.02 if i == 0 else 0.0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck=random_decks(), players=st.integers(2, 6), seed=st.integers(-(2**63), 2**63),
       chosen=st.sampled_from(["once", "each_step"]), draw_when_able=st.booleans(), choices=st.randoms())
def test_generated_decks_agree_at_every_action(deck, players, seed, chosen, draw_when_able, choices):
    rules = Rules(**read_decks(str(write_deck(deck, "native"))), players=players, rounds=2,
                  chosen_target=chosen, draw_when_able=draw_when_able, turn_limit=200)
    play_both(rules, seed, random.Random(choices.random()), check_views=0.05)


def test_illegal_actions_are_refused_in_the_references_words_and_change_nothing():
    from cardroom.games.baebae.native import NativeBaebaeState

    rules = Rules()
    python, fast = BaebaeState.start(rules, 5), NativeBaebaeState.start(rules, 5)
    size = python.space.size
    for action in (-1, size, 10**30, 2**31, 0, 51, True, None, 2.0, "7", python.space.yes):
        with pytest.raises(IllegalAction) as theirs:
            python.apply(action)
        with pytest.raises(IllegalAction) as ours:
            fast.apply(action)
        assert str(ours.value) == str(theirs.value)
        assert fast.illegal_reason(action) == python.illegal_reason(action)
    compare_positions(python, fast)
    assert fast.history == [] and fast.log == python.log


def test_hand_made_starts_and_their_refusals_are_the_references():
    from cardroom.games.baebae.native import NativeBaebaeState

    rules = Rules(players=2, hand_size=3)
    deal = Deal(hands=[["6C", "7C", "8C"], ["6D", "7D", "8D"]], starter="9C", stock=["2H"], dealer=1)
    python = BaebaeState.start(rules, 9, deal=deal, totals=[5, -3])
    fast = NativeBaebaeState.start(rules, 9, deal=deal, totals=[5, -3])
    assert fast.origin == python.origin and fast.log == python.log
    rng = random.Random(2)
    while not python.is_over:
        action = rng.choice(python.legal_actions())
        assert fast.apply(action) == python.apply(action)
    assert fast.log == python.log
    for bad in ({"totals": [1, 2, 3]}, {"deal": Deal(hands=[["6C"]] * 2, starter="9C")}, {"seed": "x"}):
        seed = bad.pop("seed", 1)
        with pytest.raises((RulesError, ValueError)) as theirs:
            BaebaeState.start(rules, seed, **bad)
        with pytest.raises((RulesError, ValueError)) as ours:
            NativeBaebaeState.start(rules, seed, **bad)
        assert str(ours.value) == str(theirs.value)
    with pytest.raises(RulesError, match="within 2\\*\\*62"):
        NativeBaebaeState.start(rules, 1, totals=[0, 2**70])


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
