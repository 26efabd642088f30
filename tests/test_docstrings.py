"""Docstrings that say what the code does: none displaced, none promising what is elsewhere."""

from __future__ import annotations

import ast
from pathlib import Path

import cardroom.web.views

SRC = Path(__file__).resolve().parents[1] / "src" / "cardroom"


def test_no_constant_docstring_is_displaced() -> None:
    """A constant's docstring follows it: two strings in a row at a module's top level mean one
    of them documents the wrong name (as ``MAX_OPEN_TABLES``'s once sat under ``WAITING_TTL``)."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        body = ast.parse(path.read_text()).body
        for first, second in zip(body, body[1:], strict=False):
            if all(isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)
                   for s in (first, second)):
                found.append(f"{path.relative_to(SRC)}:{second.lineno}")
    assert found == []


def test_the_web_views_say_where_the_public_keys_are() -> None:
    doc = cardroom.web.views.__doc__ or ""
    assert "listed here" not in doc or hasattr(cardroom.web.views, "PUBLIC_KEYS")
    assert "PUBLIC_KEYS" in doc and "games/<game>/views.py" in doc
