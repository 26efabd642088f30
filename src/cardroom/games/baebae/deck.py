"""BAEBAE deck files: TOML, read with ``tomllib`` into frozen, validated card definitions.

A deck file names the deck, declares the character types its cards use, and lists its cards
(``[[card]]``): rank, suit, optional name, types, marks, copies, and an optional action whose
``effects`` are steps of the action language (:mod:`cardroom.games.baebae.effects`). Every
error names the file, the card and the field, and says what is allowed. The format is
documented for deck authors in ``docs/deck-guide.md``.

>>> deck = parse_deck('''
... name = "Tiny"
... types = ["Officer"]
... [[card]]
... rank = "6"
... suit = "C"
... name = "Sergeant Pim"
... types = ["Officer"]
... marks = ["skip"]
... [card.action]
... text = "The next player draws two cards."
... effects = [{step = "draw", who = "next", count = 2}]
... ''', "tiny.toml")
>>> deck.cards[0].key, deck.cards[0].effects[0].op
('6C', 'draw')
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from cardroom.games.baebae.effects import (
    MARKS,
    RANKS,
    SUITS,
    DeckError,
    Step,
    parse_rank,
    parse_steps,
    parse_suit,
    walk,
)

__all__ = [
    "CardDef",
    "Deck",
    "DeckError",
    "parse_deck",
    "load_deck",
    "combine",
    "DECKS_DIR",
    "SAMPLE_DECK",
    "project_decks",
    "find_deck",
    "MAX_COPIES",
    "MAX_CARDS",
]

DECKS_DIR = Path(__file__).parent / "decks"
SAMPLE_DECK = DECKS_DIR / "sample.toml"
MAX_COPIES = 8
MAX_CARDS = 1000
MAX_FILE_BYTES = 1024 * 1024
_MAX_TEXT = 500


@dataclass(frozen=True)
class CardDef:
    """One card design of a deck (a deck may hold several copies of it)."""

    key: str
    """The card's text form in this deck: rank and suit (``6C``), plus ``#2``, ``#3``... for
    further designs of the same rank and suit."""
    rank: int
    suit: int
    name: str
    types: frozenset[str]
    marks: frozenset[str]
    copies: int
    text: str
    optional: bool
    can_win: bool
    on_start: bool
    effects: tuple[Step, ...]

    @cached_property
    def has_action(self) -> bool:
        return bool(self.effects)

    @cached_property
    def declares(self) -> bool:
        """Whether the action names a suit (such a card plays like a wild, RULINGS E4)."""
        return any(step.op == "declare_suit" for step in self.effects)

    @property
    def wild(self) -> bool:
        return "wild" in self.marks

    @property
    def rank_text(self) -> str:
        return RANKS[self.rank - 1]

    @property
    def suit_text(self) -> str:
        return SUITS[self.suit]

    def describe(self) -> str:
        """One line for people: key, name, types, marks."""
        bits = [self.key]
        if self.name:
            bits.append(self.name)
        if self.types:
            bits.append("(" + ", ".join(sorted(self.types)) + ")")
        if self.marks:
            bits.append("[" + ", ".join(sorted(self.marks)) + "]")
        return " ".join(bits)


@dataclass(frozen=True)
class Deck:
    """A validated deck: its name, declared types, card designs and a content hash."""

    name: str
    description: str
    types: frozenset[str]
    cards: tuple[CardDef, ...]
    source: str
    digest: str
    """``sha256:`` of the deck's content (not its formatting), for records."""

    @property
    def size(self) -> int:
        """Number of physical cards (copies counted)."""
        return sum(c.copies for c in self.cards)

    def by_key(self) -> dict[str, CardDef]:
        return {c.key: c for c in self.cards}

    def label(self) -> str:
        return f"{self.name} ({self.digest[:19]})"


def load_deck(path: str | Path) -> Deck:
    """Read and validate a deck file."""
    path = Path(path)
    try:
        if path.exists() and not path.is_file():
            raise DeckError(f"{path}: not a deck file (a TOML file is expected)")
        with path.open("rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)  # bounded: a device or a huge file stops here
        if len(data) > MAX_FILE_BYTES:
            raise DeckError(f"{path}: larger than {MAX_FILE_BYTES // 1024} KiB; is it a deck file?")
        text = data.decode("utf-8")
    except DeckError:
        raise
    except (OSError, UnicodeDecodeError) as err:
        raise DeckError(f"{path}: cannot read the deck file ({err})") from None
    return parse_deck(text, str(path))


def parse_deck(text: str, where: str = "deck") -> Deck:
    """Validate a deck from TOML text; ``where`` names it in error messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise DeckError(f"{where}: not valid TOML ({err})") from None
    except RecursionError:  # arrays or inline tables nested thousands deep
        raise DeckError(f"{where}: not valid TOML (nested too deeply)") from None
    return _deck_from_data(data, where)


def _deck_from_data(data: Mapping[str, Any], where: str) -> Deck:
    for key in data:
        if key not in ("name", "description", "types", "card"):
            raise DeckError(
                f"{where}: unknown field {key!r}; a deck has name, description, types and [[card]]"
            )
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise DeckError(f"{where}: the deck needs a name (name = \"...\")")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise DeckError(f"{where}: description must be text")
    types_value = data.get("types", [])
    if not isinstance(types_value, list) or not all(isinstance(t, str) and t.strip() for t in types_value):
        raise DeckError(f"{where}: types must be a list of names, e.g. types = [\"Officer\", \"Celebrity\"]")
    types = frozenset(types_value)
    cards_value = data.get("card")
    if not isinstance(cards_value, list) or not cards_value:
        raise DeckError(f"{where}: the deck has no cards; add [[card]] tables")
    cards = _number_keys([_card(c, f"{where}: card {i + 1}", types) for i, c in enumerate(cards_value)])
    size = sum(c.copies for c in cards)
    if size > MAX_CARDS:
        raise DeckError(f"{where}: {size} cards; a deck holds at most {MAX_CARDS}")
    digest = "sha256:" + hashlib.sha256(
        json.dumps(_canonical(name, description, types, cards), sort_keys=True).encode()
    ).hexdigest()
    return Deck(name.strip(), description, types, tuple(cards), where, digest)


def _card(table: Any, where: str, types: frozenset[str]) -> CardDef:
    if not isinstance(table, Mapping):
        raise DeckError(f"{where}: a card is a table with rank and suit")
    allowed = ("rank", "suit", "name", "types", "marks", "copies", "action")
    for key in table:
        if key not in allowed:
            raise DeckError(f"{where}: unknown field {key!r}; a card has {', '.join(allowed)}")
    for key in ("rank", "suit"):
        if key not in table:
            raise DeckError(f"{where}: the field {key!r} is missing")
    rank = parse_rank(table["rank"], f"{where}.rank")
    suit = parse_suit(table["suit"], f"{where}.suit")
    name = table.get("name", "")
    label = f"{where} ({RANKS[rank - 1]}{SUITS[suit]}{' ' + repr(name) if name else ''})"
    if not isinstance(name, str) or len(name) > 80:
        raise DeckError(f"{label}.name: a name is text of at most 80 characters")
    card_types = table.get("types", [])
    if isinstance(card_types, str):
        card_types = [card_types]
    if not isinstance(card_types, list):
        raise DeckError(f"{label}.types: a list of type names")
    for t in card_types:
        if not isinstance(t, str) or t not in types:
            known = ", ".join(sorted(types)) or "none declared"
            raise DeckError(f"{label}.types: unknown type {t!r}; the deck declares {known}")
    marks = table.get("marks", [])
    if isinstance(marks, str):
        marks = [marks]
    if not isinstance(marks, list):
        raise DeckError(f"{label}.marks: a list of marks ({', '.join(MARKS)})")
    for m in marks:
        if m not in MARKS:
            raise DeckError(f"{label}.marks: unknown mark {m!r}; marks are {', '.join(MARKS)}")
    copies = table.get("copies", 1)
    if isinstance(copies, bool) or not isinstance(copies, int) or not 1 <= copies <= MAX_COPIES:
        raise DeckError(f"{label}.copies: a whole number from 1 to {MAX_COPIES}, not {copies!r}")
    action = table.get("action", {})
    if not isinstance(action, Mapping):
        raise DeckError(f"{label}.action: a table with text, effects and flags")
    action_keys = ("text", "effects", "optional", "can_win", "on_start")
    for key in action:
        if key not in action_keys:
            raise DeckError(f"{label}.action: unknown field {key!r}; an action has {', '.join(action_keys)}")
    effects = parse_steps(action.get("effects", []), f"{label}.action.effects", types)
    text = action.get("text", "")
    if not isinstance(text, str) or len(text) > _MAX_TEXT:
        raise DeckError(f"{label}.action.text: text of at most {_MAX_TEXT} characters")
    if effects and not text.strip():
        raise DeckError(f"{label}.action.text: an action needs its text for the players")
    flags = {}
    for flag, default in (("optional", False), ("can_win", True), ("on_start", False)):
        value = action.get(flag, default)
        if not isinstance(value, bool):
            raise DeckError(f"{label}.action.{flag}: true or false, not {value!r}")
        flags[flag] = value
    if not effects and (flags["optional"] or not flags["can_win"] or flags["on_start"]):
        raise DeckError(f"{label}.action: flags need effects to apply to")
    # Steps compare by value, so nested steps are found under each top-level step, not by `in`.
    if any(step.op == "declare_suit" for top in effects for step in walk([top])[1:]):
        raise DeckError(f"{label}.action.effects: declare_suit must be a top-level step")
    return CardDef(
        key="", rank=rank, suit=suit, name=name.strip(), types=frozenset(card_types),
        marks=frozenset(marks), copies=copies, text=text.strip(), effects=effects, **flags,
    )


def _number_keys(cards: Iterable[CardDef]) -> list[CardDef]:
    """Give each design its text form: ``6C``, then ``6C#2``... for more designs of 6C."""
    seen: dict[str, int] = {}
    out = []
    for card in cards:
        base = f"{RANKS[card.rank - 1]}{SUITS[card.suit]}"
        seen[base] = seen.get(base, 0) + 1
        key = base if seen[base] == 1 else f"{base}#{seen[base]}"
        out.append(_replace(card, key=key))
    return out


def _replace(card: CardDef, **changes: Any) -> CardDef:
    from dataclasses import replace

    return replace(card, **changes)


def _canonical(name: str, description: str, types: frozenset[str], cards: Sequence[CardDef]) -> Any:
    def conv(value: Any) -> Any:
        if isinstance(value, frozenset):
            return sorted(conv(v) for v in value)
        if isinstance(value, tuple | list):
            return [conv(v) for v in value]
        if hasattr(value, "__dataclass_fields__"):
            return {k: conv(getattr(value, k)) for k in value.__dataclass_fields__}
        return value

    return {"name": name, "description": description, "types": sorted(types), "cards": conv(list(cards))}


def combine(decks: Sequence[Deck], copies: int = 1) -> Deck:
    """Decks and extra cards shuffled together: the first deck ``copies`` times, then the rest.

    Designs keep their text forms where they are unique; a repeated rank and suit from a
    later deck becomes ``6C#2``.
    """
    if not decks:
        raise DeckError("no deck given")
    if isinstance(copies, bool) or not isinstance(copies, int) or not 1 <= copies <= MAX_COPIES:
        raise DeckError(f"decks must be a whole number from 1 to {MAX_COPIES}, not {copies!r}")
    if len(decks) == 1 and copies == 1:
        return decks[0]
    cards: list[CardDef] = [_replace(c, copies=c.copies * copies) for c in decks[0].cards]
    for extra in decks[1:]:
        cards.extend(extra.cards)
    merged: list[CardDef] = []
    for card in cards:  # identical designs from two decks are one design with more copies
        for i, have in enumerate(merged):
            if _replace(have, copies=card.copies, key="") == _replace(card, key=""):
                merged[i] = _replace(have, copies=have.copies + card.copies)
                break
        else:
            merged.append(card)
    types = frozenset().union(*(d.types for d in decks))
    numbered = _number_keys(merged)
    size = sum(c.copies for c in numbered)
    if size > MAX_CARDS:
        raise DeckError(f"the combined deck has {size} cards; at most {MAX_CARDS}")
    name = " + ".join([decks[0].name + (f" x{copies}" if copies > 1 else "")] + [d.name for d in decks[1:]])
    digest = "sha256:" + hashlib.sha256(
        json.dumps(_canonical(name, "", types, numbered), sort_keys=True).encode()
    ).hexdigest()
    source = ", ".join(d.source for d in decks)
    return Deck(name, decks[0].description, types, tuple(numbered), source, digest)


def project_decks() -> dict[str, Path]:
    """The decks that ship with Cardroom, by file stem (``sample``)."""
    return {p.stem: p for p in sorted(DECKS_DIR.glob("*.toml"))}


def find_deck(name_or_path: str) -> Deck:
    """A project deck by name (``sample``) or a deck file by path."""
    shipped = project_decks()
    if name_or_path in shipped:
        return load_deck(shipped[name_or_path])
    path = Path(name_or_path)
    if not path.exists():
        raise DeckError(
            f"no deck {name_or_path!r}: give a deck file or one of the project's decks: "
            f"{', '.join(shipped) or 'none'}"
        )
    return load_deck(path)
