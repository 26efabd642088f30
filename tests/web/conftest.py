"""Web table tests: make ``web_support`` (a live server in a thread, WebSocket clients) importable."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from web_support import LiveServer  # noqa: E402


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """A web table on 127.0.0.1 (a free port) over a SQLite file, bots without delay."""
    live = LiveServer(tmp_path / "data")
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for a module's tests that leave no table behind."""
    live = LiveServer(tmp_path_factory.mktemp("web") / "data")
    try:
        yield live
    finally:
        live.stop()
