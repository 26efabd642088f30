"""BAEBAE's designs as its analysis reads them: the deck a run played, rebuilt through the rules
it recorded (a deck file's text travels with the rules or the manifest), never from the table; a
design as the tables name it to its definition; the cards table's columns of what an action did.
Both the report's sections (:mod:`cardroom.analysis.games.baebae`) and the comparison of variants
(:mod:`cardroom.analysis.games.baebae_compare`) read them."""

from __future__ import annotations

from typing import Any

from cardroom.analysis.folder import Folder, Results
from cardroom.engine import CardroomInputError
from cardroom.games.baebae.deck import CardDef
from cardroom.games.baebae.rules import Rules

__all__ = ["STEPS", "deck_of", "design_map", "unknown_deck"]

STEPS = (
    ("draws_forced", "cards drawn by force"),
    ("skips", "turns skipped"),
    ("penalties", "penalty points"),
    ("reversals", "reversals"),
    ("moves", "cards given or taken"),
)
"""The cards table's counting columns of what an action did, in words."""


def deck_of(results: Folder | Results) -> tuple[CardDef, ...] | None:
    """The designs of the deck the run played, from its recorded rules (``None`` if the deck's
    text is not in the results)."""
    rules: Any = results.rules_record
    if not isinstance(rules, dict):
        return None
    options = dict(rules)
    if results.deck_files and not options.get("deck_files"):
        options["deck_files"] = list(results.deck_files)
    try:
        return Rules.from_dict(options).cards
    except CardroomInputError:
        return None


def unknown_deck(results: Folder | Results) -> str:
    """Why the deck's designs are unknown here, and what to do."""
    return results.deck_note or (
        "The deck's text is not in these results (their rules name a deck file by its digest "
        "only), so the designs' types and marks are unknown here: give the deck file to analyze "
        "with --deck."
    )


def design_map(designs: tuple[CardDef, ...] | None) -> dict[str, CardDef]:
    """A design as the tables name it (its key, or its name) to its definition."""
    found: dict[str, CardDef] = {}
    for card in designs or ():
        found[card.key] = card
        if card.name:
            found.setdefault(card.name, card)
    return found

