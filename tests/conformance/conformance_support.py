"""Helpers of the conformance suite: the registry with the toy, random rules from a spec's
option catalog, random games, what a state shows, and the cards a JSON value names."""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
import toy_game
from hypothesis import reject
from hypothesis import strategies as st

from cardroom import games
from cardroom.engine import IllegalAction, RulesError, State
from cardroom.record import make_record


@contextlib.contextmanager
def registered(spec: games.GameSpec) -> Iterator[None]:
    """``spec`` in the registry for the duration; the registry as it was afterwards."""
    games.names()  # the built-in and installed games first
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(games, "_GAMES", dict(games._GAMES))
        games.register(spec)
        yield


with registered(toy_game.SPEC):
    GAME_NAMES = games.names()
"""Every game the suite runs: the registered ones and the toy."""

SEEDS = st.integers(min_value=-(2**63), max_value=2**63)


@st.composite
def rule_sets(draw: st.DrawFn, name: str) -> Any:
    """Rules of game ``name`` with options drawn from its catalog, within their bounds: whole
    numbers near their least (short games) or at their default, every choice, every flag."""
    spec = games.get(name)
    defaults = spec.make_rules().to_dict()
    low, high = spec.players()
    options: dict[str, Any] = {"players": draw(st.integers(low, high))}
    for option in spec.options:
        if option.kind == "bool":
            options[option.name] = draw(st.booleans())
        elif option.kind == "choice":
            options[option.name] = draw(st.sampled_from(option.choices))
        elif option.kind == "int":
            assert option.minimum is not None and option.maximum is not None
            near = st.integers(option.minimum, min(option.maximum, option.minimum + 3))
            options[option.name] = draw(st.one_of(near, st.just(defaults[option.name])))
    try:
        return spec.make_rules(options)
    except RulesError:  # options that do not go together (a draw pile for 5 players)
        reject()


def action_space(state: State) -> int:
    """How many actions the game has: ``decode`` refuses every number from there on."""
    size = 0
    while True:
        try:
            state.decode(size)
        except IllegalAction:
            return size
        size += 1


def random_game(state: State, rng: random.Random, limit: int = 20000) -> Iterator[int]:
    """Play ``state`` to the end with random legal actions, yielding each before it is taken."""
    for _ in range(limit):
        if state.is_over:
            return
        legal = state.legal_actions()
        assert legal, "no legal action before the end"
        action = rng.choice(legal)
        yield action
        state.apply(action)
    raise AssertionError(f"the game did not end in {limit} actions")


def snapshot(state: State) -> str:
    """Everything anyone can read of a state: every view, the public view, the record (rules,
    seed, actions, log, result), the legal actions and the seat to act."""
    players = len(state.scores)
    return json.dumps({
        "views": [state.view(s) for s in range(players)],
        "logs": [state.view_log(s) for s in range(players)],
        "public": state.public_view(),
        "record": make_record(state),
        "legal": state.legal_actions(),
        "current": state.current_player,
        "scores": state.scores,
        "returns": state.returns(),
        "deal": state.deal_number,
    }, sort_keys=True)


_WORDS = re.compile(r"[0-9A-Za-z#]+")


def card_texts(value: Any, cards: set[str]) -> set[str]:
    """Every card of ``cards`` named anywhere in a JSON value (its texts split into words)."""
    return {w for w in _WORDS.findall(json.dumps(value)) if w in cards}
