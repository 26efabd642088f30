"""Which engine runs: the compiled modules (mypyc) or the plain Python ones.

``pip install`` compiles :data:`MODULES` where a C compiler is at hand (see ``setup.py``); the
extension files then sit beside the ``.py`` files and Python imports them first. Setting
``CARDROOM_PURE=1`` in the environment makes every ``cardroom`` module load from its ``.py``
source instead, for comparing the two or working around a broken build. This module is never
compiled itself and imports only the standard library (``setup.py`` reads :data:`MODULES`).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

__all__ = ["MODULES", "PURE_VARIABLE", "engine_build", "pure_requested", "use_pure_modules"]

PURE_VARIABLE = "CARDROOM_PURE"

MODULES: tuple[str, ...] = (
    "cardroom.cards",
    "cardroom.games.baha.cards",
    "cardroom.games.baha.actions",
    "cardroom.games.baha.deal",
    "cardroom.games.baha.determinize",
    "cardroom.games.baha.state",
    "cardroom.games.baha.state_base",
    "cardroom.games.baha.views",
    "cardroom.games.baebae.actions",
    "cardroom.games.baebae.determinize",
    "cardroom.games.baebae.interpreter",
    "cardroom.games.baebae.state",
    "cardroom.games.baebae.state_base",
    "cardroom.games.baebae.views",
    "cardroom.agents.ismcts",
)
"""The modules compiled when the package is built: card sets, both games' states, codecs,
views, deals, determinization and quiet playouts, BAEBAE's card-action interpreter, the search.
Left plain: ``engine`` (its runtime-checkable Protocols cannot be native classes), the rules
dataclasses (they extend the plain ``engine.NamedOptions``; read once per game) and BAEBAE's
``deal`` and ``effects`` (a ``Deal`` is filled in by hand, and a native class would refuse a
wrong field with a bare TypeError before the deal's own checks; the effects are a deck's data,
frozen dataclasses that must pickle with the rules; both are read once per game)."""


def pure_requested() -> bool:
    """Whether the environment asks for the plain Python engine (``CARDROOM_PURE`` set, not 0)."""
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


class _SourceOnly:
    """A meta-path finder that finds ``cardroom`` modules as ``.py`` source only, so compiled
    extension files beside them are passed over."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith("cardroom.") or path is None:
            return None
        for entry in path:
            finder = importlib.machinery.FileFinder(
                entry, (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
            )
            spec = finder.find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


def use_pure_modules() -> None:
    """Load every ``cardroom`` module imported from now on from its ``.py`` source."""
    if not any(isinstance(f, _SourceOnly) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceOnly())


def engine_build() -> str:
    """``"compiled"`` when every module of :data:`MODULES` runs compiled, ``"pure"`` when none
    does (not built, or ``CARDROOM_PURE`` set), else ``"partly compiled (k of n)"``."""
    compiled = sum(
        isinstance(importlib.import_module(name).__loader__, importlib.machinery.ExtensionFileLoader)
        for name in MODULES
    )
    if compiled == len(MODULES):
        return "compiled"
    if compiled == 0:
        return "pure"
    return f"partly compiled ({compiled} of {len(MODULES)})"
