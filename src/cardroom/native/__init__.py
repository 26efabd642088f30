"""Cardroom's native engine: Baha's rules and batches of games in C++, behind the State protocol.

The C++ sources are in the project's ``native/`` folder; ``pip install`` builds them into
``cardroom.native._core`` where a C++17 compiler is at hand (``setup.py``), and says in one line
when it cannot. The Python engine stays the reference and the fallback: the native one deals
the same cards from the same seed, makes the same moves legal, writes the same events and
scores the same (``tests/native/`` plays both side by side), so a record replays identically
on either.

Which engine a new game runs on is chosen by ``CARDROOM_ENGINE`` in the environment
(``native``, the default where the core is built, or ``python``, the reference and the default
where it is not) or by :func:`use_engine`; games the native engine does not have yet (BAEBAE)
always run on Python.

>>> from cardroom import native
>>> native.engine_choice() in native.ENGINES
True
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

from cardroom.engine import RulesError

__all__ = [
    "BATCHES", "ENGINES", "ENGINE_VARIABLE", "NATIVE_GAMES", "available", "batch_for", "core", "describe",
    "engine_choice", "native_for", "unavailable_reason", "use_engine",
]

ENGINE_VARIABLE = "CARDROOM_ENGINE"
ENGINES = ("python", "native")
NATIVE_GAMES = ("baha", "baebae")
"""The games the native engine plays."""

BATCHES = {"baha": "cardroom.games.baha.native", "baebae": "cardroom.games.baebae.native"}
"""Where each native game's batches are: a module with ``POLICIES`` (the agents it plays) and
``agent_games(rules, games, first_seed, agents, max_actions)``, whose result has per game
``totals``, ``winners`` (the first winner; -1: stopped by the action guard), ``deal_points``,
``actions`` and ``extras`` (the game's ``result_extras``), and, where a game may have several
winners, ``winner_lists`` (every seat in first place)."""

_chosen: str | None = None
_module: ModuleType | None = None  # not named _core: ``from ... import _core`` would find it
_reason: str | None = None

try:
    from cardroom.native import _core as _loaded

    _module = _loaded
except ImportError as error:  # not built: no compiler at install, or CARDROOM_PURE set then
    _reason = f"not built ({error})"


def available() -> bool:
    """Whether the native core was built and loads."""
    return _module is not None


def unavailable_reason() -> str | None:
    """Why the native core is not there, or ``None`` when it is."""
    return _reason


def core() -> ModuleType:
    """The extension module; a :class:`~cardroom.engine.RulesError` saying why when it is not built."""
    if _module is None:
        raise RulesError(f"the native engine is {_reason}; reinstall with a C++17 compiler at hand")
    return _module


def use_engine(name: str | None) -> None:
    """Choose the engine new games run on (``python`` or ``native``); ``None`` goes back to
    ``CARDROOM_ENGINE``."""
    global _chosen
    if name is not None:
        _check(name, "use_engine")
    _chosen = name


def _check(name: str, where: str) -> str:
    if name not in ENGINES:
        raise RulesError(f"{where} must be one of {', '.join(ENGINES)}, not {name!r}")
    return name


def engine_choice() -> str:
    """The engine asked for: :func:`use_engine`'s, else ``CARDROOM_ENGINE``'s, else ``native``
    where the core is built and ``python`` where it is not."""
    if _chosen is not None:
        return _chosen
    value = os.environ.get(ENGINE_VARIABLE, "").strip().lower()
    if not value:
        return "native" if _module is not None else "python"
    return _check(value, ENGINE_VARIABLE)


def native_for(game: str) -> bool:
    """Whether a new game of ``game`` runs on the native engine: asked for, and the game is one
    it has. Asking for it where it is not built is refused in words."""
    if game not in NATIVE_GAMES or engine_choice() != "native":
        return False
    core()
    return True


def batch_for(game: str) -> ModuleType | None:
    """The module that plays whole games of ``game`` natively (:data:`BATCHES`), when new games
    of it run on the native engine (:func:`native_for`); else ``None``."""
    if game not in BATCHES or not native_for(game):
        return None
    return importlib.import_module(BATCHES[game])


def describe() -> str:
    """What ``cardroom --version`` says of the native engine."""
    if _module is None:
        return f"native core {_reason}"
    try:
        choice = engine_choice()
    except RulesError as error:
        return f"native core built ({', '.join(NATIVE_GAMES)}); {error}"
    return f"native core built ({', '.join(NATIVE_GAMES)}), games run on {choice}"
