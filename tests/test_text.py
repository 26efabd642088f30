"""The shared text helpers: counted nouns and the bound on names."""

from __future__ import annotations

import pytest

from cardroom.text import MAX_NAME, clean_name, plural


@pytest.mark.parametrize(("args", "kwargs", "text"), [
    ((0, "card"), {}, "0 cards"), ((1, "card"), {}, "1 card"), ((2, "card"), {}, "2 cards"),
    ((1, "card"), {"one": "a"}, "a card"), ((5, "card"), {"one": "a"}, "5 cards"),
    ((1, "penalty point"), {}, "1 penalty point"), ((3, "match", "matches"), {}, "3 matches"),
])
def test_plural(args: tuple, kwargs: dict, text: str) -> None:
    assert plural(*args, **kwargs) == text


def test_names_are_trimmed_printable_and_bounded() -> None:
    assert clean_name("  Ada   Lovelace ") == "Ada Lovelace"
    assert clean_name("x" * MAX_NAME) == "x" * MAX_NAME
    for bad, words in (("", "visible"), ("   ", "visible"), ("x" * (MAX_NAME + 1), f"at most {MAX_NAME}"),
                       ("Ada\x1b[2J", "control")):
        with pytest.raises(ValueError, match=words):
            clean_name(bad)
