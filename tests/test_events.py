"""Each game's events are declared once, as ``TypedDict``s in its ``events`` module (a union
of its kinds: :mod:`cardroom.games.baha.events`, :mod:`cardroom.games.baebae.events`); the rules
build them and their readers read them checked by mypy. Here, the declaration against what the
engines write: every event of games played on each engine, and of each seat's view of them, is
exactly one declared kind, with the declared keys and no other, each value of the declared
type; and every kind declared is written by some game."""

from __future__ import annotations

import functools
import importlib
import random
import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from cardroom import games, native
from cardroom.games import make_rules

ENGINES = ["python", "native"] if native.available() else ["python"]
GAMES: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "baha": [(0, {"players": 2}), (1, {"players": 3, "draw_pile": True}), (2, {"players": 4})],
    "baebae": [(9, {"players": 2}), (5, {"players": 3}), (8, {"players": 4}), (3, {"players": 6})],
}
"""Seeds and rules whose games write every kind: a take from the draw pile needs three players
and the pile; these BAEBAE deals turn up a starter whose action is carried out, and six
players empty the stockpile."""


def declared(game: str) -> tuple[Any, ...]:
    """The kinds of ``game``'s events: the members of the widest union its events module holds."""
    module = importlib.import_module(f"cardroom.games.{game}.events")
    unions = [v for v in vars(module).values() if get_origin(v) in (Union, types.UnionType)]
    return get_args(max(unions, key=lambda u: len(get_args(u))))


@functools.cache
def hints(kind: Any) -> dict[str, Any]:
    return get_type_hints(kind)


def fits(value: object, kind: Any) -> bool:
    """Whether ``value`` (as JSON holds it) is of type ``kind``."""
    origin = get_origin(kind)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind in (str, bool):
        return isinstance(value, kind)
    if kind is type(None):
        return value is None
    if origin is Literal:
        return any(value == a and type(value) is type(a) for a in get_args(kind))
    if origin in (Union, types.UnionType):
        return any(fits(value, member) for member in get_args(kind))
    if origin is list:
        return isinstance(value, list) and all(fits(v, get_args(kind)[0]) for v in value)
    if origin is dict:
        key, item = get_args(kind)
        return isinstance(value, dict) and all(fits(k, key) and fits(v, item) for k, v in value.items())
    if is_typeddict(kind):
        keys = hints(kind)
        return isinstance(value, dict) and value.keys() == keys.keys() and all(
            fits(value[k], keys[k]) for k in keys)
    raise AssertionError(f"no check for {kind!r}")


def kinds_of(event: dict[str, Any], kinds: tuple[Any, ...]) -> list[Any]:
    """The kinds ``event`` is (its literal keys, ``t``, ``op``, ``why``..., and every other)."""
    return [kind for kind in kinds if fits(event, kind)]


def logs(game: str, engine: str) -> list[list[dict[str, Any]]]:
    """The logs of a few random games of ``game`` on ``engine``, and every seat's view of each."""
    native.use_engine(engine)
    try:
        found = []
        for seed, options in GAMES.get(game, [(0, {}), (1, {})]):
            state = make_rules(game, options).new_game(seed)
            pick = random.Random(seed)
            while not state.is_over:
                state.apply(pick.choice(state.legal_actions()))
            found.append(state.log)
            found.extend(state.view_log(seat) for seat in range(len(state.scores)))
        return found
    finally:
        native.use_engine(None)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("game", games.names())
def test_every_event_written_is_exactly_one_declared_kind(game: str, engine: str) -> None:
    kinds = declared(game)
    written: set[Any] = set()
    for log in logs(game, engine):
        for event in log:
            found = kinds_of(event, kinds)
            assert len(found) == 1, f"{game} on {engine}: {event} is {len(found)} of the declared kinds"
            written.add(found[0])
    unwritten = sorted(kind.__name__ for kind in set(kinds) - written)
    assert unwritten == [], f"{game} on {engine}: kinds declared that no game wrote"


def test_a_wrong_key_or_type_is_not_a_declared_kind() -> None:
    """The checks above can fail: a key misspelt, one missing or extra, or a value of another
    type, makes an event no declared kind."""
    kinds = declared("baha")
    play = {"t": "play", "p": 1, "card": "12R"}
    assert len(kinds_of(play, kinds)) == 1
    for wrong in ({"t": "play", "q": 1, "card": "12R"}, {"t": "play", "card": "12R"},
                  {**play, "under": False}, {**play, "p": True}, {**play, "t": "plays"}):
        assert kinds_of(wrong, kinds) == []
