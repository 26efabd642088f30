"""A state pickles mid-game and plays on the same, on either engine: bot workers get their
positions pickled (``__reduce__``: the fields of ``pickled()``, made again through the
factories' constructor; a native state pickles as its Python reference)."""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator

import pytest

from cardroom import native
from cardroom.games import get


@pytest.fixture(params=native.ENGINES)
def engine(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param == "native" and not native.available():
        pytest.skip(f"the native engine is {native.unavailable_reason()}")
    native.use_engine(request.param)
    yield request.param
    native.use_engine(None)


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_a_state_survives_pickling_mid_game(game: str, engine: str) -> None:
    state = get(game).make_rules({}).new_game(11)
    assert (type(state).__name__.startswith("Native")) == native.native_for(game)
    for k in range(40):
        legal = state.legal_actions()
        state.apply(legal[k % len(legal)])
    state.determinize(state.current_player, random.Random(1))  # fills the cache left behind
    copy = pickle.loads(pickle.dumps(state))
    assert type(copy) is type(state)
    assert copy.log == state.log and copy.history == state.history
    assert [copy.view(s) for s in range(len(state.scores))] == [state.view(s) for s in range(len(state.scores))]
    while not state.is_over and len(state.history) < 400:
        legal = state.legal_actions()
        assert copy.legal_actions() == legal
        action = legal[len(state.history) % len(legal)]
        assert copy.apply(action) == state.apply(action)
