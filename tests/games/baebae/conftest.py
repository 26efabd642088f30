"""BAEBAE tests: make ``baebae_support`` (hand-made decks, deals, the log referee) importable,
and run them on the Python engine, the reference whose internals they reach into (the native
engine is held to it by tests/native/test_games_differential.py)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from cardroom import native  # noqa: E402


@pytest.fixture(autouse=True)
def reference_engine() -> Iterator[None]:
    native.use_engine("python")
    try:
        yield
    finally:
        native.use_engine(None)
