"""The examples/ scripts loaded as modules, for the tests that run them."""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def load_example(filename: str) -> types.ModuleType:
    """examples/FILENAME as a module registered under its name (its dataclasses look the module up)."""
    path = EXAMPLES / filename
    spec = importlib.util.spec_from_file_location(f"cardroom_example_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
