"""The conformance suite: every registered game, and the toy game only the tests register.

The toy is in the registry while a module of this folder runs and gone afterwards, so tests
elsewhere see only the games the package installs.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import toy_game  # noqa: E402
from conformance_support import registered  # noqa: E402

from cardroom import native  # noqa: E402
from cardroom.games import GameSpec  # noqa: E402


@pytest.fixture(autouse=True)
def reference_engine() -> Iterator[None]:
    """Here every game runs on the Python engine, the reference (native is the default where
    built); tests/native/test_conformance_native.py runs the same suite on the native one."""
    native.use_engine("python")
    try:
        yield
    finally:
        native.use_engine(None)


@pytest.fixture(scope="module", autouse=True)
def toy_registered() -> Iterator[GameSpec]:
    with registered(toy_game.SPEC):
        yield toy_game.SPEC
