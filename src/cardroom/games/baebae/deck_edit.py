r"""A BAEBAE deck as a form a person edits, and back.

A deck's *form* is plain JSON: the deck's name, description and types, then each card's rank,
suit, name, types, marks, copies and action (its text, its flags and its steps, each step its
kind and its other fields written as TOML, ``who = "next", count = 2``). :func:`form_of` reads
a deck file into a form, :func:`deck_text` writes a form as a deck file, and the deck file is
then checked by :func:`~cardroom.games.baebae.deck.parse_deck`: the form is never trusted, and
what is wrong is said in the deck language's own words, by card and field
(:func:`where_problem` finds the field a problem is about). :func:`deck_diff` says what changed
between two versions of a deck, per card and field. :data:`EDITING` is all of it as BAEBAE's
:class:`~cardroom.games.contracts.DeckEditing`, the spec's ``deck_editing``, through which the
designer's studio of the web table (``cardroom.web.studio``) edits BAEBAE decks.

>>> before = form_of('name = "Tiny"\n[[card]]\nrank = "6"\nsuit = "C"\n', "tiny.toml")
>>> before["cards"][0]["rank"], before["cards"][0]["action"]["steps"]
('6', [])
>>> after = form_of(deck_text(before), "tiny.toml")
>>> after["cards"][0]["action"] = {"text": "The next player draws two cards.", "optional": False,
...     "can_win": True, "on_start": False, "steps": [{"step": "draw", "fields": 'who = "next", count = 2'}]}
>>> for change in deck_diff(before, after):
...     print(change["words"])
6C: action text: (none) -> "The next player draws two cards."
6C: steps: (none) -> draw (who = "next", count = 2)
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

from cardroom.engine import CardroomInputError
from cardroom.games.baebae.deck import (
    MAX_CARD_NAME,
    MAX_CARDS,
    MAX_DECK_NAME,
    MAX_DESCRIPTION,
    MAX_TEXT,
    MAX_TYPE,
    MAX_TYPES,
    DeckError,
    find_deck,
    parse_deck,
    project_decks,
)
from cardroom.games.baebae.deck_support import card_rows
from cardroom.games.baebae.effects import MARKS, RANKS, STEPS, SUITS, parse_rank, parse_suit
from cardroom.games.contracts import DeckLimits, EditedDeck

__all__ = ["form_of", "deck_text", "checked", "deck_diff", "where_problem", "toml_value", "STEP_KINDS",
           "FLAGS", "EDITING", "DeckEditor"]

STEP_KINDS = tuple(STEPS)
"""The steps of the action language, in the order the guide lists them."""
FLAGS = (("optional", False), ("can_win", True), ("on_start", False))
"""An action's flags and their defaults."""

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_value(value: Any) -> str:
    """A value as TOML writes it inline (strings as JSON escapes them, which TOML reads alike).

    >>> toml_value({"step": "draw", "who": "next", "count": 2, "filter": {"ranks": ["J", "Q"]}})
    '{step = "draw", who = "next", count = 2, filter = {ranks = ["J", "Q"]}}'
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML for {type(value).__name__}")


def _key(key: Any) -> str:
    text = str(key)
    return text if _BARE_KEY.fullmatch(text) else json.dumps(text, ensure_ascii=False)


def _fields_text(step: Mapping[str, Any]) -> str:
    """A step's fields but its kind, as TOML inside an inline table: ``who = "next", count = 2``."""
    return toml_value({k: v for k, v in step.items() if k != "step"})[1:-1]


def _as_list(value: Any) -> list[Any]:
    return [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []


def form_of(text: str, where: str) -> dict[str, Any]:
    """The form of a deck file, which must be valid (else :class:`DeckError`, in its words)."""
    parse_deck(text, where)
    data = tomllib.loads(text)
    cards = []
    for table in data["card"]:
        action = table.get("action", {})
        cards.append({
            "rank": str(table["rank"]).strip().upper() if isinstance(table["rank"], str)
            else RANKS[table["rank"] - 1],
            "suit": SUITS[parse_suit(table["suit"], where)],
            "name": table.get("name", ""),
            "types": _as_list(table.get("types", [])),
            "marks": _as_list(table.get("marks", [])),
            "copies": table.get("copies", 1),
            "action": {
                "text": action.get("text", ""),
                **{flag: action.get(flag, default) for flag, default in FLAGS},
                "steps": [{"step": s["step"], "fields": _fields_text(s)} for s in action.get("effects", [])],
            },
        })
    return {"name": data["name"], "description": data.get("description", ""),
            "types": list(data.get("types", [])), "cards": cards}


def _card_label(i: int, card: Mapping[str, Any]) -> str:
    return f"card {i + 1} ({card.get('rank', '?')}{card.get('suit', '?')})"


def deck_text(form: Mapping[str, Any], where: str = "the deck") -> str:
    """The deck file of a form. A step whose fields are not TOML is refused here (a
    :class:`DeckError`, by card and step); everything else is the deck checker's to judge."""
    text, problems = _written(form, where)
    if problems:
        raise DeckError(*problems)
    return text


def _written(form: Mapping[str, Any], where: str) -> tuple[str, list[str]]:
    """The deck file of a form, leaving out the steps whose fields are not TOML, and those problems."""
    problems: list[str] = []
    lines = [f"name = {toml_value(form.get('name', ''))}"]
    if form.get("description"):
        lines.append(f"description = {toml_value(form['description'])}")
    lines.append(f"types = {toml_value(list(form.get('types', [])))}")
    for i, card in enumerate(form.get("cards", [])):
        lines += ["", "[[card]]", f"rank = {toml_value(card.get('rank', ''))}",
                  f"suit = {toml_value(card.get('suit', ''))}"]
        if card.get("name"):
            lines.append(f"name = {toml_value(card['name'])}")
        for field in ("types", "marks"):
            if card.get(field):
                lines.append(f"{field} = {toml_value(list(card[field]))}")
        if card.get("copies", 1) != 1:
            lines.append(f"copies = {toml_value(card['copies'])}")
        action = card.get("action") or {}
        steps = []
        for j, step in enumerate(action.get("steps", [])):
            here = f"{where}: {_card_label(i, card)}.action.effects[{j}]"
            fields = str(step.get("fields", "")).strip()
            try:
                if "\n" in fields or "\r" in fields:
                    raise ValueError("a step's fields are one line")
                read = tomllib.loads(f"fields = {{{fields}}}")
                if set(read) != {"fields"}:
                    raise ValueError("a step's fields are one inline table")
            except (ValueError, RecursionError) as err:
                problems.append(f"{here}: the fields are not TOML ({err}); write them as "
                                f"who = \"next\", count = 2")
                continue
            if "step" in read["fields"]:
                problems.append(f"{here}: choose the step in its list; its fields do not name it again")
                continue
            steps.append({"step": step.get("step", ""), **read["fields"]})
        flags = {flag: action.get(flag, default) for flag, default in FLAGS}
        if action.get("text") or steps or any(flags[f] != d for f, d in FLAGS):
            lines.append("[card.action]")
            lines.append(f"text = {toml_value(action.get('text', ''))}")
            lines += [f"{flag} = {toml_value(flags[flag])}" for flag, default in FLAGS
                      if flags[flag] != default]
            if steps:
                lines.append(f"effects = {toml_value(steps)}")
    return "\n".join(lines) + "\n", problems


def checked(form: Mapping[str, Any], where: str = "the deck") -> str:
    """The deck file of ``form`` once the deck checker accepts it, else one :class:`DeckError`
    with every problem: the steps' fields that are not TOML and the checker's own."""
    text, problems = _written(form, where)
    try:
        parse_deck(text, where)
    except DeckError as err:
        problems += err.problems
    if problems:
        raise DeckError(*problems)
    return text


_PROBLEM = re.compile(r"card (\d+)(?: \(.*?\))?((?:\.[a-z_]+|\[\d+\])*): ")


def where_problem(problem: str) -> dict[str, Any]:
    """The field a problem of the deck checker is about: ``card`` (from 0, or None for the deck),
    ``field`` (``name``, ``types``, ``action.text``, ``steps``...), ``step`` (from 0, or None).

    >>> found = where_problem("the deck: card 3 (3C 'Hobb').action.effects[1].count: a whole number")
    >>> found["card"], found["field"], found["step"]
    (2, 'steps', 1)
    >>> where_problem("the deck: types[0]: types must be a list of names")["field"]
    'types'
    """
    found = _PROBLEM.search(problem)
    if found is None:
        head = problem.partition(": ")[2]
        for named in ("name", "description", "types"):
            if head.startswith(named) or f"({named} =" in head:
                return {"card": None, "field": named, "step": None, "message": problem}
        return {"card": None, "field": None, "step": None, "message": problem}
    path = found.group(2)
    step = re.match(r"\.action\.effects\[(\d+)\]", path)
    if step is not None:
        return {"card": int(found.group(1)) - 1, "field": "steps", "step": int(step.group(1)),
                "message": problem}
    parts = [p for p in re.split(r"[.\[]", path) if p]
    field: str | None = ".".join(parts[:2]) if parts[:1] == ["action"] else (parts[0] if parts else None)
    if field == "action.effects":
        field = "steps"
    return {"card": int(found.group(1)) - 1, "field": field, "step": None, "message": problem}


# -- what changed --------------------------------------------------------------------------


def _key_of(card: Mapping[str, Any]) -> str:
    return f"{RANKS[parse_rank(card['rank'], 'rank') - 1]}{SUITS[parse_suit(card['suit'], 'suit')]}"


def _keyed(form: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The cards of a valid form by their text form (``6C``, then ``6C#2``), as the deck numbers them."""
    seen: dict[str, int] = {}
    out = {}
    for card in form["cards"]:
        base = _key_of(card)
        seen[base] = seen.get(base, 0) + 1
        out[base if seen[base] == 1 else f"{base}#{seen[base]}"] = card
    return out


def _shown_value(field: str, value: Any) -> str:
    if field == "steps":
        steps = [f"{s['step']} ({s['fields']})" if s["fields"] else s["step"] for s in value]
        return "; ".join(steps) or "(none)"
    if isinstance(value, list):
        return ", ".join(sorted(value)) or "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value == "":
        return "(none)"
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)


_CARD_FIELDS = (("name", "name"), ("types", "types"), ("marks", "marks"), ("copies", "copies"),
                ("action.text", "action text"), ("action.optional", "optional"),
                ("action.can_win", "can win"), ("action.on_start", "on start"), ("steps", "steps"))


def _field(card: Mapping[str, Any], field: str) -> Any:
    action = card.get("action") or {}
    if field == "steps":
        return [{"step": s["step"], "fields": s["fields"].strip()} for s in action.get("steps", [])]
    if field.startswith("action."):
        name = field.removeprefix("action.")
        return action.get(name, dict(FLAGS).get(name, ""))
    value = card.get(field, 1 if field == "copies" else "")
    return sorted(value) if isinstance(value, list) else value


def deck_diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What changed from one valid form to another, a line per card and field, in words:
    ``{"card", "field", "before", "after", "words"}`` (``card`` None for the deck's own fields)."""
    changes: list[dict[str, Any]] = []

    def add(card: str | None, field: str, old: Any, new: Any, label: str) -> None:
        was, now = _shown_value(field, old), _shown_value(field, new)
        words = f"{label}: {was} -> {now}"
        changes.append({"card": card, "field": field, "before": was, "after": now, "words": words})

    for field in ("name", "description", "types"):
        old, new = before.get(field, ""), after.get(field, "")
        if (sorted(old) if field == "types" else old) != (sorted(new) if field == "types" else new):
            add(None, field, old, new, f"deck {field}")
    old_cards, new_cards = _keyed(before), _keyed(after)
    for key, card in new_cards.items():
        title = f"{key} {card['name']}".strip()
        if key not in old_cards:
            changes.append({"card": key, "field": "card", "before": "(none)", "after": title,
                            "words": f"{title}: card added"})
            continue
        for field, label in _CARD_FIELDS:
            old, new = _field(old_cards[key], field), _field(card, field)
            if old != new:
                add(key, field, old, new, f"{title}: {label}")
    for key, card in old_cards.items():
        if key not in new_cards:
            title = f"{key} {card['name']}".strip()
            changes.append({"card": key, "field": "card", "before": title, "after": "(none)",
                            "words": f"{title}: card removed"})
    return changes



# -- the spec's deck_editing -----------------------------------------------------------------


class DeckEditor:
    """BAEBAE's :class:`~cardroom.games.contracts.DeckEditing`: this module's forms over the
    deck checker (:mod:`cardroom.games.baebae.deck`) and the project's decks.

    >>> deck = EDITING.parse(EDITING.project_text("sample"), "sample.toml")
    >>> deck.name, deck.size, deck.digest.startswith("sha256:"), deck.cards[0]["key"]
    ('Cardroom Sample Deck', 52, True, 'AC')
    """

    error: type[CardroomInputError] = DeckError
    limits = DeckLimits(cards=MAX_CARDS, name=MAX_DECK_NAME, description=MAX_DESCRIPTION,
                        card_name=MAX_CARD_NAME, text=MAX_TEXT, type=MAX_TYPE, types=MAX_TYPES)
    step_kinds = STEP_KINDS
    marks = MARKS

    def project_decks(self) -> list[str]:
        return list(project_decks())

    def project_text(self, name: str) -> str:
        return find_deck(name).text

    def form_of(self, text: str, where: str) -> dict[str, Any]:
        return form_of(text, where)

    def checked(self, form: Mapping[str, Any], where: str = "the deck") -> str:
        return checked(form, where)

    def parse(self, text: str, where: str) -> EditedDeck:
        deck = parse_deck(text, where)
        return EditedDeck(name=deck.name, digest=deck.digest, size=deck.size, cards=card_rows(deck.cards))

    def deck_diff(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[dict[str, Any]]:
        return deck_diff(before, after)

    def where_problems(self, error: Exception) -> list[dict[str, Any]]:
        problems = error.problems if isinstance(error, DeckError) else (str(error),)
        return [where_problem(p) for p in problems]


EDITING = DeckEditor()
"""BAEBAE's deck editing (the spec's ``deck_editing``)."""
