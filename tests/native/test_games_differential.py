"""Every native game against its Python reference, the cases each game gives
(``native_games.GAMES``; a game's own hand-made cases are in its ``test_*differential.py``):
random games over every option set compared at every action (legal actions, events, views,
positions), illegal actions refused in the reference's words, a hand-made start and its
refusals the reference's."""

from __future__ import annotations

import random

import pytest
from native_games import GAMES
from native_support import NativeGame, needs_native

from cardroom import native
from cardroom.engine import IllegalAction, RulesError

pytestmark = needs_native

EVERY_GAME = list(GAMES.values())


def test_every_native_game_gives_its_cases() -> None:
    assert sorted(GAMES) == sorted(native.native_games())


@pytest.mark.parametrize(("game", "options"), [(game, options) for game in EVERY_GAME for options in game.options],
                         ids=[f"{game.name}-{game.option_id(o)}" for game in EVERY_GAME for o in game.options])
def test_random_games_agree_at_every_action(game: NativeGame, options: dict[str, object]) -> None:
    game.random_games(options)


@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda g: g.name)
def test_illegal_actions_are_refused_in_the_references_words_and_change_nothing(game: NativeGame) -> None:
    rules = game.rules()
    python, fast = game.python.start(rules, 5), game.native_type().start(rules, 5)
    for action in game.illegal(python):
        with pytest.raises(IllegalAction) as theirs:
            python.apply(action)
        with pytest.raises(IllegalAction) as ours:
            fast.apply(action)
        assert str(ours.value) == str(theirs.value)
        assert fast.illegal_reason(action) == python.illegal_reason(action)
    game.compare_positions(python, fast)
    assert fast.history == [] and fast.log == python.log


@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda g: g.name)
def test_hand_made_starts_and_their_refusals_are_the_references(game: NativeGame) -> None:
    rules, seed, given, refused, errors = game.hand_made()
    native_type = game.native_type()
    python, fast = game.python.start(rules, seed, **given), native_type.start(rules, seed, **given)
    assert fast.origin == python.origin and fast.log == python.log
    rng = random.Random(2)
    while not python.is_over:
        action = rng.choice(python.legal_actions())
        assert fast.apply(action) == python.apply(action)
    assert fast.log == python.log
    for refusal in refused:
        bad = dict(refusal)
        start = bad.pop("seed", 1)
        with pytest.raises(errors) as theirs:
            game.python.start(rules, start, **bad)
        with pytest.raises(errors) as ours:
            native_type.start(rules, start, **bad)
        assert str(ours.value) == str(theirs.value)
    too_large, words = game.too_large
    with pytest.raises(RulesError, match=words):
        native_type.start(rules, 1, **too_large)
