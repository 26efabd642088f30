"""The conformance suite (tests/conformance/test_protocol.py) run again on the native engine:
the same properties, checked through the protocol alone, of Baha on NativeBahaState and BAEBAE on
NativeBaebaeState (the other games are left to the suite itself, see conftest.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "conformance"))

from native_support import needs_native  # noqa: E402
from test_protocol import *  # noqa: E402,F403  (the suite's tests, collected here again)

pytestmark = [needs_native, pytest.mark.usefixtures("native_engine")]




def test_the_suite_runs_on_the_native_engine() -> None:
    from cardroom.games.baha import Rules
    from cardroom.games.baha.native import NativeBahaState

    assert isinstance(Rules().new_game(3), NativeBahaState)


def test_the_suite_runs_baebae_on_the_native_engine() -> None:
    from cardroom.games.baebae import Rules
    from cardroom.games.baebae.native import NativeBaebaeState

    assert isinstance(Rules().new_game(3), NativeBaebaeState)
