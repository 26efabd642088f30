"""Shared test settings: hypothesis profiles, each test starting on the engine the
environment chooses, and this folder on the path (``example_support``: examples/ as modules).

Pick one with ``HYPOTHESIS_PROFILE=<name>`` (default ``dev``):

- ``dev``: random examples each run, failures saved in ``.hypothesis/`` and replayed first.
- ``ci``: the same examples every run (derandomized), nothing saved: a red CI is reproducible.

Tests set their own ``max_examples`` (sized to keep the suite fast); a profile sets the rest.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from cardroom import native

sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile("dev", deadline=None)
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def engine_choice_reset() -> Iterator[None]:
    """A test that chooses an engine (``native.use_engine``) leaves the choice to the next
    test's environment (``CARDROOM_ENGINE``): no test's engine depends on which ran before it
    in its worker."""
    yield
    native.use_engine(None)
