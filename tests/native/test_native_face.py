"""One native face for every game (cardroom.native.face), checked on each game the native engine
plays, by its spec alone: the agents its batches play declared once, its native state the shared
NativeState, and its search driven by the one object of options the core binds once."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from native_support import needs_native

from cardroom import games, native
from cardroom.engine import IllegalAction, RulesError
from cardroom.native.face import POLICIES, Batches, NativeBatch, NativeState, search_options
from cardroom.record import make_record, replay

pytestmark = [needs_native, pytest.mark.usefixtures("native_engine")]

NATIVE_GAMES = native.native_games() if native.available() else []




def midgame(name: str, seed: int = 5, moves: int = 7) -> Any:
    """A game of ``name`` on the native engine a few random moves in, someone to act."""
    state = games.get(name).make_rules().new_game(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.current_player is None:
            break
        state.apply(rng.choice(state.legal_actions()))
    assert state.current_player is not None
    return state


def test_every_native_game_is_checked() -> None:
    assert len(NATIVE_GAMES) >= 2


@pytest.mark.parametrize("name", NATIVE_GAMES)
def test_the_policies_are_declared_once(name: str) -> None:
    """The batches and the vector environment of every game play the one tuple of agents."""
    spec = games.get(name)
    assert spec.load("native").POLICIES is POLICIES
    if spec.vector is not None:
        assert spec.load("vector").POLICIES is POLICIES


@pytest.mark.parametrize("name", [n for n in NATIVE_GAMES if games.get(n).vector is not None])
def test_the_vector_batch_is_the_shared_one(name: str) -> None:
    """Every game's vector batch is the generic one (vector.hpp, NativeBatch): the same methods,
    the same refusals, a row's game given back as the game's native state."""
    spec = games.get(name)
    batch_type = spec.load("vector").Batch
    assert issubclass(batch_type, NativeBatch)
    rules = spec.make_rules()
    batch = batch_type(rules, 2, True, 0, [None] * rules.players, None, None, False)
    assert batch._core.actions >= 1 and batch._core.size >= 1
    with pytest.raises(ValueError, match="no such row"):
        batch._core.turn(2)
    with pytest.raises(ValueError, match="no such row"):
        batch._core.legal_actions(-1)


@pytest.mark.parametrize("name", NATIVE_GAMES)
def test_the_native_state_is_the_shared_face(name: str) -> None:
    """The protocol beyond the per-action calls is NativeState's: refusals and views by the
    reference position, pickled as it and made native again."""
    state = midgame(name)
    assert isinstance(state, NativeState)
    seat = state.current_player
    assert state.view_log(seat) == state.reference().view_log(seat)
    assert state.view(seat) == state.reference().view(seat)
    again = pickle.loads(pickle.dumps(state))
    assert type(again) is type(state)
    assert again.log == state.log and again.legal_actions() == state.legal_actions()
    with pytest.raises(IllegalAction, match="seat must be"):
        state.native_infer_chances(state.n, state, 0.25)


@pytest.mark.parametrize("name", NATIVE_GAMES)
def test_one_object_of_options_drives_every_game_search(name: str) -> None:
    """The same ``SearchOptions`` object searches any game's position; the agent's keywords
    make it (native_ismcts), the same move for the same seed."""
    state = midgame(name)
    seat = state.current_player
    options = search_options(iterations=60, seconds=None, exploration=1.0, rollout="heuristic", epsilon=0.1,
                             max_depth=200, seed=3, threads=1)
    action, done, root = state._search(seat, options)
    assert done == 60 and action in state.legal_actions()
    assert sum(visits for _, visits, _ in root) == 60
    keywords = state.native_ismcts(seat, iterations=60, seconds=None, exploration=1.0, rollout="heuristic",
                                   epsilon=0.1, max_depth=200, seed=3, threads=1)
    assert keywords == (action, done)


@pytest.mark.parametrize(("options", "words"), [
    ({"iterations": 0}, "iterations and max_depth must be from 1"),
    ({"threads": 257}, "threads from 1 to 256"),
    ({"infer": -1}, "infer must be from 0"),
    ({"infer_epsilon": 0.0}, "infer_epsilon more than 0"),
    ({"win_temperature": float("inf")}, "win_temperature must be a finite number"),
    ({"sight": 3}, "sight is 0"),
])
def test_search_options_are_refused_in_words_once_for_every_game(options: dict[str, Any], words: str) -> None:
    base: dict[str, Any] = {"iterations": 10, "seconds": 0.0, "exploration": 1.0, "heuristic": True,
                            "epsilon": 0.1, "max_depth": 200, "seed": 1, "threads": 1}
    with pytest.raises(ValueError, match=words):
        native.core().SearchOptions(**{**base, **options})


@pytest.mark.parametrize("name", NATIVE_GAMES)
def test_the_tables_columns_carry_their_types_from_the_core(name: str) -> None:
    """Every game's table batch (tables.hpp) hands each column with its element type, read by
    the one decoder (cardroom.native.tables): the per-game rows agree with the columns."""
    pytest.importorskip("pyarrow")
    spec = games.get(name)
    rules = spec.make_rules()
    found = spec.load("native").table_games(rules, [4, 5, 6], [["heuristic"] * rules.players] * 3, 50)
    from cardroom.native.tables import TableGames

    assert type(found) is TableGames  # the one batch, the game giving only its descriptor (TABLES)
    columns = found.columns()
    assert set(columns) == set(found.row_games())
    assert len(found.totals) == len(found.places) == len(found.deal_points) == 3
    for totals, place, winner in zip(found.totals, found.places, found.winners, strict=True):
        assert len(totals) == rules.players
        assert (place is None) == (winner < 0)  # 50 actions: some games stopped by the guard


def test_the_tables_decoder_reads_bytes_by_their_element_type() -> None:
    pytest.importorskip("pyarrow")
    from cardroom.native.tables import arrays, deal_rows, places

    got = arrays({"deal_points": (bytes([1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0]), "i8"),
                  "deals": (bytes([1, 0, 0, 0]), "i4"), "codes": (bytes([255]), "i1")})
    assert got["deal_points"].to_pylist() == [1, 2] and got["codes"].to_pylist() == [-1]
    assert deal_rows(got, 2) == [[[1, 2]]]
    assert places([[3, 1, 3]], [False]) == [[2, 1, 2]] and places([[3, 1]], [True]) == [None]


@pytest.mark.parametrize("name", NATIVE_GAMES)
def test_every_game_batches_through_one_descriptor(name: str) -> None:
    """A game's batches are the one Batches driven by the game's descriptor: the same refusals
    in words, the same games for the same seeds."""
    module = games.get(name).load("native")
    assert isinstance(module.BATCHES, Batches)
    assert module.agent_games == module.BATCHES.agent_games
    rules = games.get(name).make_rules()
    with pytest.raises(RulesError, match=f"plays random or heuristic at each of the {rules.players} seats"):
        module.agent_games(rules, 2, 0, ("random", "nobody"))
    with pytest.raises(RulesError, match="random agents only"):
        module.agent_games(rules, 2, 0, ("heuristic",), exact=False)
    with pytest.raises(RulesError, match="within 2\\*\\*62"):
        module.random_games(rules, 2, 2**62)
    first, again = module.heuristic_games(rules, 3, 7), module.agent_games(rules, 3, 7, ("heuristic",))
    assert first.totals == again.totals and len(first.totals) == 3


@pytest.mark.parametrize("name", NATIVE_GAMES)
def test_the_engine_choice_routes_new_games_and_records_replay_on_either(name: str) -> None:
    """A new game runs on the engine chosen; its record replays on either, to the same log and
    the same record."""
    rules = games.get(name).make_rules({"players": 3})
    state = rules.new_game(11)
    assert isinstance(state, NativeState)
    rng = random.Random(3)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    record = make_record(state, [{"name": f"S{s}", "agent": "random"} for s in range(3)])
    again = replay(record)
    assert type(again) is type(state) and again.log == state.log
    native.use_engine("python")
    on_python = replay(record)
    assert not isinstance(on_python, NativeState) and on_python.log == state.log
    assert type(on_python) is type(state.reference())
    assert make_record(on_python, record["seats"]) == record


@pytest.mark.parametrize("name", NATIVE_GAMES)
def test_the_rules_cross_into_the_core_as_one_object(name: str) -> None:
    """A game's rules become one object of the core once (core_rules), which its start, batches,
    tables and vector take whole; the Python rules themselves are not taken."""
    module = games.get(name).load("native")
    rules = games.get(name).make_rules()
    made = module.core_rules(rules)
    assert made is module.core_rules(rules) and made.players == rules.players
    batch = getattr(native.core(), module.BATCHES.games)
    found = batch(made, first_seed=3, games=2, max_actions=200_000, exact=True, heuristic=[False] * rules.players)
    assert found["totals"] == module.random_games(rules, 2, 3).totals
    with pytest.raises(TypeError):
        batch(rules, first_seed=3, games=2, max_actions=10, exact=True, heuristic=[False] * rules.players)
