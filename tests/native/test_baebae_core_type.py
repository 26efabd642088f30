"""BAEBAE's native state type (native/cardroom/baebae_module.hpp's traits for core_type.hpp): its
own getters and members, how it refuses bad use, that it frees what it made (what every game's
core type does: test_games_core_type.py)."""

from __future__ import annotations

import gc
import sys

import pytest
from native_support import needs_native, played

from cardroom import native
from cardroom.games.baebae import Rules
from cardroom.games.baebae.native import NativeBaebaeState, NativeHeuristic

pytestmark = needs_native

PER_STEP_GETTERS = ("turn", "totals", "round_no", "phase_code", "hands", "discard", "stock", "suit", "declared",
                    "direction", "drawn", "skips", "round_penalties")



def test_the_fields_read_each_step_are_the_plain_types_getters():
    # (what every game's core type holds and how it copies: test_games_core_type.py)
    core_type = native.core().BaebaeCore
    for name in PER_STEP_GETTERS:
        assert type(core_type.__dict__[name]).__name__ == "getset_descriptor", name
    for name in ("space", "_program"):  # the face's own fields, beside every game's
        assert type(core_type.__dict__[name]).__name__ == "member_descriptor", name


def test_bad_use_of_the_type_is_refused_in_words():
    core = native.core()
    bare = core.BaebaeCore()  # made, never started
    copy = bare.clone()  # a copy of nothing, refused alike
    for made in (bare, copy):
        for call in (made.legal_actions, lambda made=made: made.apply(0), made.random_choices):
            with pytest.raises(ValueError, match="not been started"):
                call()
        assert made.log == [] and made.history == []
    with pytest.raises(TypeError, match="native BAEBAE state"):
        NativeHeuristic(1)._player.act(object())
    with pytest.raises(ValueError, match="not been started"):
        NativeHeuristic(1)._player.act(bare)


def test_a_finished_game_frees_every_event_it_made():
    rules = Rules(players=4, rounds=1)
    probe = played(rules.new_game(0), 400)
    card = next(e["card"] for e in probe.log if e["t"] == "play")  # one of the deck's card texts
    word = next(k for e in probe.log if e["t"] == "draw" for k in e if k == "forced")  # a key, interned once
    gc.collect()
    counts = sys.getrefcount(card), sys.getrefcount(word)
    for seed in range(1, 30):
        state = played(rules.new_game(seed), 400, seed)
        assert state.is_over
        state.clone()
        del state
    gc.collect()
    assert (sys.getrefcount(card), sys.getrefcount(word)) == counts


def test_a_new_game_follows_its_rules_and_the_engine_asked_for_at_once(monkeypatch) -> None:
    # Rules.new_game's quick path (no import per call, the start's arguments kept per rules,
    # CARDROOM_ENGINE read from os.environ's own dict) starts the same games, for the rules given,
    # on the engine the environment asks for now.
    from cardroom.engine import RulesError
    from cardroom.games.baebae.state import BaebaeState

    for k in range(150):  # rules made and dropped as they go: more of them than the kept starts
        rules = Rules(players=2 + k % 5, rounds=1 + k % 2, draw_when_able=k % 3 == 0, turn_limit=10 + k)
        game = rules.new_game(k)
        assert type(game) is NativeBaebaeState and game.rules is rules and game.n == rules.players
        python = BaebaeState.start(rules, k)
        assert game.log == python.log and game.seed == k and game.origin is None
        while not game.is_over:  # the turn limit and draw_when_able are the given rules'
            action = game.legal_actions()[k % len(game.legal_actions())]
            assert game.apply(action) == python.apply(action)
    monkeypatch.setenv(native.ENGINE_VARIABLE, "python")
    assert type(Rules().new_game(1)) is BaebaeState
    monkeypatch.setenv(native.ENGINE_VARIABLE, " Native ")
    assert type(Rules().new_game(1)) is NativeBaebaeState
    monkeypatch.setenv(native.ENGINE_VARIABLE, "turbo")
    with pytest.raises(RulesError, match="CARDROOM_ENGINE must be one of python, native, not 'turbo'"):
        Rules().new_game(1)
    monkeypatch.setenv(native.ENGINE_VARIABLE, "  ")  # blank: the default
    assert type(Rules().new_game(1)) is NativeBaebaeState
    monkeypatch.delenv(native.ENGINE_VARIABLE)
    assert type(Rules().new_game(1)) is NativeBaebaeState
    for seed in (True, "7", 1.5, None):
        with pytest.raises(RulesError, match="seed must be a whole number"):
            Rules().new_game(seed)  # type: ignore[arg-type]


def test_the_ranking_of_an_ended_game_is_a_copy_not_the_logs_own():
    """As the Python engine's: changing the ranking one is given never changes the log (and so
    the record) of the game."""
    state = Rules(players=3, rounds=1).new_game(4)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    ranking, logged = state.ranking, state.log[-1]["ranking"]
    assert ranking == logged and ranking
    assert all(mine is not theirs for mine, theirs in zip(ranking, logged, strict=True))
    ranking[0]["seat"] = -5
    assert state.log[-1]["ranking"] == logged and logged[0]["seat"] != -5
