"""The rules cross into the core whole: each game's core rules object (core_rules) is made from the
Python rules itself, every option the core reads taken by its name from the one list beside the
C++ Rules struct (native/cardroom/options.hpp), and anything else is refused in words."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from native_support import needs_native

from cardroom import games, native
from cardroom.engine import RulesError
from cardroom.games import baebae, baha
from cardroom.games.baebae.native import loaded_rules

pytestmark = needs_native

NATIVE_GAMES = native.native_games() if native.available() else []


def variants(name: str) -> Iterator[Any]:
    """Rules of game ``name`` with one option moved off its default at a time: each option the
    catalog describes to each end, each choice, each reading of old records, the fewest and most
    players (a value the rules refuse alone is left out)."""
    spec = games.get(name)
    moved: list[tuple[str, Any]] = [("players", n) for n in spec.players()]
    for option in spec.options:
        if option.kind == "bool":
            moved += [(option.name, True), (option.name, False)]
        elif option.kind == "int":
            moved += [(option.name, option.minimum), (option.name, option.maximum)]
        elif option.kind == "choice":
            moved += [(option.name, choice) for choice in option.choices]
    moved += [(option, value) for option, values in spec.rules.readings.items() for value in values]
    yield spec.make_rules()
    for option, value in moved:
        try:
            yield spec.rules(**{option: value})
        except RulesError:
            continue


@pytest.mark.parametrize("name", NATIVE_GAMES)
def test_the_core_reads_every_option_by_its_name(name: str) -> None:
    """Each option the core reads is the Python rules' attribute of that name, read as it stands."""
    module = games.get(name).load("native")
    seen: dict[str, set[Any]] = {}
    for rules in variants(name):
        made = module.core_rules(rules)
        read = {option: getattr(made, option) for option in type(made).options}
        assert read == {option: getattr(rules, option) for option in read}
        for option, value in read.items():
            seen.setdefault(option, set()).add(value)
    assert "players" in seen and len(seen) >= 6
    assert all(len(values) >= 2 for values in seen.values()), seen  # each option read, not defaulted


CORES: dict[str, tuple[Any, Callable[[Any], Any]]] = {
    "baha": (baha.Rules(), lambda given: native.core().BahaRules(given)),
    "baebae": (baebae.Rules(), lambda given: native.core().BaebaeRules(given, loaded_rules(baebae.Rules())[1])),
}


@pytest.mark.parametrize("name", sorted(CORES))
def test_a_wrong_rules_object_is_refused_in_words(name: str) -> None:
    rules, make = CORES[name]
    core_type = type(make(rules)).__name__
    other = next(r for n, (r, _) in CORES.items() if n != name)
    with pytest.raises(TypeError, match=rf"^{core_type} is made from .* \(cardroom\.games\.{name}\.Rules\), "
                                        rf"not the rules of '{other.game}'$"):
        make(other)
    with pytest.raises(TypeError, match=rf"^{core_type} is made from .*, not \{{'players': 4\}} \(dict\)$"):
        make({"players": 4})
    options = {option: getattr(rules, option) for option in type(make(rules)).options}
    assert make(SimpleNamespace(game=name, **options)).players == rules.players  # by name, whatever holds them
    missing = dict(options)
    del missing["stream"]
    with pytest.raises(TypeError, match=rf"^{core_type}: the rules given have no option stream, which "):
        make(SimpleNamespace(game=name, **missing))
    for option, value, words in [
        ("players", "4", "must be a whole number, not '4'"),
        ("players", True, "must be a whole number, not True"),
        ("players", 2**70, "is out of the core's range: 1180591620717411303424"),
        ("stream", "mersenne", "must be one of twister, splitmix, not 'mersenne'"),
        ("stream", 1, "must be one of twister, splitmix, not 1"),
    ]:
        with pytest.raises((TypeError, ValueError), match=rf"^{core_type}: the rules' option {option} {words}$"):
            make(SimpleNamespace(game=name, **{**options, option: value}))
    flag = next(option for option, value in options.items() if isinstance(value, bool))
    with pytest.raises(TypeError, match=rf"^{core_type}: the rules' option {flag} must be true or false, not 1$"):
        make(SimpleNamespace(game=name, **{**options, flag: 1}))


def test_baha_refuses_a_table_its_core_does_not_hold() -> None:
    options = {option: getattr(baha.Rules(), option) for option in native.core().BahaRules.options}
    with pytest.raises(ValueError, match="^BahaRules: the rules' option players must be from 2 to 6, not 9$"):
        native.core().BahaRules(SimpleNamespace(game="baha", **{**options, "players": 9}))
