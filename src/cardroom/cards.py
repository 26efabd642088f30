"""What both games share about cards: a card is a small ``int``, a set of cards a bitmask.

A set of cards is a plain ``int`` with bit ``c`` set when card ``c`` is in the set, so a union
is ``|``, a card's removal ``& ~(1 << c)`` and a set's size ``bit_count()``. What a card *is*
belongs to its game: Baha's 52 cards and their text forms are in
:mod:`cardroom.games.baha.cards`; BAEBAE's physical cards index its rules' designs.

>>> mask_of([8, 26, 3])
67109128
>>> bits_of(67109128)
[3, 8, 26]
>>> lowest(67109128), count(67109128)
(3, 3)
>>> select(0b1010, ("a", "b", "c", "d"))
['b', 'd']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

__all__ = ["Card", "CardMask", "mask_of", "bits_of", "select", "lowest", "count"]

Card: TypeAlias = int
"""A card as a small int."""

CardMask: TypeAlias = int
"""A set of cards as a bitmask: bit ``c`` is set when card ``c`` is in the set."""


def mask_of(cards: Iterable[Card]) -> CardMask:
    """The bitmask of a collection of cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def bits_of(mask: CardMask) -> list[Card]:
    """The cards of a bitmask of any width, ascending (one step per card held, not per bit)."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def select(mask: CardMask, texts: tuple[str, ...]) -> list[str]:
    """``texts[c]`` for each card ``c`` of the bitmask, ascending: a table of card texts read
    for a set (a hand's texts) in one loop."""
    out: list[str] = []
    while mask:
        low = mask & -mask
        out.append(texts[low.bit_length() - 1])
        mask ^= low
    return out


def lowest(mask: CardMask) -> Card:
    """The lowest card of a non-empty bitmask (``-1`` for the empty one)."""
    return (mask & -mask).bit_length() - 1


def count(mask: CardMask) -> int:
    """Number of cards in a bitmask."""
    return mask.bit_count()
