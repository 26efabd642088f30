"""The native engine's tests: their shared module (native_support) on the path."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def native_engine() -> Iterator[None]:
    """New games run on the native engine for the test (the choice restored after)."""
    from cardroom import native

    native.use_engine("native")
    try:
        yield
    finally:
        native.use_engine(None)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In the conformance suite run again on the native engine, only the cases of the games it
    plays: the others play on Python, as the suite itself already checks them."""
    from cardroom import native

    games = set(native.native_games())
    keep, drop = [], []
    for item in items:
        params = getattr(item, "callspec", None)
        name = params.params.get("name") if params is not None else None
        here = item.path.name == "test_conformance_native.py"
        (drop if here and name is not None and name not in games else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
