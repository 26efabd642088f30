"""Every example in the package's docstrings runs, and a wrong one fails the run.

The examples are run here, one test per module, rather than with ``--doctest-modules``: the
tests import with ``--import-mode=importlib`` and are spread over xdist workers by file, and a
test of our own finds the modules by name (``pkgutil``) the same way under either.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import sys
import types

import pytest

import cardroom

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def modules() -> list[str]:
    """Every module of the package, by name."""
    found = [cardroom.__name__]
    for info in pkgutil.walk_packages(cardroom.__path__, prefix=f"{cardroom.__name__}."):
        found.append(info.name)
    return sorted(found)


def run_examples(module: types.ModuleType) -> doctest.TestResults:
    """Run a module's examples; the failures are printed as doctest reports them."""
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in finder.find(module, module.__name__):
        runner.run(test, out=sys.stdout.write)
    return runner.summarize(verbose=False)


MODULES = modules()


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_a_module_are_right(name: str) -> None:
    results = run_examples(importlib.import_module(name))
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples of {name} failed (above)"


def test_the_modules_with_examples_are_found() -> None:
    with_examples = [n for n in MODULES if run_examples(importlib.import_module(n)).attempted]
    for name in ("cardroom.engine", "cardroom.record", "cardroom.games", "cardroom.games.baebae"):
        assert name in with_examples


def test_a_wrong_example_fails() -> None:
    module = types.ModuleType("cardroom_wrong_example")
    module.__doc__ = ">>> 1 + 1\n3\n"
    results = run_examples(module)
    assert (results.failed, results.attempted) == (1, 1)
