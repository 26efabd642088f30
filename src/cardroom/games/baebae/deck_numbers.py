"""A deck's numbers read and changed in its TOML text: what ``cardroom tune`` searches.

A number is named ``CARD.FIELD``: the card by its key (``10C``, ``6C#2`` for the second design
of 6C) and a whole-number field of its action's steps (``count``, ``points``; in nested
choices and coins too) or of the card itself (``copies``). When the card's steps hold the field
more than once, ``CARD.N.FIELD`` names the N-th (from 1, in the file's order). The text is
changed with tomlkit, so the deck's layout and comments stay as its designer wrote them.

>>> from cardroom.games.baebae.deck import project_decks
>>> text = project_decks()["sample"].read_text(encoding="utf-8")
>>> deck_number(text, "10C.count")
2
>>> deck_number(with_deck_number(text, "10C.count", 4), "10C.count")
4
"""

from __future__ import annotations

from typing import Any

from cardroom.engine import is_whole
from cardroom.games.baebae.deck import DeckError, parse_deck
from cardroom.games.baebae.effects import RANKS, SUITS

__all__ = ["deck_number", "deck_numbers", "number_card", "with_deck_number"]


def _card_tables(document: Any) -> dict[str, Any]:
    """The deck's card tables by key, as the deck numbers them (rank and suit, ``#2``...)."""
    seen: dict[str, int] = {}
    found = {}
    for table in document.get("card", []):
        rank, suit = str(table.get("rank", "")).upper(), str(table.get("suit", "")).upper()
        base = f"{rank}{suit}"
        seen[base] = seen.get(base, 0) + 1
        found[base if seen[base] == 1 else f"{base}#{seen[base]}"] = table
    return found


def _numbers(node: Any, field: str, out: list[tuple[Any, str]]) -> None:
    """Every (table, key) under ``node`` whose ``field`` is a whole number, in the file's order."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == field and is_whole(value):
                out.append((node, key))
            else:
                _numbers(value, field, out)
    elif isinstance(node, list):
        for item in node:
            _numbers(item, field, out)


def _parse_ref(ref: str) -> tuple[str, int | None, str]:
    parts = ref.split(".")
    if len(parts) == 2:
        return parts[0].upper(), None, parts[1]
    if len(parts) == 3 and parts[1].isdigit() and int(parts[1]) >= 1:
        return parts[0].upper(), int(parts[1]), parts[2]
    raise DeckError(f"{ref!r}: a deck's number is CARD.FIELD or CARD.N.FIELD, e.g. 10C.count or 7C.2.count")


def _locate(document: Any, ref: str) -> tuple[Any, str]:
    card, nth, field = _parse_ref(ref)
    tables = _card_tables(document)
    table = tables.get(card)
    if table is None:
        ranks, suits = "".join(RANKS), "".join(SUITS)
        raise DeckError(
            f"{ref!r}: the deck has no card {card} (a card is its rank {ranks[0]}..{ranks[-1]} "
            f"and suit {'/'.join(suits)}, e.g. 10C; {len(tables)} cards in the deck)"
        )
    found: list[tuple[Any, str]] = []
    if field == "copies":
        if nth is not None:
            raise DeckError(f"{ref!r}: copies is the card's own field: {card}.copies")
        return table, "copies"
    _numbers(table.get("action", {}), field, found)
    if not found:
        names: list[tuple[Any, str]] = []
        for key in ("count", "points"):
            _numbers(table.get("action", {}), key, names)
        have = sorted({key for _, key in names} | {"copies"})
        raise DeckError(
            f"{ref!r}: {card}'s action has no number named {field}; its numbers are {', '.join(have)}"
        )
    if nth is None and len(found) > 1:
        raise DeckError(
            f"{ref!r}: {card}'s action has {len(found)} numbers named {field}: name one, "
            f"{card}.1.{field} to {card}.{len(found)}.{field}"
        )
    if nth is not None and nth > len(found):
        raise DeckError(f"{ref!r}: {card}'s action has {len(found)} numbers named {field}")
    return found[(nth or 1) - 1]


def deck_number(text: str, ref: str) -> int:
    """The number ``ref`` names in the deck ``text`` (copies are 1 when not written)."""
    import tomlkit

    table, key = _locate(tomlkit.parse(text), ref)
    return int(table.get(key, 1))


def deck_numbers(text: str) -> dict[str, int]:
    """Every number of the deck ``text`` a ``tune`` may search, by its name: each card's copies
    and every ``count`` and ``points`` of its action (``CARD.N.FIELD`` where one is not alone).

    >>> from cardroom.games.baebae.deck import project_decks
    >>> deck_numbers(project_decks()["sample"].read_text(encoding="utf-8"))["10C.count"]
    2
    """
    import tomlkit

    found: dict[str, int] = {}
    for card, table in _card_tables(tomlkit.parse(text)).items():
        found[f"{card}.copies"] = int(table.get("copies", 1))
        for field in ("count", "points"):
            places: list[tuple[Any, str]] = []
            _numbers(table.get("action", {}), field, places)
            for nth, (node, key) in enumerate(places, 1):
                found[f"{card}.{field}" if len(places) == 1 else f"{card}.{nth}.{field}"] = int(node[key])
    return found


def with_deck_number(text: str, ref: str, value: int) -> str:
    """The deck ``text`` with the number ``ref`` set to ``value``, checked as a deck (a
    :class:`DeckError` says what the value breaks)."""
    import tomlkit

    document = tomlkit.parse(text)
    table, key = _locate(document, ref)
    table[key] = value
    changed = tomlkit.dumps(document)
    parse_deck(changed, f"{ref}={value}")
    return changed


def number_card(text: str, ref: str) -> str:
    """The card of ``ref`` in words: its key and name."""
    import tomlkit

    card, _, _ = _parse_ref(ref)
    table = _card_tables(tomlkit.parse(text)).get(card)
    name = str(table.get("name", "")) if table is not None else ""
    return f"{card} {name}".strip()
