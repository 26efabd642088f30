"""Deck files (deck.py, effects.py): every mistake is a DeckError that names the file, the card
and the field and says what is allowed; combining decks; the content hash; and a fuzz test
that nothing but DeckError ever comes out of a bad file."""

from __future__ import annotations

import copy
import json
import random
import re
import tomllib
from pathlib import Path

import pytest
from baebae_support import ALL_KEYS, card, deck_text, write_deck
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.engine import RulesError
from cardroom.games.baebae import Rules
from cardroom.games.baebae.deck import (
    SAMPLE_DECK,
    Deck,
    DeckError,
    combine,
    find_deck,
    load_deck,
    parse_deck,
)
from cardroom.games.baebae.effects import STEPS, TARGETS, walk
from cardroom.games.baebae.rules import players_for, read_decks

HEAD = 'name = "Broken"\ntypes = ["Officer", "Rogue"]\n'


def one_card(body: str) -> str:
    """A deck of one card 6C named Pim, with ``body`` added to the card (or its action)."""
    return HEAD + '[[card]]\nrank = "6"\nsuit = "C"\nname = "Pim"\n' + body


def action(effects: str, extra: str = "") -> str:
    return one_card(f'[card.action]\ntext = "Does things."\n{extra}effects = {effects}\n')


def error(text: str, where: str = "f.toml") -> str:
    with pytest.raises(DeckError) as info:
        parse_deck(text, where)
    return str(info.value)


# -- the messages of the deck guide, exactly --------------------------------------------------


def test_the_deck_guides_error_messages_are_the_engines():
    pim = HEAD + '[[card]]\nrank = "6"\nsuit = "C"\nname = "Sergeant Pim"\ntypes = ["Officer"]\n'
    assert error(pim + '[card.action]\ntext = "x"\neffects = [{step = "steal", who = "next"}]\n',
                 "step.toml") == (
        "step.toml: card 1 (6C 'Sergeant Pim').action.effects[0]: unknown step 'steal'; steps are "
        "draw, discard, discard_under, give, take, swap_hands, skip, reverse, declare_suit, play_again, "
        "peek, penalty, coin, choose")
    gus = HEAD + '[[card]]\nrank = "9"\nsuit = "H"\nname = "Gus"\n'
    assert error(gus + '[card.action]\ntext = "x"\neffects = [{step = "take", who = "others"}]\n',
                 "target.toml") == (
        "target.toml: card 1 (9H 'Gus').action.effects[0].who: this step acts on one player, so "
        "'others' cannot be its target; use self, next, previous, chosen")
    fern = HEAD + '[[card]]\nrank = "Q"\nsuit = "S"\nname = "Lady Fern"\n'
    assert error(fern + '[card.action]\ntext = "x"\n'
                 'effects = [{step = "skip", who = {holding = {types = ["Critter"]}}}]\n', "type.toml") == (
        "type.toml: card 1 (QS 'Lady Fern').action.effects[0].who.holding.types: unknown type "
        "'Critter'; the deck's types are Officer, Rogue")
    three = HEAD + '[[card]]\nrank = "3"\nsuit = "D"\n'
    assert error(three + 'marks = ["draw2"]\n', "mark.toml") == (
        "mark.toml: card 1 (3D).marks: unknown mark 'draw2'; marks are skip, wild, reverse")
    five = HEAD + '[[card]]\nrank = "5"\nsuit = "D"\n[card.action]\ntext = "x"\n'
    assert error(five + 'effects = [{step = "coin", heads = [{step = "declare_suit"}]}]\n',
                 "nested.toml") == "nested.toml: card 1 (5D).action.effects: declare_suit must be a top-level step"
    assert error(five + "optional = true\n", "flags.toml") == (
        "flags.toml: card 1 (5D).action: flags need effects to apply to")
    broken = five + 'effects = [{step = "coin",\n heads = [{step = "reverse"}]}]\n'
    assert error(broken, "toml.toml").startswith("toml.toml: not valid TOML (")


# -- every other mistake ---------------------------------------------------------------------


@pytest.mark.parametrize(("text", "fragments"), [
    ("name = [", ["f.toml: not valid TOML ("]),
    ('types = ["Officer"]\n[[card]]\nrank = "6"\nsuit = "C"\n', ["f.toml: the deck needs a name"]),
    ('name = ""\n[[card]]\nrank = "6"\nsuit = "C"\n', ["the deck needs a name"]),
    ('name = "x"\n', ["f.toml: the deck has no cards; add [[card]] tables"]),
    ('name = "x"\ncard = []\n', ["the deck has no cards"]),
    ('name = "x"\ncolour = "red"\n[[card]]\nrank = "6"\nsuit = "C"\n',
     ["f.toml: unknown field 'colour'; a deck has name, description, types and [[card]]"]),
    ('name = "x"\ndescription = 3\n[[card]]\nrank = "6"\nsuit = "C"\n', ["f.toml: description must be text"]),
    ('name = "x"\ntypes = "Officer"\n[[card]]\nrank = "6"\nsuit = "C"\n', ["f.toml: types must be a list of names"]),
    ('name = "x"\ntypes = [1]\n[[card]]\nrank = "6"\nsuit = "C"\n', ["types must be a list of names"]),
    ('name = "x"\ncard = [1]\n', ["f.toml: card 1: a card is a table with rank and suit"]),
    (HEAD + '[[card]]\nsuit = "C"\n', ["f.toml: card 1: the field 'rank' is missing"]),
    (HEAD + '[[card]]\nrank = "6"\n', ["f.toml: card 1: the field 'suit' is missing"]),
    (HEAD + '[[card]]\nrank = "6"\nsuit = "C"\n[[card]]\nrank = "14"\nsuit = "C"\n',
     ["f.toml: card 2.rank: unknown rank '14'; ranks are A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K"]),
    (HEAD + '[[card]]\nrank = 0\nsuit = "C"\n', ["card 1.rank: unknown rank 0"]),
    (HEAD + '[[card]]\nrank = true\nsuit = "C"\n', ["card 1.rank: unknown rank True"]),
    (HEAD + '[[card]]\nrank = "6"\nsuit = "X"\n', ["f.toml: card 1.suit: unknown suit 'X'; suits are C, D, H, S"]),
    (HEAD + '[[card]]\nrank = "6"\nsuit = 3\n', ["card 1.suit: unknown suit 3"]),
    (one_card("power = 3\n"), ["f.toml: card 1: unknown field 'power'; a card has rank, suit, name, types, marks, copies, action"]),
    (one_card("name2 = 3\n"), ["unknown field 'name2'"]),
    (HEAD + '[[card]]\nrank = "6"\nsuit = "C"\nname = 5\n', ["card 1 (6C 5).name: a name is text of at most 40 characters"]),
    (HEAD + '[[card]]\nrank = "6"\nsuit = "C"\nname = "' + "x" * 41 + '"\n', [".name: a name is text of at most 40 characters (41 characters)"]),
    (one_card('types = ["Critter"]\n'), ["f.toml: card 1 (6C 'Pim').types: unknown type 'Critter'; the deck declares Officer, Rogue"]),
    (one_card('types = [["Officer"]]\n'), ["card 1 (6C 'Pim').types: unknown type ['Officer']"]),
    (one_card("types = 3\n"), ["card 1 (6C 'Pim').types: a list of type names"]),
    (one_card('marks = ["sKip"]\n'), ["card 1 (6C 'Pim').marks: unknown mark 'sKip'; marks are skip, wild, reverse"]),
    (one_card("marks = 1\n"), [".marks: a list of marks (skip, wild, reverse)"]),
    (one_card("copies = 0\n"), ["card 1 (6C 'Pim').copies: a whole number from 1 to 8, not 0"]),
    (one_card("copies = -1\n"), [".copies: a whole number from 1 to 8, not -1"]),
    (one_card("copies = 9\n"), [".copies: a whole number from 1 to 8, not 9"]),
    (one_card("copies = 1000000\n"), [".copies: a whole number from 1 to 8, not 1000000"]),
    (one_card("copies = true\n"), [".copies: a whole number from 1 to 8, not True"]),
    (one_card("copies = 2.0\n"), [".copies: a whole number from 1 to 8, not 2.0"]),
    (one_card("action = 3\n"), ["card 1 (6C 'Pim').action: a table with text, effects and flags"]),
    (one_card('[card.action]\ntext = "x"\neffect = []\n'),
     ["card 1 (6C 'Pim').action: unknown field 'effect'; an action has text, effects, optional, can_win, on_start"]),
    (one_card('[card.action]\neffects = [{step = "reverse"}]\n'),
     ["card 1 (6C 'Pim').action.text: an action needs its text for the players"]),
    (one_card('[card.action]\ntext = "  "\neffects = [{step = "reverse"}]\n'), ["an action needs its text"]),
    (one_card('[card.action]\ntext = 3\n'), [".action.text: text of at most 300 characters"]),
    (one_card('[card.action]\ntext = "' + "x" * 301 + '"\n'), [".action.text: text of at most 300 characters (301 characters)"]),
    (one_card('[card.action]\ntext = "x"\ncan_win = false\n'), ["card 1 (6C 'Pim').action: flags need effects to apply to"]),
    (one_card('[card.action]\ntext = "x"\non_start = true\n'), ["flags need effects"]),
    (action('[{step = "reverse"}]', 'optional = "yes"\n'), ["card 1 (6C 'Pim').action.optional: true or false, not 'yes'"]),
    (action('{step = "reverse"}'), ["card 1 (6C 'Pim').action.effects: expected a list of steps"]),
    (action('[3]'), ["action.effects[0]: a step is a table"]),
    (action('[{who = "next"}]'), ["action.effects[0]: unknown step None; steps are draw,"]),
    (action('[{step = "draw", amount = 2}]'),
     ["card 1 (6C 'Pim').action.effects[0]: unknown field 'amount'; the fields are step, who, count"]),
    (action('[{step = "reverse", who = "next"}]'), ["unknown field 'who'; the fields are step"]),
    (action('[{step = "draw", who = "everyone"}]'),
     ["action.effects[0].who: unknown target 'everyone'; targets are self, next, previous, chosen, others, all, or {holding = {...}}"]),
    (action('[{step = "draw", who = {holds = {}}}]'), ["action.effects[0].who: unknown field 'holds'; the fields are holding"]),
    (action('[{step = "swap_hands", who = "all"}]'), ["this step acts on one player, so 'all' cannot be its target"]),
    (action('[{step = "peek", who = {holding = {marks = ["wild"]}}}]'),
     ["action.effects[0].who: this step acts on one player: use self, next, previous, chosen"]),
    (action('[{step = "give", to = "others"}]'), ["action.effects[0].to: this step acts on one player, so 'others'"]),
    (action('[{step = "take", who = "nobody"}]'), ["unknown target 'nobody'; targets are self, next, previous, chosen"]),
    (action('[{step = "draw", count = 0}]'), ["action.effects[0].count: a count is a whole number from 1 to 20, not 0"]),
    (action('[{step = "draw", count = -2}]'), [".count: a count is a whole number from 1 to 20, not -2"]),
    (action('[{step = "draw", count = 21}]'), [".count: a count is a whole number from 1 to 20, not 21"]),
    (action('[{step = "draw", count = true}]'), [".count: a count is a whole number from 1 to 20, not True"]),
    (action('[{step = "discard", count = "two"}]'), [".count: a count is a whole number from 1 to 20, not 'two'"]),
    (action('[{step = "penalty", points = 0}]'), ["action.effects[0].points: a whole number from -100 to 100 other than 0, not 0"]),
    (action('[{step = "penalty", points = 101}]'), [".points: a whole number from -100 to 100 other than 0, not 101"]),
    (action('[{step = "discard", filter = {}}]'),
     ["action.effects[0].filter: an empty filter; give types, suits, ranks or marks (or leave it out)"]),
    (action('[{step = "discard", filter = "wild"}]'), ["action.effects[0].filter: a card filter is a table"]),
    (action('[{step = "discard", filter = {colour = ["red"]}}]'),
     ["action.effects[0].filter: unknown field 'colour'; the fields are types, suits, ranks, marks"]),
    (action('[{step = "discard", filter = {types = ["Critter"]}}]'),
     ["action.effects[0].filter.types: unknown type 'Critter'; the deck's types are Officer, Rogue"]),
    (action('[{step = "discard", filter = {types = [["Rogue"]]}}]'), [".filter.types: unknown type ['Rogue']"]),
    (action('[{step = "discard", filter = {suits = ["Z"]}}]'), [".filter.suits: unknown suit 'Z'; suits are C, D, H, S"]),
    (action('[{step = "discard", filter = {ranks = ["1", "15"]}}]'), [".filter.ranks: unknown rank '15'"]),
    (action('[{step = "discard", filter = {marks = ["stun"]}}]'), [".filter.marks: unknown mark 'stun'; marks are skip, wild, reverse"]),
    (action('[{step = "discard", filter = {marks = 1.5}}]'), [".filter.marks: expected a list, not 1.5"]),
    (action('[{step = "coin"}]'), ["action.effects[0]: a coin needs steps for heads or tails"]),
    (action('[{step = "coin", heads = [], tails = []}]'), ["a coin needs steps for heads or tails"]),
    (action('[{step = "coin", heads = {step = "reverse"}}]'), ["action.effects[0].heads: expected a list of steps"]),
    (action('[{step = "coin", tails = [{step = "steal"}]}]'), ["action.effects[0].tails[0]: unknown step 'steal'"]),
    (action('[{step = "declare_suit"}, {step = "choose", options = [{label = "a", effects = [{step = "declare_suit"}]}, {label = "b"}]}]'),
     ["card 1 (6C 'Pim').action.effects: declare_suit must be a top-level step"]),
    (action('[{step = "choose"}]'), ["action.effects[0].options: a list of 2 to 6 options"]),
    (action('[{step = "choose", options = [{label = "a"}]}]'), [".options: a list of 2 to 6 options"]),
    (action('[{step = "choose", options = [' + ", ".join(f'{{label = "{i}"}}' for i in range(7)) + ']}]'),
     [".options: a list of 2 to 6 options"]),
    (action('[{step = "choose", options = [{label = "a"}, 3]}]'), ["action.effects[0].options[1]: an option is a table"]),
    (action('[{step = "choose", options = [{label = "a"}, {label = ""}]}]'), [".options[1].label: an option needs a label"]),
    (action('[{step = "choose", options = [{label = "a"}, {name = "b"}]}]'), [".options[1]: unknown field 'name'; the fields are label, effects"]),
    (action('[{step = "choose", options = [{label = "a"}, {label = "b", effects = [{step = "draw", who = "x"}]}]}]'),
     ["action.effects[0].options[1].effects[0].who: unknown target 'x'"]),
])
def test_every_mistake_names_the_file_the_card_the_field_and_what_is_allowed(text, fragments):
    message = error(text)
    assert message.startswith("f.toml: "), message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_nesting_is_allowed_four_levels_deep():
    def nest(levels: int) -> str:
        inner = '{step = "reverse"}'
        for _ in range(levels):
            inner = f'{{step = "coin", heads = [{inner}]}}'
        return f"[{inner}]"

    deck = parse_deck(action(nest(4)), "f.toml")
    assert len(walk(deck.cards[0].effects)) == 5
    assert "steps nest more than 4 deep" in error(action(nest(5)))


def test_too_many_cards():
    cards = "".join(f'[[card]]\nrank = "{r}"\nsuit = "{s}"\ncopies = 8\n' for s in "CDHS" for r in
                    ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
    deck = parse_deck('name = "Big"\n' + cards, "big.toml")
    assert deck.size == 416
    message = error('name = "Big"\n' + cards * 3, "big.toml")
    assert message == "big.toml: 1248 cards; a deck holds at most 1000"


def test_files_that_cannot_be_read(tmp_path: Path):
    with pytest.raises(DeckError, match=r"nothing\.toml: cannot read the deck file"):
        load_deck(tmp_path / "nothing.toml")
    with pytest.raises(DeckError, match="not a deck file"):
        load_deck(tmp_path)  # a folder
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00name")
    with pytest.raises(DeckError, match=r"binary\.toml: cannot read the deck file"):
        load_deck(binary)
    huge = tmp_path / "huge.toml"
    huge.write_text("#" * (1024 * 1024 + 1))
    with pytest.raises(DeckError, match=r"huge\.toml: larger than 1024 KiB"):
        load_deck(huge)
    with pytest.raises(DeckError, match="no deck 'nope': give a deck file or one of the project's decks: sample"):
        find_deck("nope")


def test_rules_report_deck_errors_as_rules_errors(tmp_path: Path):
    bad = tmp_path / "bad.toml"
    bad.write_text(one_card('marks = ["draw2"]\n'))
    with pytest.raises(RulesError, match=r"deck: .*bad\.toml: card 1 \(6C 'Pim'\)\.marks: unknown mark 'draw2'"):
        Rules(**read_decks(str(bad)))
    small = tmp_path / "small.toml"
    small.write_text(deck_text(*[card(k) for k in ALL_KEYS[:20]], plain=False))
    with pytest.raises(RulesError, match=r"4 players with 5 cards each need 21 cards; the deck 'Test Deck' has 20 "
                                         r"\(at most 3 players, or add decks\)"):
        Rules(**read_decks(str(small)))
    assert Rules(**read_decks(str(small)), decks=2).deck_data.size == 40


def test_every_problem_of_a_file_is_reported_each_with_its_card_and_field():
    text = HEAD + """
colour = "red"
[[card]]
rank = "6"
suit = "C"
name = "Pim"
marks = ["draw2"]
copies = 9
[card.action]
text = "Does things."
effects = [{step = "steal"}, {step = "draw", who = "everyone", count = 0},
           {step = "coin", heads = [{step = "give", to = "all", filter = {suits = ["Z"], ranks = ["15"]}}]}]
[[card]]
rank = "14"
suit = "C"
[[card]]
rank = "K"
suit = "H"
types = ["Critter"]
[card.action]
text = "x"
optional = "yes"
"""
    with pytest.raises(DeckError) as info:
        parse_deck(text, "f.toml")
    assert list(info.value.problems) == [
        "f.toml: unknown field 'colour'; a deck has name, description, types and [[card]]",
        "f.toml: card 1 (6C 'Pim').marks: unknown mark 'draw2'; marks are skip, wild, reverse",
        "f.toml: card 1 (6C 'Pim').copies: a whole number from 1 to 8, not 9",
        "f.toml: card 1 (6C 'Pim').action.effects[0]: unknown step 'steal'; steps are draw, discard, "
        "discard_under, give, take, swap_hands, skip, reverse, declare_suit, play_again, peek, penalty, coin, choose",
        "f.toml: card 1 (6C 'Pim').action.effects[1].who: unknown target 'everyone'; targets are self, next, "
        "previous, chosen, others, all, or {holding = {...}}",
        "f.toml: card 1 (6C 'Pim').action.effects[1].count: a count is a whole number from 1 to 20, not 0",
        "f.toml: card 1 (6C 'Pim').action.effects[2].heads[0].to: this step acts on one player, so 'all' "
        "cannot be its target; use self, next, previous, chosen",
        "f.toml: card 1 (6C 'Pim').action.effects[2].heads[0].filter.suits: unknown suit 'Z'; suits are C, D, "
        "H, S (or ♣ ♦ ♥ ♠)",
        "f.toml: card 1 (6C 'Pim').action.effects[2].heads[0].filter.ranks: unknown rank '15'; ranks are A, 2, "
        "3, 4, 5, 6, 7, 8, 9, 10, J, Q, K",
        "f.toml: card 2.rank: unknown rank '14'; ranks are A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K",
        "f.toml: card 3 (KH).types: unknown type 'Critter'; the deck declares Officer, Rogue",
        "f.toml: card 3 (KH).action.optional: true or false, not 'yes'",
    ]
    assert str(info.value) == "\n".join(info.value.problems)  # one a line, each naming the file


def test_a_file_with_very_many_problems_lists_the_first_fifty():
    cards = "".join(f'[[card]]\nrank = "6"\nsuit = "C"\nmarks = ["m{i}"]\n' for i in range(80))
    with pytest.raises(DeckError) as info:
        parse_deck(HEAD + cards, "f.toml")
    problems = info.value.problems
    assert len(problems) == 51
    assert problems[49] == "f.toml: card 50 (6C).marks: unknown mark 'm49'; marks are skip, wild, reverse"
    assert problems[50] == "f.toml: 30 more problems, not listed; mend these first"


def test_more_card_tables_than_a_deck_may_hold_are_refused_before_reading_them():
    cards = '[[card]]\nrank = "x"\nsuit = "C"\n' * 1001
    assert error('name = "Big"\n' + cards) == (
        "f.toml: 1001 [[card]] tables; a deck holds at most 1000 cards")


@pytest.mark.parametrize(("line", "message"), [
    # decimal: Python refuses to read an int of more than 4300 digits (a ValueError in tomllib)
    ("copies = 1" + "0" * 5000,
     "f.toml: not valid TOML (a number in it is too long; numbers have at most 4300 digits)"),
    ("copies = -1" + "0" * 5000, "f.toml: not valid TOML (a number in it is too long"),
    # hexadecimal is read, but the number is too long to write out in a message
    ("copies = 0x" + "f" * 5000, "f.toml: card 1 (6C 'Pim').copies: a whole number from 1 to 8, not a number "
                                 "of about 6020 digits"),
    ("rank = 0x" + "f" * 5000, "f.toml: card 1.rank: unknown rank a number of about 6020 digits"),
])
def test_a_number_too_long_is_a_deck_error_in_words(line, message):
    text = one_card(line + "\n") if "copies" in line else HEAD + f'[[card]]\n{line}\nsuit = "C"\nname = "Pim"\n'
    assert error(text).startswith(message)


@pytest.mark.parametrize(("longest", "too_long", "message"), [
    ('name = "{}"', 60, "f.toml: the deck needs a name (name = \"...\"), text of 1 to 60 characters (61 characters)"),
    ('name = "D"\ndescription = "{}"', 300, "f.toml: description must be text of at most 300 characters"),
    ('name = "D"\ntypes = ["{}"]', 24, "f.toml: types[0]: types must be a list of names, text of 1 to 24 characters "
                                     "(25 characters)"),
    ('name = "D"\n[[card]]\nrank = "6"\nsuit = "C"\nname = "{}"', 40,
     "f.toml: card 1 (6C 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx').name: a name is text of at most 40 characters "
     "(41 characters)"),
    ('name = "D"\n[[card]]\nrank = "6"\nsuit = "C"\n[card.action]\ntext = "{}"\neffects = [{{step = "reverse"}}]',
     300, "f.toml: card 1 (6C).action.text: text of at most 300 characters (301 characters)"),
    ('name = "D"\n[[card]]\nrank = "6"\nsuit = "C"\n[card.action]\ntext = "x"\neffects = [{{step = "choose", '
     'options = [{{label = "{}"}}, {{label = "b"}}]}}]', 60,
     "f.toml: card 1 (6C).action.effects[0].options[0].label: an option needs a label, text of at most 60 characters"),
])
def test_every_text_of_a_deck_is_bounded(longest, too_long, message):
    filler = "" if "[[card]]" in longest else '\n[[card]]\nrank = "6"\nsuit = "C"\n'
    assert parse_deck(longest.format("x" * too_long) + filler, "f.toml")
    assert error(longest.format("x" * (too_long + 1)) + filler) == message


def test_an_over_long_name_is_quoted_short_in_every_message():
    name = "x" * 255_000
    message = error(HEAD + f'[[card]]\nrank = "6"\nsuit = "C"\nname = "{name}"\nmarks = ["m"]\ncopies = 0\n')
    assert len(message) < 500, message
    assert message.count("…") == 3  # the name in each problem's label is cut short


def test_a_deck_declares_at_most_twenty_types():
    types = json.dumps([f"T{i}" for i in range(21)])
    assert error(f'name = "D"\ntypes = {types}\n[[card]]\nrank = "6"\nsuit = "C"\n') == (
        "f.toml: types lists 21 names; a deck declares at most 20")


@pytest.mark.parametrize("size", [1, 2, 14, 15, 16, 20, 21, 52])
@pytest.mark.parametrize("hand_size", [None, 1, 7])
def test_players_for_is_what_the_rules_accept(size, hand_size):
    """``players_for`` (what ``deck validate`` says) and ``Rules`` agree for every deck size."""
    path = write_deck(deck_text(*[card(k) for k in ALL_KEYS[:size]], plain=False), f"size{size}")
    fits = players_for(size, hand_size)
    for players in range(2, 25):
        try:
            Rules(**read_decks(str(path)), players=players, hand_size=hand_size)
        except RulesError as err:
            assert players not in fits, err
            expected = f"at most {fits[-1]} players" if fits else "too few cards for any game"
            assert expected in str(err)
        else:
            assert players in fits


@pytest.mark.parametrize(("flags", "text", "notes"), [
    ("optional = true", "Optional: reverse.", ()),
    ("optional = true", "Reverse the direction of play.", ("optional",)),
    ("optional = true\ncan_win = false", "Reverse (this is optional).", ("cannot win",)),
    ("can_win = false", "Reverse. Can't win.", ()),
    ("can_win = false\non_start = true", "Reverse.", ("cannot win", "on start")),
    ("on_start = true", "Reverse; as the starter, too.", ()),
    ("", "Reverse.", ()),
])
def test_a_cards_notes_are_its_flags_that_its_text_does_not_say(flags, text, notes):
    deck = parse_deck(one_card(f'[card.action]\ntext = "{text}"\n{flags}\neffects = [{{step = "reverse"}}]\n'))
    assert deck.cards[0].notes == notes


def test_no_card_of_the_sample_deck_says_a_flag_twice():
    deck = load_deck(SAMPLE_DECK)
    flagged = [c for c in deck.cards if c.optional or not c.can_win or c.on_start]
    assert len(flagged) >= 5 and all(c.notes == () for c in flagged)


# -- reading good decks ----------------------------------------------------------------------


def test_a_card_reads_into_a_frozen_definition():
    deck = parse_deck(HEAD + '''
[[card]]
rank = "Queen"
suit = "♥"
name = "  Lady  "
types = "Officer"
marks = "wild"
copies = 2
[card.action]
text = "Optional: swap."
optional = true
can_win = false
effects = [{step = "swap_hands", who = "chosen"}]
''', "f.toml")
    (queen,) = deck.cards
    assert (queen.key, queen.rank, queen.suit, queen.name) == ("QH", 12, 2, "Lady")
    assert queen.types == frozenset({"Officer"}) and queen.marks == frozenset({"wild"}) and queen.wild
    assert (queen.copies, queen.optional, queen.can_win, queen.on_start) == (2, True, False, False)
    assert queen.effects[0].op == "swap_hands" and queen.effects[0].who.kind == "chosen"
    assert deck.size == 2 and deck.name == "Broken" and deck.types == frozenset({"Officer", "Rogue"})
    with pytest.raises(AttributeError):
        queen.rank = 3  # type: ignore[misc]


@pytest.mark.parametrize(("rank", "suit", "key"), [
    ('"A"', '"C"', "AC"), ('"ace"', '"clubs"', "AC"), ("1", '"♣"', "AC"), ('"T"', '"D"', "10D"),
    ("10", '"Diamonds"', "10D"), ('"jack"', '"h"', "JH"), ('"K"', '"♠"', "KS"), ("13", '"spades"', "KS"),
])
def test_ranks_and_suits_in_their_other_spellings(rank, suit, key):
    deck = parse_deck(f'name = "x"\n[[card]]\nrank = {rank}\nsuit = {suit}\n', "f.toml")
    assert deck.cards[0].key == key


def test_further_designs_of_a_rank_and_suit_are_numbered():
    deck = parse_deck(HEAD + '[[card]]\nrank = "6"\nsuit = "C"\n' * 3 + '[[card]]\nrank = "7"\nsuit = "C"\n', "f.toml")
    assert [c.key for c in deck.cards] == ["6C", "6C#2", "6C#3", "7C"]
    rules = Rules(players=2, hand_size=1, **read_decks(str(write_deck(deck_text(
        card("6C", name="One"), card("6C", name="Two"), plain=True)))))
    keys = [c.key for c in rules.cards]
    assert keys[:2] == ["6C", "6C#2"] and len(keys) == 53
    state = rules.new_game(0)
    assert state.parse_action("play 6C#2") == 1 and state.action_to_string(1) == "play 6C#2"


def test_the_digest_depends_on_the_cards_not_the_layout():
    text = SAMPLE_DECK.read_text(encoding="utf-8")
    deck = parse_deck(text, "a.toml")
    relaid = re.sub(r"^#.*$", "", text, flags=re.M).replace(" = ", "=")
    assert parse_deck(relaid, "b.toml").digest == deck.digest
    changed = text.replace('name = "Constable Hobb"', 'name = "Constable Hob"')
    assert parse_deck(changed, "c.toml").digest != deck.digest
    assert deck.digest.startswith("sha256:") and len(deck.digest) == 7 + 64


def test_the_sample_deck_uses_every_step_target_filter_field_and_flag():
    deck = load_deck(SAMPLE_DECK)
    assert deck.size == 52 and sorted(c.key for c in deck.cards) == sorted(ALL_KEYS)
    steps = [s for c in deck.cards for s in walk(c.effects)]
    assert {s.op for s in steps} == set(STEPS)
    kinds = {t.kind for s in steps for t in (s.who, s.to) if t is not None}
    assert kinds == set(TARGETS) | {"holding"}
    filters = [s.filter for s in steps if s.filter] + [s.who.holding for s in steps if s.who and s.who.holding]
    for field in ("types", "suits", "ranks", "marks"):
        assert any(getattr(f, field) for f in filters), field
    assert any(c.optional for c in deck.cards) and any(not c.can_win for c in deck.cards)
    assert any(c.on_start for c in deck.cards)
    assert {m for c in deck.cards for m in c.marks} == {"skip", "wild", "reverse"}
    assert any(len(c.types) > 1 for c in deck.cards)
    for c in deck.cards:
        assert not c.effects or c.text


# -- combining decks -------------------------------------------------------------------------


EXTRAS = '''name = "Extras"
types = ["Pirate", "Officer", "Scholar"]
[[card]]
rank = "6"
suit = "C"
name = "Clerk Amos Inkwell"
types = ["Officer", "Scholar"]
[card.action]
text = "Put one Jack, Queen or King of your choice from your hand under this card, if you have one."
effects = [{step = "discard", who = "self", count = 1, filter = {ranks = ["J", "Q", "K"]}}]
[[card]]
rank = "6"
suit = "C"
name = "Captain Hook"
types = ["Pirate"]
[[card]]
rank = "Q"
suit = "S"
name = "Another Queen"
'''


def test_combine_merges_identical_designs_and_numbers_the_others():
    sample = load_deck(SAMPLE_DECK)
    extras = parse_deck(EXTRAS, "extras.toml")
    both = combine([sample, extras])
    keys = {c.key: c for c in both.cards}
    assert keys["6C"].copies == 2 and keys["6C"].name == "Clerk Amos Inkwell"  # the same design
    assert keys["6C#2"].name == "Captain Hook" and keys["QS#2"].name == "Another Queen"
    assert both.size == 55 and len(both.cards) == 54
    assert both.types == sample.types | {"Pirate"}
    assert both.name == "Cardroom Sample Deck + Extras"
    twice = combine([sample, extras], copies=2)
    assert twice.name == "Cardroom Sample Deck x2 + Extras"
    assert twice.size == 107 and {c.key: c.copies for c in twice.cards}["6C"] == 3
    assert combine([sample]) is sample
    with pytest.raises(DeckError, match="no deck given"):
        combine([])
    with pytest.raises(DeckError, match="decks must be a whole number from 1 to 8, not 9"):
        combine([sample], copies=9)


def test_rules_decks_option_and_several_files():
    rules = Rules(decks=2)
    assert rules.deck_data.size == 104 and len(rules.cards) == 52
    assert all(c.copies == 2 for c in rules.cards) and len(rules.card_of) == 104
    assert rules.deck_data.name == "Cardroom Sample Deck x2"
    extras = write_deck(EXTRAS, "extras")
    combined = Rules(**read_decks(f"sample, {extras}"), decks=2)
    assert combined.deck_data.size == 107
    assert "6C#2" in {c.key for c in combined.cards}
    record = combined.deck_record()
    assert record["digest"] == combined.deck_data.digest
    assert record["spec"] == "sample," + load_deck(extras).digest  # a deck file goes by its content
    state = combined.new_game(1)
    assert sorted(c for h in state.log[0]["hands"] for c in h) + sorted(state.log[0]["stock"]) != []


def test_a_deck_loaded_by_name_or_path_is_the_same():
    assert find_deck("sample").digest == find_deck(str(SAMPLE_DECK)).digest


# -- nothing but DeckError ---------------------------------------------------------------------


KEYS = ["step", "who", "to", "count", "filter", "types", "suits", "ranks", "marks", "heads", "tails",
        "options", "label", "effects", "holding", "points", "rank", "suit", "name", "copies", "action",
        "text", "optional", "can_win", "on_start", "card", "description", "x"]
TOKENS = ["A", "10", "Q", "13", "C", "♥", "Hearts", "skip", "wild", "Officer", "Rogue", "next", "others",
          "chosen", "self", "all", "previous", "draw", "coin", "choose", "declare_suit", "take", "give",
          "discard", "discard_under", "peek", "swap_hands", "penalty", "play_again", "reverse", ""]

scalars = st.one_of(st.booleans(), st.integers(-3, 25), st.floats(allow_nan=False, allow_infinity=False),
                    st.text(st.characters(blacklist_categories=("Cs",)), max_size=6), st.sampled_from(TOKENS))
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=4),
    max_leaves=16,
)
filters = st.dictionaries(st.sampled_from(["types", "suits", "ranks", "marks", "x"]),
                          st.lists(st.sampled_from(TOKENS) | values, max_size=3) | values, max_size=3)
targets = st.sampled_from(TOKENS) | st.fixed_dictionaries({"holding": filters}) | values
steps = st.builds(lambda op, extra: {"step": op, **extra}, st.sampled_from([*STEPS, "steal"]),
                  st.fixed_dictionaries({}, optional={"who": targets, "to": targets, "filter": filters,
                                                      "count": st.integers(-1, 22) | values,
                                                      "points": st.integers(-101, 101) | values})
                  | st.dictionaries(st.sampled_from(KEYS[:16]), values, max_size=3))
actions = st.fixed_dictionaries({"text": st.sampled_from(["Does.", "", 3])},
                                optional={"effects": st.lists(steps, max_size=3) | values,
                                          "optional": st.booleans() | values,
                                          "can_win": st.booleans(), "on_start": st.booleans(), "x": values})
cards = st.fixed_dictionaries(
    {"rank": st.sampled_from(["A", "6", "10", "K", "14", 7, 0]) | values,
     "suit": st.sampled_from(["C", "♦", "Hearts", "Z"]) | values},
    optional={"name": st.text(max_size=5) | values,
              "types": st.lists(st.sampled_from(["Officer", "Rogue", "Nope"]) | values, max_size=3) | values,
              "marks": st.lists(st.sampled_from(["skip", "wild", "stun"]) | values, max_size=3) | values,
              "copies": st.integers(-1, 10) | values, "action": actions | values, "y": values},
)
decks = st.fixed_dictionaries(
    {"name": st.sampled_from(["Fuzz", ""]) | values},
    optional={"types": st.just(["Officer", "Rogue"]) | values, "card": st.lists(cards, max_size=3) | values,
              "description": values, "z": values},
)


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def to_toml(table: dict) -> str:
    return "\n".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in table.items()) + "\n"


def parses_or_refuses(text: str) -> Deck | None:
    try:
        return parse_deck(text, "fuzz.toml")
    except DeckError as err:
        assert str(err).startswith("fuzz.toml"), err
        return None


@settings(max_examples=150, deadline=None)
@given(table=decks)
def test_random_deck_tables_raise_nothing_but_deck_errors(table):
    parses_or_refuses(to_toml(table))


SAMPLE_TABLE = tomllib.loads(SAMPLE_DECK.read_text(encoding="utf-8"))


def paths(value, path=()):
    """Every place in a nested table: key paths to each value."""
    yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from paths(inner, (*path, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from paths(inner, (*path, i))


@settings(max_examples=300, deadline=None)
@given(data=st.data(), picks=st.lists(st.integers(0, 51), min_size=1, max_size=6, unique=True))
def test_sample_deck_tables_mutated_deep_inside_raise_nothing_but_deck_errors(data, picks):
    table = copy.deepcopy({**SAMPLE_TABLE, "card": [SAMPLE_TABLE["card"][i] for i in picks]})
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(list(paths(table))[1:]))
        *parents, last = path
        holder = table
        for key in parents:
            holder = holder[key]
        how = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if how == "replace":
            holder[last] = data.draw(values)
        elif how == "delete":
            del holder[last]
        elif isinstance(holder, dict):
            holder[data.draw(st.sampled_from(KEYS))] = data.draw(values)
        else:
            holder.insert(last, data.draw(values))
    parses_or_refuses(to_toml(table))


SAMPLE_LINES = SAMPLE_DECK.read_text(encoding="utf-8").splitlines()


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), edits=st.integers(1, 4), token=st.sampled_from(TOKENS) | scalars)
def test_mutated_sample_decks_raise_nothing_but_deck_errors(seed, edits, token):
    rng = random.Random(seed)
    lines = SAMPLE_LINES[:]
    for _ in range(edits):
        i = rng.randrange(len(lines))
        kind = rng.randrange(5)
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif kind == 2:  # replace a quoted value
            lines[i] = re.sub(r'"[^"]*"', lambda _: toml_value(token), lines[i], count=1)
        elif kind == 3:  # replace a number or a bool
            lines[i] = re.sub(r"\b(\d+|true|false)\b", lambda _: toml_value(token), lines[i], count=1)
        else:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
    deck = parses_or_refuses("\n".join(lines))
    if deck is not None:
        assert deck.size >= 1
