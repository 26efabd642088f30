"""Baha's deck (games/baha/cards.py): the 52 cards as small ints, their text forms, and bitmask sets (RULINGS B1)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import count, mask_of
from cardroom.games.baha.cards import (
    BAHA_DECK,
    COLOUR_LETTERS,
    COLOUR_MASK,
    COLOUR_NAMES,
    FULL_BAHA_MASK,
    CardParseError,
    baha_card,
    baha_card_text,
    cards_of,
    colour_of,
    parse_baha_card,
    value_of,
)

ALL_TEXTS = [f"{v}{c}" for c in "PRTO" for v in range(1, 14)]


def test_deck_is_52_cards_in_four_colours_purple_red_turquoise_orange():
    assert tuple(range(52)) == BAHA_DECK
    assert COLOUR_LETTERS == "PRTO"
    assert COLOUR_NAMES == ("Purple", "Red", "Turquoise", "Orange")
    assert FULL_BAHA_MASK == (1 << 52) - 1


@pytest.mark.parametrize(
    ("text", "card"),
    [("1P", 0), ("9P", 8), ("13P", 12), ("1R", 13), ("13R", 25), ("1T", 26), ("7T", 32),
     ("1O", 39), ("13O", 51)],
)
def test_card_int_is_colour_times_13_plus_value_minus_1(text, card):
    assert parse_baha_card(text) == card
    assert baha_card_text(card) == text
    value, colour = int(text[:-1]), "PRTO".index(text[-1])
    assert card == colour * 13 + value - 1
    assert value_of(card) == value
    assert colour_of(card) == colour
    assert baha_card(value, colour) == card


def test_every_card_round_trips_through_text():
    texts = [baha_card_text(c) for c in BAHA_DECK]
    assert texts == ALL_TEXTS
    assert len(set(texts)) == 52
    for card in BAHA_DECK:
        text = baha_card_text(card)
        assert re.fullmatch(r"(1[0-3]|[1-9])[PRTO]", text)
        assert parse_baha_card(text) == card


@pytest.mark.parametrize(
    ("text", "card"),
    [("13r", 25), ("9p", 8), (" 9P ", 8), ("1 T", 26), ("1\tt", 26), ("13 o\n", 51),
     ("  10  R ", 22)],
)
def test_parse_tolerates_case_and_spaces(text, card):
    assert parse_baha_card(text) == card


@pytest.mark.parametrize(
    "text", ["", " ", "0P", "14P", "9X", "P9", "9", "P", "99Z", "9PP", "-1P", "9 P R", "1.0P",
             "10", "?", "nine of purple"],
)
def test_bad_text_raises_card_parse_error_with_a_helpful_message(text):
    with pytest.raises(CardParseError) as info:
        parse_baha_card(text)
    message = str(info.value)
    assert repr(text) in message  # names what was given
    assert "1-13" in message and "P, R, T or O" in message  # says what is allowed
    assert "9P" in message  # and shows an example


def test_card_parse_error_is_a_value_error():
    assert issubclass(CardParseError, ValueError)
    with pytest.raises(ValueError):
        parse_baha_card("15Q")


@pytest.mark.parametrize(("value", "colour"), [(0, 0), (14, 0), (1, 4), (1, -1), (-3, 2)])
def test_baha_card_refuses_values_and_colours_out_of_range(value, colour):
    with pytest.raises(CardParseError, match=str(value)):
        baha_card(value, colour)


def test_colour_masks_hold_the_13_cards_of_each_colour():
    for colour in range(4):
        cards = cards_of(COLOUR_MASK[colour])
        assert cards == list(range(13 * colour, 13 * colour + 13))
        assert all(colour_of(c) == colour for c in cards)
        assert [value_of(c) for c in cards] == list(range(1, 14))
    assert sum(COLOUR_MASK) == FULL_BAHA_MASK
    for a in range(4):
        for b in range(a + 1, 4):
            assert COLOUR_MASK[a] & COLOUR_MASK[b] == 0


def test_mask_of_and_cards_of_known_answers():
    assert mask_of([]) == 0
    assert cards_of(0) == []
    assert mask_of([0]) == 1
    assert mask_of([51]) == 1 << 51
    assert mask_of([8, 26]) == (1 << 8) | (1 << 26)
    assert cards_of(mask_of([51, 0, 26, 13, 12])) == [0, 12, 13, 26, 51]  # ascending
    assert mask_of([5, 5, 5]) == 1 << 5  # a set: duplicates collapse
    assert cards_of(FULL_BAHA_MASK) == list(BAHA_DECK)
    assert count(FULL_BAHA_MASK) == 52
    assert count(mask_of([1, 2, 40])) == 3
    assert mask_of(iter([3, 4])) == 0b11000  # any iterable


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(min_value=0, max_value=51)))
def test_mask_round_trip(cards):
    mask = mask_of(cards)
    assert cards_of(mask) == sorted(cards)
    assert count(mask) == len(cards)
    assert 0 <= mask <= FULL_BAHA_MASK
    assert mask_of(cards_of(mask)) == mask
    for card in BAHA_DECK:
        assert (mask >> card & 1) == (card in cards)
