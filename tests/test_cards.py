"""The generic card sets both games share (cardroom.cards): bitmasks of any width."""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import bits_of, count, lowest, mask_of, select

SRC = Path(__file__).resolve().parents[1] / "src" / "cardroom"


def test_known_answers():
    assert bits_of(0) == [] and lowest(0) == -1 and count(0) == 0
    assert bits_of(mask_of([200, 3, 64])) == [3, 64, 200]  # wider than Baha's 52 cards
    assert lowest(mask_of([9, 7])) == 7


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(min_value=0, max_value=300)))
def test_bits_of_is_the_sorted_set(cards):
    mask = mask_of(cards)
    assert bits_of(mask) == sorted(cards)
    assert count(mask) == len(cards)
    assert mask_of(bits_of(mask)) == mask
    assert lowest(mask) == (min(cards) if cards else -1)
    assert select(mask, tuple(f"c{k}" for k in range(301))) == [f"c{k}" for k in sorted(cards)]


def test_the_shared_module_names_no_game():
    """Baha's deck lives in its package; the shared module knows only sets of small ints."""
    tree = ast.parse((SRC / "cards.py").read_text())
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
        n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    assert not [n for n in names if "baha" in n.lower() or "colour" in n.lower() or "horn" in n.lower()]


def test_baebae_writes_no_bit_loop_of_its_own():
    """BAEBAE walks its card sets with the shared helpers, not ``low = mask & -mask`` again."""
    loops = [f"{path.name}:{node.lineno}" for path in sorted((SRC / "games/baebae").glob("*.py"))
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.While) and "& -" in ast.unparse(node)]
    assert loops == []
