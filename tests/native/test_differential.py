"""Baha on the native engine against the Python reference: random games over every option,
compared at every action (legal actions, events, views, the fields the encoder reads), records
replayed on either engine, determinized worlds, quiet play-outs, hand-made starts, refusals."""

from __future__ import annotations

import pickle
import random

import pytest
from native_support import compare_positions, needs_native, option_sets, play_both

from cardroom import native
from cardroom.engine import IllegalAction, RulesError
from cardroom.games.baha import Rules
from cardroom.games.baha.rules import Deal
from cardroom.games.baha.state import BahaState

pytestmark = needs_native

OPTIONS = list(option_sets())
GAMES_PER_OPTION = 14
"""A few thousand games in all (the timed suite's share; benchmarks/native_differential.py
plays 100,000)."""


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{v}" for v in o.values()))
def test_random_games_agree_at_every_action(options):
    for i in range(GAMES_PER_OPTION):
        target = (1, 25, 100)[i % 3]
        rng = random.Random(f"{i}:{sorted(options.items())}")
        seed = rng.randrange(-(2**70), 2**70) if i % 4 == 0 else rng.randrange(10**6)
        play_both(Rules(**options, target=target), seed, rng, check_views=0.03 if i < 2 else 0.0)


def test_an_unknown_engine_is_refused_in_words():
    with pytest.raises(RulesError, match="use_engine must be one of python, native, not 'fast'"):
        native.use_engine("fast")


def test_an_unknown_engine_in_the_environment_is_refused_in_words(monkeypatch):
    monkeypatch.setenv(native.ENGINE_VARIABLE, "turbo")
    with pytest.raises(RulesError, match="CARDROOM_ENGINE must be one of python, native, not 'turbo'"):
        Rules().new_game(1)


def test_illegal_actions_are_refused_in_the_references_words_and_change_nothing():
    from cardroom.games.baha.native import NativeBahaState

    rules = Rules()
    python, fast = BahaState.start(rules, 5), NativeBahaState.start(rules, 5)
    for action in (-1, 104, 10**30, 0, 51, True, None, 2.0, "7", python.legal_actions()[0] - 52):
        with pytest.raises(IllegalAction) as theirs:
            python.apply(action)
        with pytest.raises(IllegalAction) as ours:
            fast.apply(action)
        assert str(ours.value) == str(theirs.value)
        assert fast.illegal_reason(action) == python.illegal_reason(action)
    compare_positions(python, fast)
    assert fast.history == [] and fast.log == python.log


def test_hand_made_starts_and_their_refusals_are_the_references():
    from cardroom.games.baha.native import NativeBahaState

    rules = Rules(players=3, draw_pile=True)
    cards = list(range(52))
    deal = Deal(hands=[cards[0:13], cards[13:26], cards[26:39]], draw_pile=cards[39:], dealer=2)
    python = BahaState.start(rules, 9, deal=deal, totals=[5, 0, 90], hand=4)
    fast = NativeBahaState.start(rules, 9, deal=deal, totals=[5, 0, 90], hand=4)
    assert fast.origin == python.origin and fast.log == python.log
    rng = random.Random(2)
    while not python.is_over:
        action = rng.choice(python.legal_actions())
        assert fast.apply(action) == python.apply(action)
    assert fast.log == python.log
    for bad in ({"hand": 0}, {"totals": [1, 2]}, {"deal": Deal(hands=[[0]] * 3)}):
        with pytest.raises(RulesError) as theirs:
            BahaState.start(rules, 1, **bad)
        with pytest.raises(RulesError) as ours:
            NativeBahaState.start(rules, 1, **bad)
        assert str(ours.value) == str(theirs.value)
    with pytest.raises(RulesError, match="below 2\\*\\*62"):
        NativeBahaState.start(rules, 1, totals=[0, 0, 2**70])


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_determinized_worlds_clones_pickles_and_quiet_playouts_agree(players):
    from cardroom.games.baha.native import NativeBahaState

    rules = Rules(players=players, target=200)
    for seed in range(12):
        rng = random.Random(seed)
        python, fast = BahaState.start(rules, seed), NativeBahaState.start(rules, seed)
        for _ in range(rng.randrange(0, 60)):
            action = rng.choice(python.legal_actions())
            python.apply(action)
            fast.apply(action)
        seat = rng.randrange(players)
        world_python = python.determinize(seat, random.Random(seed))
        world_fast = fast.determinize(seat, random.Random(seed))
        assert isinstance(world_fast, NativeBahaState) and world_fast.seed == world_python.seed
        compare_positions(world_python, world_fast)
        assert world_fast.legal_actions() == world_python.legal_actions()
        copy = fast.clone()
        copied = pickle.loads(pickle.dumps(fast))
        compare_positions(python, copied)
        draws_python, draws_fast = random.Random(seed).random, random.Random(seed).random
        world_python.random_playout(draws_python)
        world_fast.random_playout(draws_fast)
        compare_positions(world_python, world_fast)
        assert world_fast.log == world_python.log and draws_fast() == draws_python()
        compare_positions(python, copy)  # the clone did not move with the world
