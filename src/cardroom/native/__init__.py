"""Cardroom's native engine: the games' rules and batches of games in C++, behind the State protocol.

The C++ sources are in the project's ``native/`` folder; ``pip install`` builds them into
``cardroom.native._core`` where a C++17 compiler is at hand (``setup.py``), and says in one line
when it cannot; ``CARDROOM_PURE=1`` at install builds nothing (the pure install), and
``cardroom --version`` says which (:func:`describe`). The Python engine stays the reference and
the fallback: the native one deals the same cards from the same seed, makes the same moves
legal, writes the same events and scores the same (``tests/native/`` plays both side by side),
so a record replays identically on either.

Which engine a new game runs on is chosen by ``CARDROOM_ENGINE`` in the environment
(``native``, the default where the core is built, or ``python``, the reference and the default
where it is not) or by :func:`use_engine`, read once by a front into an :class:`Engine` that it
passes down (a run's games, its batches, its workers all play on that one choice). Which
games the native engine plays, and where each one's batches are, each game's spec says
(``GameSpec.native``, a :class:`~cardroom.games.contracts.NativeEngine`): this module names no
game; a game whose spec names no native face always runs on Python.

>>> from cardroom import native
>>> native.engine_choice() in native.ENGINES
True
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from cardroom.engine import RulesError

if TYPE_CHECKING:
    from cardroom.engine import Rules, State
    from cardroom.games import GameSpec
    from cardroom.games.contracts import NativeEngine, NativeVector

__all__ = [
    "ENGINES", "ENGINE_VARIABLE", "Engine", "available",
    "batch_for", "core", "describe", "engine_choice", "native_for",
    "native_games", "unavailable_reason", "use_engine", "vector_for",
]

ENGINE_VARIABLE = "CARDROOM_ENGINE"
ENGINES = ("python", "native")
_PURE_VARIABLE = "CARDROOM_PURE"  # at install: build no native core (setup.py)

_chosen: str | None = None
_module: ModuleType | None = None  # not named _core: ``from ... import _core`` would find it
_reason: str | None = None

try:  # import_module: a missing module raises ModuleNotFoundError naming it (``from . import``
    # raises a bare ImportError then, the same as for a core that is there but fails to load)
    _module = importlib.import_module(__name__ + "._core")
except ModuleNotFoundError as error:  # not built: CARDROOM_PURE=1 at install, or no C++17 compiler
    _reason = (f"not built ({error})" if error.name != __name__ + "._core" else
               "not built (installed with CARDROOM_PURE=1, or where no C++17 compiler was found)")
except ImportError as error:  # built, but it does not load (built for another Python, say)
    _reason = f"not loaded ({error})"


def available() -> bool:
    """Whether the native core was built and loads."""
    return _module is not None


def unavailable_reason() -> str | None:
    """Why the native core is not there, or ``None`` when it is."""
    return _reason


def core() -> ModuleType:
    """The extension module; a :class:`~cardroom.engine.RulesError` saying why when it is not built."""
    if _module is None:
        raise RulesError(f"the native engine is {_reason}; reinstall with a C++17 compiler at hand, "
                         f"{_PURE_VARIABLE} unset")
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


# ``CARDROOM_ENGINE`` is read at every new game (a change takes effect at once). ``os.environ``
# keeps the environment in one dict of encoded keys and values, which every change through it
# updates; one lookup there costs a fifth of ``os.environ.get``'s four Python calls.
_ENVIRON_DATA: dict[Any, Any] | None = getattr(os.environ, "_data", None)
_ENGINE_KEY: Any = (os.environ.encodekey(ENGINE_VARIABLE)
                    if _ENVIRON_DATA is not None and hasattr(os.environ, "encodekey") else None)
_DEFAULT_ENGINE = "native" if _module is not None else "python"


def _engine_variable() -> str:
    """``CARDROOM_ENGINE``'s value now (empty when unset)."""
    if _ENGINE_KEY is None or _ENVIRON_DATA is None:
        return os.environ.get(ENGINE_VARIABLE, "")
    raw = _ENVIRON_DATA.get(_ENGINE_KEY)
    return "" if raw is None else str(os.environ.decodevalue(raw))


def engine_choice() -> str:
    """The engine asked for: :func:`use_engine`'s, else ``CARDROOM_ENGINE``'s, else ``native``
    where the core is built and ``python`` where it is not."""
    if _chosen is not None:
        return _chosen
    value = _engine_variable().strip().lower()
    if not value:
        return _DEFAULT_ENGINE
    return _check(value, ENGINE_VARIABLE)


@dataclass(frozen=True)
class Engine:
    """The engine new games run on, chosen once by a front (:meth:`chosen`: a command, the web
    server, a learning environment) and passed down with the rules: below the front, whether a
    game runs natively is this object's :meth:`plays`, never read again from the environment.

    >>> from cardroom import games
    >>> Engine("python").plays(games.specs()[0])
    False
    >>> Engine("turbo")
    Traceback (most recent call last):
    ...
    cardroom.engine.RulesError: engine must be one of python, native, not 'turbo'
    """

    name: str
    """``python`` (the reference) or ``native``."""

    def __post_init__(self) -> None:
        _check(self.name, "engine")

    @classmethod
    def chosen(cls) -> Engine:
        """The engine asked for now (:func:`engine_choice`): a front's one reading of it."""
        choice = engine_choice()
        return _ENGINES.get(choice) or cls(choice)

    def plays(self, spec: GameSpec) -> bool:
        """Whether new games of ``spec``'s game run on the native engine: this is the native
        engine and the game has a native face (``GameSpec.native``). Asking for the native
        engine where it is not built is refused in words (:func:`core`)."""
        if self.name != "native" or spec.native is None:
            return False
        core()
        return True

    def batch(self, spec: GameSpec) -> NativeEngine | None:
        """The game's native face (its spec's ``native``: ``POLICIES``, ``agent_games``, whose
        result has per game ``totals``, ``winners`` (the first winner; -1: stopped by the action
        guard), ``deal_points``, ``actions`` and ``extras``, the game's ``result_extras``, and
        where first place may be shared ``winner_lists``) when :meth:`plays`; else ``None``."""
        return spec.load("native") if self.plays(spec) else None

    def new_game(self, rules: Rules, seed: int) -> State:
        """A new game of ``rules`` on this engine (a game with a native face takes the engine as
        its ``new_game``'s ``engine``; the others run on Python)."""
        if rules.spec.native is None:
            return rules.new_game(seed)
        made: State = rules.new_game(seed, engine=self)  # type: ignore[call-arg]
        return made


_ENGINES = {name: Engine(name) for name in ENGINES}
"""One value per engine: :meth:`Engine.chosen` at every new game makes no object."""


def native_games() -> tuple[str, ...]:
    """The games the native engine plays: those whose spec names a native face."""
    from cardroom import games

    return tuple(spec.name for spec in games.specs() if spec.native is not None)


def _named(game: str) -> GameSpec | None:
    """The spec of the game called ``game``, ``None`` for a name no game has: for the functions
    below, which take a game by its name (benchmarks, tests, a caller holding only a name)."""
    from cardroom import games  # the registry (imported here: the games import this module)

    try:
        return games.get(game)
    except games.UnknownGame:
        return None


def native_for(game: str) -> bool:
    """Whether a new game of ``game`` runs on the engine chosen now (:meth:`Engine.plays`), for
    code that holds a game's name only; code that holds its rules asks ``Engine.plays(rules.spec)``."""
    engine = Engine.chosen()
    spec = _named(game)
    return spec is not None and engine.plays(spec)


def batch_for(game: str) -> NativeEngine | None:
    """:meth:`Engine.batch` of the engine chosen now, for ``game`` by its name."""
    engine = Engine.chosen()
    spec = _named(game)
    return None if spec is None else engine.batch(spec)


def vector_for(game: GameSpec | str) -> NativeVector | None:
    """The game's batched environment on the native engine (its spec's ``vector``, a
    :class:`~cardroom.games.contracts.NativeVector`), when the core is built and the game has
    one; else ``None``. ``game``: its spec (or its name, looked up)."""
    if _module is None:
        return None
    spec = _named(game) if isinstance(game, str) else game
    return None if spec is None or spec.vector is None else spec.load("vector")


def describe() -> str:
    """What ``cardroom --version`` says of the native engine: built or not, the games it plays,
    what it lacks for any of them (in words), and the engine games run on."""
    if _module is None:
        try:
            refused = engine_choice() == "native"
        except RulesError as error:
            return f"native core {_reason}; {error}"
        if refused:
            return f"native core {_reason}; {ENGINE_VARIABLE}=native: new games are refused"
        return f"native core {_reason}, games run on python"
    from cardroom import games

    played = [spec for spec in games.specs() if spec.native is not None]
    lacking = [gap for spec in played if (gap := spec.load("native").gaps()) is not None]
    built = (f"native core built ({', '.join(spec.name for spec in played)})"
             + "".join(f"; {gap}" for gap in lacking))
    try:
        choice = engine_choice()
    except RulesError as error:
        return f"{built}; {error}"
    return f"{built}, games run on {choice}"
