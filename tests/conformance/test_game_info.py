"""Every game's declared static facts (``GameSpec.info``) and typed references agree with the
game itself: the action count with ``decode``, the end event with a finished game's log, the
capabilities with the engine's runtime protocols, each reference with its contract."""

from __future__ import annotations

import random

import pytest
from conformance_support import action_space, random_game

from cardroom import games
from cardroom.engine import DeckRules, QuietPlayout, RulesError
from cardroom.games import REFERENCES
from cardroom.games.contracts import GameInfo

GAME_NAMES = [*games.names(), "highcard"]


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("players", [None, 3])
def test_the_declared_facts_are_the_games(name: str, players: int | None) -> None:
    spec = games.get(name)
    rules = spec.make_rules({} if players is None else {"players": players})
    state = rules.new_game(4)
    assert spec.info.num_actions(rules) == action_space(state)
    has = {"quiet_playout": isinstance(state, QuietPlayout), "deck_rules": isinstance(rules, DeckRules)}
    assert spec.info.capabilities == frozenset(k for k, v in has.items() if v)
    for _ in random_game(state, random.Random(4)):
        pass
    assert state.log[-1]["t"] == spec.info.end_event
    assert sum(e["t"] == spec.info.end_event for e in state.log) == 1


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_reference_meets_its_contract(name: str) -> None:
    spec = games.get(name)
    for field, contract in REFERENCES.items():
        if getattr(spec, field) is not None:
            assert isinstance(spec.load(field), contract)


def test_a_reference_to_the_wrong_thing_is_refused_naming_the_contract(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    spec = dataclasses.replace(games.get("baha"), results="cardroom.games.baha.rules:PASS_COUNT",
                               observation=None)
    with pytest.raises(RulesError, match=r"baha's results 'cardroom.games.baha.rules:PASS_COUNT' is not a GameTables"):
        spec.load("results")
    with pytest.raises(RulesError, match="Baha has no observation"):
        spec.load("observation")


def test_an_unknown_capability_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown capability 'teleport'"):
        GameInfo(num_actions=lambda rules: 1, capabilities=frozenset({"teleport"}))
