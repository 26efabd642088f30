"""Baha's deck: its 52 cards as small ints, their colours, values, horns and text forms.

A card is an ``int`` (:data:`cardroom.cards.Card`). Baha's 52 cards are
``colour * 13 + (value - 1)``: values 1..13 in the four colours Purple, Red, Turquoise,
Orange, written ``9P``, ``13R``, ``1T``. A set of cards is a bitmask
(:data:`cardroom.cards.CardMask`), so following colour is ``hand & COLOUR_MASK[led]``.
Tables are built once at import.

>>> parse_baha_card("13r")
25
>>> baha_card_text(25)
'13R'
>>> cards_of(1 << parse_baha_card("9P") | 1 << parse_baha_card("1T"))
[8, 26]
"""

from __future__ import annotations

from typing import Final

from cardroom.cards import Card, CardMask
from cardroom.engine import CardroomInputError

__all__ = [
    "COLOURS",
    "VALUES",
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "COLOUR_MASK",
    "COLOUR_SHIFT",
    "SLICE_BITS",
    "SLICE_CARDS",
    "BAHA_DECK",
    "FULL_BAHA_MASK",
    "CardParseError",
    "colour_of",
    "value_of",
    "horns_of",
    "baha_card",
    "baha_card_text",
    "parse_baha_card",
    "cards_of",
    "mask_points",
]

COLOURS: Final = 4
VALUES: Final = 13
COLOUR_LETTERS = "PRTO"
COLOUR_NAMES = ("Purple", "Red", "Turquoise", "Orange")

BAHA_DECK: Final[tuple[Card, ...]] = tuple(range(COLOURS * VALUES))
FULL_BAHA_MASK: Final[CardMask] = (1 << len(BAHA_DECK)) - 1
COLOUR_MASK: Final[tuple[CardMask, ...]] = tuple(((1 << VALUES) - 1) << (VALUES * c) for c in range(COLOURS))

_COLOUR_OF: Final[tuple[int, ...]] = tuple(c // VALUES for c in BAHA_DECK)
_VALUE_OF: Final[tuple[int, ...]] = tuple(c % VALUES + 1 for c in BAHA_DECK)
_TEXT: Final[tuple[str, ...]] = tuple(f"{_VALUE_OF[c]}{COLOUR_LETTERS[_COLOUR_OF[c]]}" for c in BAHA_DECK)
_PARSE: dict[str, Card] = {t: c for c, t in enumerate(_TEXT)}

# Cards of each 13-bit colour slice of a mask, so a whole mask decodes with four table look-ups
# instead of a loop over 52 bits (the legal-move list is built on every turn).
SLICE_BITS: Final[CardMask] = (1 << VALUES) - 1
"""The bits of one colour's slice once shifted down: ``mask >> COLOUR_SHIFT[c] & SLICE_BITS``."""
COLOUR_SHIFT: Final[tuple[int, ...]] = tuple(VALUES * c for c in range(COLOURS))
"""Bit offset of each colour's 13-card slice in a mask."""
SLICE_CARDS: Final[tuple[tuple[tuple[Card, ...], ...], ...]] = tuple(
    tuple(
        tuple(colour * VALUES + v for v in range(VALUES) if bits >> v & 1)
        for bits in range(1 << VALUES)
    )
    for colour in range(COLOURS)
)
"""``SLICE_CARDS[c][bits]``: the cards, ascending, of colour ``c`` whose slice bits are ``bits``."""


class CardParseError(CardroomInputError):
    """A card's text could not be read; the message says what is allowed."""


def colour_of(card: Card) -> int:
    """Colour index 0..3 (Purple, Red, Turquoise, Orange) of a Baha card."""
    return _COLOUR_OF[card]


def value_of(card: Card) -> int:
    """Face value 1..13 of a Baha card."""
    return _VALUE_OF[card]


def horns_of(card: Card) -> int:
    """Horns printed on a Baha card (RULINGS B2): 9..13 carry 1..5, lower cards none."""
    return max(0, _VALUE_OF[card] - 8)


def baha_card(value: int, colour: int) -> Card:
    """The Baha card of ``value`` (1..13) and ``colour`` (0..3)."""
    if not (1 <= value <= VALUES and 0 <= colour < COLOURS):
        raise CardParseError(f"no Baha card has value {value} and colour {colour}")
    return colour * VALUES + value - 1


def baha_card_text(card: Card) -> str:
    """Text form of a Baha card: value then colour letter, e.g. ``9P``."""
    return _TEXT[card]


def parse_baha_card(text: str) -> Card:
    """Read a Baha card from text such as ``9P``, ``13r`` or ``1 T``."""
    key = "".join(str(text).split()).upper()
    card = _PARSE.get(key)
    if card is None:
        raise CardParseError(
            f"{text!r} is not a Baha card: write the value 1-13 then the colour letter "
            f"P, R, T or O, e.g. 9P or 13R"
        )
    return card


def cards_of(mask: CardMask) -> list[Card]:
    """The Baha cards of a bitmask, in ascending order (colour by colour, low to high): four
    table look-ups, where :func:`cardroom.cards.bits_of` takes one step per card."""
    t = SLICE_CARDS
    b = SLICE_BITS
    return [
        *t[0][mask & b], *t[1][mask >> 13 & b], *t[2][mask >> 26 & b], *t[3][mask >> 39 & b]
    ]


def mask_points(slice_points: tuple[int, ...], mask: CardMask) -> int:
    """Points in a set of cards, from the points of every 13-bit colour slice (a rules table)."""
    b = SLICE_BITS
    return slice_points[mask & b] + slice_points[mask >> 13 & b] + slice_points[mask >> 26 & b] \
        + slice_points[mask >> 39]
