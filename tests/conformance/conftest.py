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

from cardroom.games import GameSpec  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def toy_registered() -> Iterator[GameSpec]:
    with registered(toy_game.SPEC):
        yield toy_game.SPEC
