"""Small helpers for text shown to people: counted nouns, and the bound on names.

>>> plural(1, "card"), plural(3, "card"), plural(0, "horn")
('1 card', '3 cards', '0 horns')
>>> plural(2, "penalty point"), plural(2, "match", "matches"), plural(1, "card", one="a")
('2 penalty points', '2 matches', 'a card')
"""

from __future__ import annotations

__all__ = ["MAX_NAME", "plural", "shorten", "clean_name"]

MAX_NAME = 40
"""The longest player name, on every front (the web table's bound too)."""


def plural(count: int, noun: str, nouns: str | None = None, *, one: str | None = None) -> str:
    """``count`` and the noun, singular for one: ``plural(1, "round")`` is ``"1 round"``
    (``one="a"`` writes one as ``a round``); ``nouns`` when adding an s is wrong."""
    if count == 1:
        return f"{one or 1} {noun}"
    return f"{count} {nouns or noun + 's'}"


def shorten(text: str, most: int = 60) -> str:
    """``text`` cut to ``most`` characters, an ellipsis marking the cut, for a message that
    quotes untrusted text: ``shorten("x" * 100, 5)`` is ``"xxxx…"``."""
    return text if len(text) <= most else text[:most - 1] + "…"


def clean_name(name: str) -> str:
    """A player's name: trimmed, printable, 1 to ``MAX_NAME`` characters; else ``ValueError``
    saying what is wrong."""
    text = " ".join(name.split())
    if not text:
        raise ValueError("a name needs at least one visible character")
    if len(text) > MAX_NAME:
        raise ValueError(f"a name is at most {MAX_NAME} characters, not {len(text)}")
    if not text.isprintable():
        raise ValueError("a name may not hold control characters")
    return text
