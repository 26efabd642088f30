"""A rules option is declared once, beside its field in the game's rules class (``option``):
the catalog every front reads (``GameSpec.options``) is made from those fields, and the rules
check a value against the same description."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from cardroom import games
from cardroom.engine import RulesError
from cardroom.games import GameRules, OptionSpec, option, options_of
from cardroom.games.baebae.rules import Rules as BaebaeRules
from cardroom.games.baha.rules import Rules as BahaRules

# The catalogs as the games' specs wrote them out by hand before the options were declared in
# the rules: the lobby, the CLI, the web catalog and the docs must see exactly these, in this
# order (an option added later may stand among them: this test need not change for it).
BAHA_CATALOG = (
    OptionSpec("scoring", "choice",
               "How taken cards score: horns (9 to 13 carry 1 to 5) or face value of 9 and up.",
               choices=("horns", "face"), label="Scoring"),
    OptionSpec("passing", "bool", "Pass three cards before each hand (right, left, keep).", label="Passing"),
    OptionSpec("moon", "bool",
               "Shooting the moon: whoever takes every point gives the hand's points to everyone else.",
               label="Shooting the moon"),
    OptionSpec("target", "int", "The game ends when a total reaches this many points; the lowest total wins.",
               minimum=1, maximum=10_000, label="Points that end the game"),
    OptionSpec("draw_pile", "bool",
               "Draw-pile variant for 2 or 3 players (by default on for 2 players, off for 3).",
               by_players=True, label="Draw pile (2 or 3 players)"),
    OptionSpec("random_dealer", "bool", "Choose the first dealer at random.", label="Random first dealer"),
)
BAEBAE_CATALOG = (
    OptionSpec("rounds", "int", "Rounds in the game.", minimum=1, maximum=100, label="Rounds"),
    OptionSpec("ace_penalty", "int", "Penalty points of an ace left in hand.", minimum=0, maximum=20,
               label="Penalty of an ace"),
    OptionSpec("draw_when_able", "bool", "A player who can play may draw instead.",
               label="Draw when able to play"),
    OptionSpec("hand_size", "int", "Cards dealt to each player (by default 7 with two players, else 5).",
               minimum=1, maximum=20, by_players=True, label="Cards dealt"),
    OptionSpec("decks", "int", "Copies of the deck shuffled together.", minimum=1, maximum=8,
               label="Decks shuffled together"),
    OptionSpec("turn_limit", "int", "Turns after which a round stops (a guard against endless rounds).",
               minimum=10, maximum=100_000, label="Turn limit of a round"),
)


@pytest.mark.parametrize(("rules", "catalog"), [(BahaRules, BAHA_CATALOG), (BaebaeRules, BAEBAE_CATALOG)],
                         ids=["baha", "baebae"])
def test_the_catalog_made_from_the_rules_is_the_one_written_before(rules: type, catalog: tuple[OptionSpec, ...]) -> None:
    names = {o.name for o in catalog}
    assert tuple(o for o in options_of(rules) if o.name in names) == catalog
    assert tuple(o for o in games.get(rules.game).options if o.name in names) == catalog


def test_every_registered_game_declared_in_its_rules_has_the_catalog_of_its_rules() -> None:
    for spec in games.specs():
        if options_of(spec.rules):
            assert spec.options == options_of(spec.rules), spec.name


@pytest.mark.parametrize(("options", "message"), [
    ({"scoring": "tens"}, "scoring must be one of horns, face, not 'tens'"),
    ({"passing": 1}, "passing must be true or false, not 1"),
    ({"moon": "yes"}, "moon must be true or false, not 'yes'"),
    ({"target": 0}, "target must be a whole number from 1 to 10000, not 0"),
    ({"target": 10_001}, "target must be a whole number from 1 to 10000, not 10001"),
    ({"target": True}, "target must be a whole number from 1 to 10000, not True"),
    ({"draw_pile": 5, "players": 2}, "draw_pile must be true or false, not 5"),
    ({"random_dealer": None}, "random_dealer must be true or false, not None"),
])
def test_baha_refuses_what_the_declaration_does_not_allow(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError) as refused:
        BahaRules(**options)
    assert str(refused.value) == message


@dataclass(frozen=True)
class _Toy(GameRules):
    """A rules class of the test: what a new game writes."""

    game: ClassVar[str] = "toy-declared"
    text_kinds: ClassVar[Mapping[str, Any]] = {"width": 0}

    players: int = 2
    colour: str = option("red", "The colour.", choices=("red", "blue"))
    width: int | None = option(None, "How wide (by default the players).", minimum=2, maximum=4,
                               by_players=True, label="Width")
    fast: bool = option(False, "Play fast.")
    note: str = option("", "A note.")
    seed_text: str = "kept apart"

    def __post_init__(self) -> None:
        self.check_options()


def test_a_new_rules_class_declares_its_options_once() -> None:
    assert options_of(_Toy) == (
        OptionSpec("colour", "choice", "The colour.", choices=("red", "blue")),
        OptionSpec("width", "int", "How wide (by default the players).", minimum=2, maximum=4,
                   by_players=True, label="Width"),
        OptionSpec("fast", "bool", "Play fast."),
        OptionSpec("note", "text", "A note."),
    )
    assert _Toy().width is None and _Toy(width=3).width == 3
    assert _Toy.from_dict({"width": "4", "fast": "yes"}) == _Toy(width=4, fast=True)
    for options, message in [({"colour": "green"}, "colour must be one of red, blue, not 'green'"),
                             ({"width": 5}, "width must be a whole number from 2 to 4, not 5"),
                             ({"fast": "no"}, "fast must be true or false, not 'no'"),
                             ({"note": 3}, "note must be text, not 3")]:
        with pytest.raises(RulesError) as refused:
            _Toy(**options)
        assert str(refused.value) == message


def test_an_option_whose_kind_cannot_be_read_is_refused_where_it_is_declared() -> None:
    @dataclass(frozen=True)
    class Unread(GameRules):
        game: ClassVar[str] = "toy-unread"
        limit: int | None = option(None, "No kind to read.")

    with pytest.raises(TypeError, match=r"Unread\.limit: an option's kind is read from its default"):
        options_of(Unread)
