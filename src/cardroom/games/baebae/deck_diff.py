"""What changed between two BAEBAE decks, card by card and field by field, in words.

Cards are matched by their key (``10C``, ``6C#2``); a card's fields are compared one by one:
name, types, marks, copies, the action's text and flags, and each step of the action (its
kind, then each of its arguments).

>>> from cardroom.games.baebae.deck import find_deck, parse_deck
>>> old = find_deck("sample")
>>> new = parse_deck(old.text.replace('count = 2}]\\n\\n[[card]]\\nrank = "J"\\nsuit = "C"',
...                                   'count = 4}]\\n\\n[[card]]\\nrank = "J"\\nsuit = "C"', 1), "new.toml")
>>> deck_diff(old.cards, new.cards)
['10C Alderman Gorse: action step 1 (draw): count 2 -> 4']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from cardroom.games.baebae.deck import CardDef
from cardroom.games.baebae.effects import SUITS, CardFilter, Step, Target

__all__ = ["card_words", "deck_diff", "step_words"]


def _filter_words(card_filter: CardFilter | None) -> str:
    return "any card" if card_filter is None else card_filter.describe()


def _target_words(target: Target | None) -> str:
    if target is None:
        return "-"
    if target.holding is not None:
        return f"holding {target.holding.describe()}"
    return target.kind


def _arguments(step: Step) -> dict[str, str]:
    """The arguments a step's kind uses, as words (its nested steps apart)."""
    out: dict[str, str] = {}
    if step.who is not None:
        out["who"] = _target_words(step.who)
    if step.to is not None:
        out["to"] = _target_words(step.to)
    if step.op in ("draw", "discard", "discard_under", "give", "take"):
        out["count"] = str(step.count)
    if step.op in ("discard", "discard_under", "give", "take"):
        out["filter"] = _filter_words(step.filter)
    if step.op == "penalty":
        out["points"] = str(step.points)
    if step.op == "choose":
        out["options"] = ", ".join(o.label for o in step.options)
    return out


def step_words(step: Step) -> str:
    """One step as a short phrase: ``draw(who=next, count=2)``."""
    arguments = ", ".join(f"{k}={v}" for k, v in _arguments(step).items())
    inner = []
    if step.op == "coin":
        inner = [
            f"heads [{'; '.join(map(step_words, step.heads))}]",
            f"tails [{'; '.join(map(step_words, step.tails))}]",
        ]
    for option in step.options:
        inner.append(f"{option.label}: [{'; '.join(map(step_words, option.effects))}]")
    return f"{step.op}({', '.join(x for x in [arguments, *inner] if x)})"


def _steps_diff(old: Sequence[Step], new: Sequence[Step], where: str) -> Iterator[str]:
    for i in range(max(len(old), len(new))):
        at = f"{where} {i + 1}"
        if i >= len(new):
            yield f"{at} removed: {step_words(old[i])}"
        elif i >= len(old):
            yield f"{at} added: {step_words(new[i])}"
        elif old[i] != new[i]:
            a, b = old[i], new[i]
            if a.op != b.op:
                yield f"{at}: {step_words(a)} -> {step_words(b)}"
                continue
            before, after = _arguments(a), _arguments(b)
            changed = [
                f"{k} {before.get(k, '-')} -> {after.get(k, '-')}"
                for k in dict.fromkeys([*before, *after])
                if before.get(k) != after.get(k)
            ]
            if changed:
                yield f"{at} ({a.op}): {'; '.join(changed)}"
            yield from _steps_diff(a.heads, b.heads, f"{at} ({a.op}) heads step")
            yield from _steps_diff(a.tails, b.tails, f"{at} ({a.op}) tails step")
            for k, (x, y) in enumerate(zip(a.options, b.options, strict=False)):
                yield from _steps_diff(x.effects, y.effects, f"{at} ({a.op}) option {k + 1} step")


def _listed(values: frozenset[str]) -> str:
    return ", ".join(sorted(values)) or "none"


def _fields(card: CardDef) -> dict[str, Any]:
    return {
        "name": repr(card.name) if card.name else "none",
        "types": _listed(card.types),
        "marks": _listed(card.marks),
        "copies": str(card.copies),
        "action text": repr(card.text) if card.text else "none",
        "optional": "yes" if card.optional else "no",
        "can win": "yes" if card.can_win else "no",
        "on start": "yes" if card.on_start else "no",
    }


def card_words(card: CardDef) -> str:
    """A card as a diff names it: its key and name (``10C Alderman Gorse``)."""
    return f"{card.key} {card.name}".strip()


def deck_diff(old: Sequence[CardDef], new: Sequence[CardDef]) -> list[str]:
    """Every change from ``old`` to ``new``, one line each: ``10C Alderman Gorse: action step
    1 (draw): count 2 -> 4``; cards added or removed by key; nothing for equal decks."""
    before = {c.key: c for c in old}
    after = {c.key: c for c in new}
    lines = []
    for key in dict.fromkeys([*before, *after]):
        a, b = before.get(key), after.get(key)
        if a is None:
            assert b is not None
            steps = "; ".join(map(step_words, b.effects))
            lines.append(f"{card_words(b)}: added ({SUITS[b.suit]}{' ' + steps if steps else ''})")
            continue
        if b is None:
            lines.append(f"{card_words(a)}: removed")
            continue
        if a == b:
            continue
        changed = [f"{field} {x} -> {y}" for field, x in _fields(a).items() if (y := _fields(b)[field]) != x]
        changed += list(_steps_diff(a.effects, b.effects, "action step"))
        for change in changed:
            lines.append(f"{card_words(a)}: {change}")
    return lines
