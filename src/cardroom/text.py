"""Small helpers for text shown to people: counted nouns, and the bound on names.

>>> plural(1, "card"), plural(3, "card"), plural(0, "horn")
('1 card', '3 cards', '0 horns')
>>> plural(2, "penalty point"), plural(2, "match", "matches"), plural(1, "card", one="a")
('2 penalty points', '2 matches', 'a card')
"""

from __future__ import annotations

import unicodedata

__all__ = ["MAX_NAME", "plural", "shorten", "clean_name", "unsafe_character", "check_text", "terminal_safe"]

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
    bad = unsafe_character(text, lines=False)
    if bad is not None or not text.isprintable():
        what = _describe(bad) if bad is not None else "a character that cannot be printed"
        raise ValueError(f"a name may not hold control characters (nor bidirectional overrides); this "
                         f"one holds {what}")
    return text


_JOINERS = frozenset("\u200c\u200d")
"""Format characters that only join or part letters (emoji sequences, some scripts): allowed."""


def unsafe_character(text: str, lines: bool = True) -> str | None:
    r"""The first character of ``text`` that must not reach a terminal or a page: a control
    character (ESC, NUL, BEL...; line feeds and tabs are allowed when ``lines``) or a format
    character such as a bidirectional override (RLO, LRI...), which reorders what follows it.

    >>> unsafe_character("Ada"), unsafe_character("\x1b[31mred"), unsafe_character("abc\u202e")
    (None, '\x1b', '\u202e')
    """
    for char in text:
        if char in "\n\t" and lines:
            continue
        kind = unicodedata.category(char)
        if kind in ("Cc", "Cs") or (kind == "Cf" and char not in _JOINERS):
            return char
    return None


def check_text(text: str, where: str, lines: bool = True) -> None:
    """Raise ``ValueError`` if ``text`` holds a character :func:`unsafe_character` refuses,
    saying which and where."""
    bad = unsafe_character(text, lines)
    if bad is not None:
        raise ValueError(f"{where} holds {_describe(bad)} at character {text.index(bad) + 1}; texts may "
                         "not hold control or bidirectional-override characters")


def terminal_safe(text: str) -> str:
    r"""``text`` with every character :func:`unsafe_character` refuses written as its escape,
    so what is printed cannot move the cursor, open a link or reorder a line.

    >>> terminal_safe("\x1b]8;;http://x\x07link\u202e")
    '\\x1b]8;;http://x\\x07link\\u202e'
    """
    if unsafe_character(text, lines=False) is None:
        return text
    return "".join(_escape(c) if unsafe_character(c, lines=False) else c for c in text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _describe(char: str) -> str:
    name = unicodedata.name(char, "")
    if not name and ord(char) < 0x20:
        name = {0x00: "NUL", 0x07: "BEL", 0x1B: "ESC"}.get(ord(char), "a control character")
    return f"U+{ord(char):04X}" + (f" ({name})" if name else "")
