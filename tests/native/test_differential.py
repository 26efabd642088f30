"""Baha on the native engine against the Python reference, its own cases: determinized worlds,
clones, pickles and quiet play-outs; the engine's choice refused in words. The random games over
every option set, the refusals and the hand-made start are every game's
(``test_games_differential.py``, Baha's cases in ``baha_native_support.py``)."""

from __future__ import annotations

import pickle
import random

import pytest
from baha_native_support import compare_positions
from native_support import needs_native

from cardroom import native
from cardroom.engine import RulesError
from cardroom.games.baha import Rules
from cardroom.games.baha.state import BahaState

pytestmark = needs_native


def test_an_unknown_engine_is_refused_in_words():
    with pytest.raises(RulesError, match="use_engine must be one of python, native, not 'fast'"):
        native.use_engine("fast")


def test_an_unknown_engine_in_the_environment_is_refused_in_words(monkeypatch):
    monkeypatch.setenv(native.ENGINE_VARIABLE, "turbo")
    with pytest.raises(RulesError, match="CARDROOM_ENGINE must be one of python, native, not 'turbo'"):
        Rules().new_game(1)


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
