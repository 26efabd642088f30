"""Web table tests: make ``web_support`` (a live server in a thread, WebSocket clients) importable."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from postgres_support import PostgresCluster, postgres_bin  # noqa: E402
from redis_support import RedisServer, redis_bin  # noqa: E402
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


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """A throwaway PostgreSQL cluster on 127.0.0.1 for the session (Debian's binaries; make
    test installs them). Without them the PostgreSQL cases are skipped, except under CI, where
    they fail: CI must test both databases."""
    bindir = postgres_bin()
    if bindir is None:
        message = "PostgreSQL's binaries are not installed (make test installs Debian's postgresql)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    cluster = PostgresCluster(bindir)
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A throwaway Redis on 127.0.0.1 for the session (Debian's redis-server; make test installs
    it). Skipped without it, except under CI, where it fails."""
    binary = redis_bin()
    if binary is None:
        message = "redis-server is not installed (make test installs Debian's redis-server)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    server = RedisServer(binary)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database's URL: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'cardroom.db'}"
    cluster: PostgresCluster = request.getfixturevalue("postgres")
    return cluster.database()
