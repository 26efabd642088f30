"""BAEBAE's decks as the fronts reach them: its spec's ``decks`` (a
:class:`cardroom.games.contracts.DeckSupport`).

The web table, ``cardroom deck`` and the command line's ``--deck`` list, find, parse and
describe decks only through this object, so no front imports BAEBAE's deck module.

>>> DECKS.default, DECKS.names()
('sample', ['sample'])
>>> info = DECKS.find("sample")
>>> info.title, info.size, info.players
('Cardroom Sample Deck', 52, (2, 10))
>>> DECKS.rows("sample")[0]["key"]
'AC'
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardroom.engine import CardroomInputError, Rules
from cardroom.games.baebae.deck import CardDef, Deck, DeckError, combine, find_deck, parse_deck, project_decks
from cardroom.games.baebae.deck_numbers import deck_number, deck_numbers, number_card, with_deck_number
from cardroom.games.baebae.effects import SUIT_SYMBOLS
from cardroom.games.baebae.rules import MIN_PLAYERS, hand_size_for, players_for, read_decks
from cardroom.games.baebae.rules import Rules as BaebaeRules
from cardroom.games.contracts import DeckInfo
from cardroom.text import plural

__all__ = ["DECKS", "BaebaeDecks", "card_rows"]


def card_rows(cards: Sequence[CardDef]) -> list[dict[str, Any]]:
    """Each card design as a JSON-ready row: the one shape of a design for every front (the
    web table's ``welcome``, ``cardroom deck show --json``)."""
    return [
        {
            "key": c.key, "rank": c.rank_text, "suit": c.suit_text, "symbol": SUIT_SYMBOLS[c.suit],
            "red": c.suit in (1, 2), "name": c.name, "types": sorted(c.types), "marks": sorted(c.marks),
            "copies": c.copies, "text": c.text, "optional": c.optional, "can_win": c.can_win,
            "on_start": c.on_start, "notes": list(c.notes), "steps": [s.op for s in c.effects],
        }
        for c in cards
    ]


def _info(name: str, deck: Deck) -> DeckInfo:
    players = players_for(deck.size)
    unplayable = None
    if not players:
        unplayable = (
            f"{name}: too few cards for any game ({plural(deck.size, 'card')}; {MIN_PLAYERS} players need "
            f"{MIN_PLAYERS * hand_size_for(MIN_PLAYERS) + 1} with the default hand size: every hand "
            f"and a starter card); to add these cards to another deck, check them together: "
            f"base.toml,{name}"
        )
    return DeckInfo(
        name=name, title=deck.name, size=deck.size, digest=deck.digest, description=deck.description,
        designs=len(deck.cards), actions=sum(1 for c in deck.cards if c.has_action),
        types=tuple(sorted(deck.types)), players=(players[0], players[-1]) if players else None,
        unplayable=unplayable,
    )


class BaebaeDecks:
    """BAEBAE's :class:`~cardroom.games.contracts.DeckSupport`."""

    error: type[CardroomInputError] = DeckError
    default = "sample"

    def __reduce__(self) -> str:
        """The one instance, :data:`DECKS`, pickles by name (a spec holds it and must pickle)."""
        return "DECKS"

    def names(self) -> list[str]:
        return list(project_decks())

    def _deck(self, name: str) -> Deck:
        """A deck file or project deck; several joined by commas are checked shuffled together."""
        parts: list[Deck] = []
        problems: list[str] = []
        for part in (p.strip() for p in name.split(",")):
            try:
                parts.append(find_deck(part))
            except DeckError as err:
                problems.extend(err.problems)
        if problems:
            raise DeckError(*problems)
        return combine(parts)

    def find(self, name: str) -> DeckInfo:
        return _info(name, self._deck(name))

    def parse(self, text: str, where: str) -> DeckInfo:
        deck = parse_deck(text, where)
        return _info(deck.digest, deck)

    def rows(self, name: str) -> list[dict[str, Any]]:
        return card_rows(self._deck(name).cards)

    def design_rows(self, rules: Rules) -> list[dict[str, Any]]:
        assert isinstance(rules, BaebaeRules)
        return card_rows(rules.cards)

    def read(self, spec: str, folder: Path | None) -> dict[str, Any]:
        return read_decks(spec, folder)

    def path(self, name: str) -> Path | None:
        return project_decks().get(name)

    def number(self, text: str, ref: str) -> int:
        return deck_number(text, ref)

    def with_number(self, text: str, ref: str, value: int) -> str:
        return with_deck_number(text, ref, value)

    def number_card(self, text: str, ref: str) -> str:
        return number_card(text, ref)

    def numbers(self, text: str) -> dict[str, int]:
        return deck_numbers(text)


DECKS = BaebaeDecks()
"""BAEBAE's decks (its spec's ``decks``)."""
