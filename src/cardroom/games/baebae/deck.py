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
import sys
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from cardroom.engine import check_whole, is_whole
from cardroom.games.baebae.effects import (
    MARKS,
    RANKS,
    SUITS,
    DeckError,
    Problems,
    Step,
    parse_rank,
    parse_steps,
    parse_suit,
    shown,
    walk,
)
from cardroom.text import check_text, unsafe_character

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
    "MAX_DECK_NAME",
    "MAX_DESCRIPTION",
    "MAX_TYPE",
    "MAX_TYPES",
    "MAX_CARD_NAME",
    "MAX_TEXT",
    "MAX_PROBLEMS",
]

DECKS_DIR = Path(__file__).parent / "decks"
SAMPLE_DECK = DECKS_DIR / "sample.toml"
MAX_COPIES = 8
MAX_CARDS = 1000
MAX_FILE_BYTES = 1024 * 1024
# Bounds on a deck's texts: a deck file is untrusted (uploaded to the web table), and its
# texts go into every view, message and record of every game played with it.
MAX_DECK_NAME = 60
MAX_DESCRIPTION = 300
MAX_TYPE = 24
MAX_TYPES = 20
MAX_CARD_NAME = 40
MAX_TEXT = 300
MAX_PROBLEMS = 50
"""Problems listed in one error; a file with more says how many more there are."""


# How a card's text may already say each flag (lower case).
_FLAG_PHRASES = {
    "optional": ("optional",),
    "cannot win": ("cannot win", "can't win", "can not win", "cannot be used to win"),
    "on start": ("on start", "starter", "start the round", "starts the round"),
}


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

    @cached_property
    def notes(self) -> tuple[str, ...]:
        """The action's flags in words (``optional``, ``cannot win``, ``on start``) that its
        text does not already say, for the fronts to show beside the text: a text that says
        "Optional: ..." is not followed by "(optional)"."""
        said = self.text.lower()
        on = {"optional": self.optional, "cannot win": not self.can_win, "on start": self.on_start}
        return tuple(note for note, phrases in _FLAG_PHRASES.items()
                     if on[note] and not any(phrase in said for phrase in phrases))

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
    text: str = field(default="", compare=False, repr=False)
    """The TOML text the deck was read from (empty for decks combined): records carry it."""

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
    """Validate a deck from TOML text; ``where`` names it in error messages.

    Raises one :class:`DeckError` listing every problem found in the file.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise DeckError(f"{where}: not valid TOML ({err})") from None
    except ValueError:  # the only other: an integer past Python's limit on digits read as text
        raise DeckError(
            f"{where}: not valid TOML (a number in it is too long; numbers have at most "
            f"{sys.get_int_max_str_digits()} digits)"
        ) from None
    except RecursionError:  # arrays or inline tables nested thousands deep
        raise DeckError(f"{where}: not valid TOML (nested too deeply)") from None
    _check_characters(data, where)
    return replace(_deck_from_data(data, where), text=text)


def _check_characters(data: dict[str, Any], where: str) -> None:
    """Refuse every text of the deck (names, types, actions, field names) that holds a control
    or a bidirectional-override character: a deck's texts reach terminals and pages, where ESC
    sequences, links (OSC 8) or RLO would act. Raises one :class:`DeckError` naming each."""
    problems: list[str] = []

    def look(value: Any, path: str) -> None:
        if len(problems) >= MAX_PROBLEMS:
            return
        if isinstance(value, str):
            try:
                check_text(value, path)
            except ValueError as err:
                problems.append(str(err))
        elif isinstance(value, dict):
            for key, item in value.items():
                look(key, f"{path}: the field name {shown(key)}")
                look(item, f"{path}.{key}" if unsafe_character(key) is None else path)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                look(item, f"{path}[{i}]")

    for key, value in data.items():
        if key == "card" and isinstance(value, list):
            for i, card in enumerate(value):
                look(card, f"{where}: card {i + 1}")
        else:
            look(key, f"{where}: the field name {shown(key)}")
            look(value, f"{where}: {key}" if unsafe_character(key) is None else where)
    if problems:
        raise DeckError(*problems)


def _text(value: Any, most: int, where: str, what: str) -> str:
    """A one-line text of the deck (a name, a type), stripped, of 1 to ``most`` characters."""
    if not isinstance(value, str) or not value.strip() or len(value) > most:
        size = f" ({len(value)} characters)" if isinstance(value, str) and len(value) > most else ""
        raise DeckError(f"{where}: {what}, text of 1 to {most} characters{size}")
    return value.strip()


def _deck_from_data(data: Mapping[str, Any], where: str) -> Deck:
    problems = Problems()
    for key in data:
        if key not in ("name", "description", "types", "card"):
            problems.add(
                f"{where}: unknown field {shown(key)}; a deck has name, description, types and [[card]]"
            )
    name = ""
    with problems.check():
        name = _text(data.get("name"), MAX_DECK_NAME, where, "the deck needs a name (name = \"...\")")
    description = data.get("description", "")
    if not isinstance(description, str) or len(description) > MAX_DESCRIPTION:
        problems.add(f"{where}: description must be text of at most {MAX_DESCRIPTION} characters")
        description = ""
    types_value = data.get("types", [])
    types: set[str] = set()
    if not isinstance(types_value, list):
        problems.add(f"{where}: types must be a list of names, e.g. types = [\"Officer\", \"Celebrity\"]")
    elif len(types_value) > MAX_TYPES:
        problems.add(f"{where}: types lists {len(types_value)} names; a deck declares at most {MAX_TYPES}")
    else:
        for i, value in enumerate(types_value):
            with problems.check():
                types.add(_text(value, MAX_TYPE, f"{where}: types[{i}]", "types must be a list of names"))
    cards_value = data.get("card")
    cards: list[CardDef] = []
    if not isinstance(cards_value, list) or not cards_value:
        problems.add(f"{where}: the deck has no cards; add [[card]] tables")
    elif len(cards_value) > MAX_CARDS:
        problems.add(f"{where}: {len(cards_value)} [[card]] tables; a deck holds at most {MAX_CARDS} cards")
    else:
        for i, table in enumerate(cards_value):
            with problems.check():
                cards.append(_card(table, f"{where}: card {i + 1}", frozenset(types)))
    size = sum(c.copies for c in cards)
    if size > MAX_CARDS:
        problems.add(f"{where}: {size} cards; a deck holds at most {MAX_CARDS}")
    if len(problems.found) > MAX_PROBLEMS:
        more = len(problems.found) - MAX_PROBLEMS
        problems.found[MAX_PROBLEMS:] = [f"{where}: {more} more problems, not listed; mend these first"]
    problems.raise_any()
    numbered = _number_keys(cards)
    digest = "sha256:" + hashlib.sha256(
        json.dumps(_canonical(name, description, frozenset(types), numbered), sort_keys=True).encode()
    ).hexdigest()
    return Deck(name, description, frozenset(types), tuple(numbered), where, digest)


def _card(table: Any, where: str, types: frozenset[str]) -> CardDef:
    """One card design; every field is checked, and every problem is in the one DeckError."""
    if not isinstance(table, Mapping):
        raise DeckError(f"{where}: a card is a table with rank and suit")
    problems = Problems()
    allowed = ("rank", "suit", "name", "types", "marks", "copies", "action")
    for key in table:
        if key not in allowed:
            problems.add(f"{where}: unknown field {shown(key)}; a card has {', '.join(allowed)}")
    rank = suit = -1
    for key in ("rank", "suit"):
        if key not in table:
            problems.add(f"{where}: the field {key!r} is missing")
    with problems.check():
        if "rank" in table:
            rank = parse_rank(table["rank"], f"{where}.rank")
    with problems.check():
        if "suit" in table:
            suit = parse_suit(table["suit"], f"{where}.suit")
    name = table.get("name", "")
    label = where  # the card's rank, suit and name once they are known
    if rank > 0 and suit >= 0:
        label = f"{where} ({RANKS[rank - 1]}{SUITS[suit]}{' ' + shown(name) if name else ''})"
    if not isinstance(name, str) or len(name) > MAX_CARD_NAME:
        size = f" ({len(name)} characters)" if isinstance(name, str) else ""
        problems.add(f"{label}.name: a name is text of at most {MAX_CARD_NAME} characters{size}")
        name = ""
    card_types = table.get("types", [])
    if isinstance(card_types, str):
        card_types = [card_types]
    if not isinstance(card_types, list):
        problems.add(f"{label}.types: a list of type names")
        card_types = []
    for t in card_types:
        if not isinstance(t, str) or t not in types:
            known = ", ".join(sorted(types)) or "none declared"
            problems.add(f"{label}.types: unknown type {shown(t)}; the deck declares {known}")
    marks = table.get("marks", [])
    if isinstance(marks, str):
        marks = [marks]
    if not isinstance(marks, list):
        problems.add(f"{label}.marks: a list of marks ({', '.join(MARKS)})")
        marks = []
    for m in marks:
        if m not in MARKS:
            problems.add(f"{label}.marks: unknown mark {shown(m)}; marks are {', '.join(MARKS)}")
    copies = table.get("copies", 1)
    if not is_whole(copies) or not 1 <= copies <= MAX_COPIES:
        problems.add(f"{label}.copies: a whole number from 1 to {MAX_COPIES}, not {shown(copies)}")
        copies = 1
    action = table.get("action", {})
    if not isinstance(action, Mapping):
        problems.add(f"{label}.action: a table with text, effects and flags")
        action = {}
    action_keys = ("text", "effects", "optional", "can_win", "on_start")
    for key in action:
        if key not in action_keys:
            problems.add(
                f"{label}.action: unknown field {shown(key)}; an action has {', '.join(action_keys)}"
            )
    effects: tuple[Step, ...] = ()
    effects_read = False
    with problems.check():
        effects = parse_steps(action.get("effects", []), f"{label}.action.effects", types)
        effects_read = True
    text = action.get("text", "")
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        size = f" ({len(text)} characters)" if isinstance(text, str) else ""
        problems.add(f"{label}.action.text: text of at most {MAX_TEXT} characters{size}")
    elif action.get("effects") and not text.strip():
        problems.add(f"{label}.action.text: an action needs its text for the players")
    flags = {}
    for flag, default in (("optional", False), ("can_win", True), ("on_start", False)):
        value = action.get(flag, default)
        if not isinstance(value, bool):
            problems.add(f"{label}.action.{flag}: true or false, not {shown(value)}")
            value = default
        flags[flag] = value
    if effects_read and not effects and (flags["optional"] or not flags["can_win"] or flags["on_start"]):
        problems.add(f"{label}.action: flags need effects to apply to")
    # Steps compare by value, so nested steps are found under each top-level step, not by `in`.
    if any(step.op == "declare_suit" for top in effects for step in walk([top])[1:]):
        problems.add(f"{label}.action.effects: declare_suit must be a top-level step")
    problems.raise_any()
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
    check_whole(copies, "decks", 1, MAX_COPIES, error=DeckError)
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
