"""Every native game's core type (``native/cardroom/core_type.hpp``, made from each game's
traits): a plain CPython type whose per-action calls (legal_actions, apply, clone, the getters
read each step) have no pybind11 dispatch; what a clone carries, how an action drops the cached
reference; and every game's batch bound alike (``register_batch``). Parametrised over the games
(``native_games.GAMES``), as the conformance suite is."""

from __future__ import annotations

import inspect
import re
import sys
from typing import Any

import pytest
from native_games import GAMES
from native_support import NativeGame, needs_native, played

from cardroom import native
from cardroom.engine import IllegalAction

pytestmark = needs_native

EVERY_GAME = list(GAMES.values())
PER_ACTION_METHODS = ("legal_actions", "apply", "clone")
PER_STEP_GETTERS = ("current_player", "is_over", "scores", "deal_number", "log", "history")
FACE_MEMBERS = ("rules", "seed", "origin", "n", "_ref")
"""The Python face's fields every game's core keeps as members (a game may add its own)."""


def core_type(game: NativeGame) -> Any:
    """The core type the game's native state subclasses (the one from the native module)."""
    return next(c for c in game.native_type().__mro__ if c.__module__ == native.core().__name__)



@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda g: g.name)
def test_the_per_action_calls_are_the_plain_types_own(game: NativeGame) -> None:
    made = core_type(game)
    assert type(made) is type  # not a pybind11 class (whose metaclass is pybind11's)
    for name in PER_ACTION_METHODS:
        assert type(made.__dict__[name]).__name__ == "method_descriptor", name
    for name in PER_STEP_GETTERS:
        assert type(made.__dict__[name]).__name__ == "getset_descriptor", name
    for name in FACE_MEMBERS:
        assert type(made.__dict__[name]).__name__ == "member_descriptor", name
    state = game.native_type().start(game.rules(), 3)
    assert isinstance(state, made)
    assert not hasattr(state, "__dict__")  # every field is the type's: nothing per instance in a dict
    assert "__getattr__" not in vars(game.native_type())  # which every attribute read would pay for


@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda g: g.name)
def test_a_clone_carries_the_python_faces_fields_and_is_independent(game: NativeGame) -> None:
    state = played(game.native_type().start(game.rules(players=3), 11), 25)
    state.reference()  # cached on the original
    other = state.clone()
    assert type(other) is game.native_type()
    members = [name for name, kind in vars(core_type(game)).items() if type(kind).__name__ == "member_descriptor"]
    assert set(FACE_MEMBERS) <= set(members)
    for name in members:
        if name != "_ref":
            assert getattr(other, name) is getattr(state, name) or getattr(other, name) == getattr(state, name), name
    assert other._ref is None and state._ref is not None
    assert other.log == state.log and other.history == state.history
    assert other.legal_actions() == state.legal_actions()
    before = (list(state.log), list(state.history), state.legal_actions(), state.scores)
    played(other, 40, seed=1)
    assert (state.log, state.history, state.legal_actions(), state.scores) == before
    assert len(other.log) > len(state.log)


@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda g: g.name)
def test_an_action_clears_the_cached_reference_and_a_refusal_keeps_it(game: NativeGame) -> None:
    state = game.native_type().start(game.rules(), 5)
    ref = state.reference()
    for illegal in (10**6, -1, 2**40):
        with pytest.raises(IllegalAction):
            state.apply(illegal)
        assert state._ref is ref and state.history == []
    action = state.legal_actions()[0]
    events = state.apply(action)
    assert state._ref is None
    assert state.history == [(ref.current_player, action)] and events == state.log[-len(events):]


def batch_function(game: NativeGame) -> Any:
    """The core's batch function of the game (its native module's ``BATCHES``)."""
    module = sys.modules[game.native_type().__module__]
    return getattr(native.core(), module.BATCHES.games)


def test_every_games_batch_is_bound_alike() -> None:
    # One binding (core_type.hpp's register_batch) for every game: the same parameters in the
    # same order, so a caller may pass them by place.
    names = {game.name: re.findall(r"(?:\(|, )(\w+):", batch_function(game).__doc__.splitlines()[0])
             for game in EVERY_GAME}
    assert len({tuple(found) for found in names.values()}) == 1, names
    names = next(iter(names.values()))
    assert names == ["rules", "first_seed", "games", "max_actions", "exact", "heuristic", "flat"]


@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda g: g.name)
def test_a_batch_by_place_plays_what_the_face_plays(game: NativeGame) -> None:
    module = sys.modules[game.native_type().__module__]
    rules = game.rules()
    by_place = batch_function(game)(module.core_rules(rules), 7, 3, 200_000, True, [False] * rules.players)
    assert module.BATCHES.result(rules, by_place).actions == module.random_games(rules, 3, 7).actions
    with pytest.raises(ValueError, match="one policy a seat"):
        batch_function(game)(module.core_rules(rules), 7, 3, 200_000, True, [False])
    assert inspect.isbuiltin(batch_function(game))
