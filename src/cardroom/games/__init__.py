"""The games Cardroom plays, found by name in one registry.

Each game registers one :class:`GameSpec`: its rules class, its option catalog, how to start
from a given position, how its events are told, its unit of play, and hints for search. Every
front (the terminal, simulation, reports, records, the web table, learning environments) asks
the registry for a game's parts; outside a game's own package no code names a game.

>>> from cardroom import games
>>> games.names()
['baha', 'baebae']
>>> spec = games.get("baha")
>>> spec.title, spec.deal_unit
('Baha', 'hand')
>>> games.get("chess")
Traceback (most recent call last):
...
cardroom.games.UnknownGame: unknown game 'chess'; the games are baha, baebae

A game installed by another package is found through the entry-point group
``cardroom.games``: the entry point names a :class:`GameSpec` (or a function returning one),
as pytest finds its plugins.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from cardroom.engine import Event, Rules, RulesError, State

__all__ = [
    "ENTRY_POINTS",
    "DealLimits",
    "GameSpec",
    "OptionSpec",
    "UnknownGame",
    "get",
    "load_ref",
    "make_rules",
    "names",
    "register",
    "start_game",
]

ENTRY_POINTS = "cardroom.games"
"""The entry-point group through which other packages add games."""


class UnknownGame(RulesError):
    """A game name the registry does not know; the message lists the games."""


@dataclass(frozen=True)
class OptionSpec:
    """One rules option described for people: what the lobby, help pages and docs show.

    ``kind`` is ``bool``, ``int``, ``choice`` or ``text``; ``minimum``/``maximum`` bound an
    ``int``; ``choices`` list a ``choice``'s values; ``by_players`` marks an option whose
    default depends on the number of players (the text says how), so no single default is
    shown. The rules class stays the authority on what is valid.
    """

    name: str
    kind: str
    text: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    by_players: bool = False
    label: str = ""
    """The option's name in a form's words (``Draw pile``), beside ``text``, its one-line help."""

    def describe(self) -> dict[str, Any]:
        """JSON-ready, as the web catalog sends it (bounds and choices only where they apply)."""
        label = self.label or self.name.replace("_", " ").capitalize()
        out: dict[str, Any] = {"name": self.name, "label": label, "kind": self.kind, "text": self.text}
        if self.minimum is not None:
            out["min"] = self.minimum
        if self.maximum is not None:
            out["max"] = self.maximum
        if self.choices:
            out["choices"] = list(self.choices)
        return out


Narrator = Callable[[Event, Sequence[str], Any], "str | None"]
"""Tells one event in a line of English (seats by their names), or ``None`` for one not told."""


@dataclass(frozen=True)
class GameSpec:
    """Everything the fronts need to know of one game, and nothing they must re-derive."""

    name: str
    """The name in commands, records and URLs (``baha``)."""
    title: str
    """The name people read (``Baha``)."""
    summary: str
    """One line saying what the game is."""
    rules: Any
    """The rules class: ``rules(**options)``, ``rules.from_dict(mapping)``, ``option_names()``."""
    options: tuple[OptionSpec, ...]
    """The options a table may set, described for people (``players`` and decks apart)."""
    players: Callable[[], tuple[int, int]]
    """The fewest and most players, with the default options."""
    start: Callable[[Rules, int, Mapping[str, Any]], State]
    """A game from a record's ``start``: a hand-made deal, starting totals..."""
    narrate: Narrator
    """One line of English per event."""
    deal_unit: str
    """What one deal is called (``hand``, ``round``)."""
    points: str
    """What a deal's points are called in reports (``horns``, ``penalty``)."""
    deal_points: Callable[[Event], list[int] | None]
    """The points each seat scored in a deal, read from the event that ends it (else ``None``)."""
    winners: Callable[[Event], list[int]]
    """The seats sharing first place, read from the game's ``end`` event."""
    result_extras: Callable[[Sequence[Event]], dict[str, int]]
    """Counts for reports read from a finished game's log (moons, blocked rounds...)."""
    lower_wins: bool = True
    """Whether points count against a player (the lowest total wins, as in both of Cardroom's
    games); rewards and reports turn the sign by it."""
    exploration: float = 0.7
    """A search hint: the UCB constant, scaled to the spread of ``returns()``."""
    heuristic: str | None = None
    """The game's rule-of-thumb bot, as ``"module:attribute"`` (loaded when first asked for)."""
    terminal: str | None = None
    """The game's terminal renderer, as ``"module:attribute"``: a function with the arguments
    and result of :func:`cardroom.cli.play.run_play`, which ``cardroom play`` calls."""
    decks: bool = False
    """Whether the game's rules take decks (a ``deck`` option: project decks, or the content of
    deck files in a ``deck_files`` option)."""
    read_decks: Callable[[str, Path | None], dict[str, Any]] | None = None
    """For a game that takes decks: the rule options (``deck``, ``deck_files``) for project
    deck names and deck files as people write them, the files read relative to the folder
    given (else the working folder). Only the edges that may read files call it: the command
    line, and loading a record written before records carried their decks."""
    errors: tuple[type[Exception], ...] = ()
    """What the game raises for bad input besides ``RulesError`` (a deck file's mistakes): the
    fronts tell these to people as they tell a bad option, never as a crash."""
    web_renderer: str | None = None
    """The game's renderer for the web table: a JavaScript module under the web's static
    folder (``games/baha.js``), loaded by the pages the catalog names it to."""
    results: str | None = None
    """The game's tables for ``simulate --out``, as ``"module:attribute"``: a
    :class:`cardroom.sim.results.GameTables` (its columns of ``deals``, ``cards`` and
    ``hands``, its own tables, and the rows one finished game's log gives)."""
    observation: str | None = None
    """The game's observation encoder for learning environments, as ``"module:attribute"``:
    an object with ``size(rules)``, ``num_actions(rules)``, ``slices(rules)``, ``bounds(rules)``
    and ``encode(state, seat, out)`` (see :mod:`cardroom.games.tensor`); ``None`` for a game
    without one. Loaded only by :mod:`cardroom.rl`, which needs numpy."""
    analysis: str | None = None
    """The game's own sections of ``cardroom analyze``'s report, as ``"module:attribute"``: a
    function from a results folder (:class:`cardroom.analysis.folder.Results`) to a list of
    :class:`cardroom.analysis.report.Section` (Baha's moons and horns, BAEBAE's per-card impact)."""
    deal_limits: str | None = None
    """Bounds on one deal, as ``"module:attribute"``: a function from the rules to
    :class:`DealLimits`, for frameworks that must declare a game's length and utilities
    (the OpenSpiel adapter)."""

    def make_rules(self, options: Mapping[str, Any] | None = None) -> Rules:
        """The rules with ``options`` (values may be text, as typed on a command line)."""
        rules: Rules = self.rules.from_dict(options or {})
        return rules


@dataclass(frozen=True)
class DealLimits:
    """Bounds that hold for every deal (a Baha hand, a BAEBAE round) of some rules."""

    actions: int
    """The most actions one deal can take."""
    returns: float
    """The most any seat's ``returns()`` can change in one deal, up or down."""


_GAMES: dict[str, GameSpec] = {}
_BUILT_IN = ("cardroom.games.baha.spec", "cardroom.games.baebae.spec")
_loaded = False


def register(spec: GameSpec) -> GameSpec:
    """Add ``spec`` to the registry (a name may be registered once; the same spec again is
    a no-op, so a module imported twice does no harm)."""
    known = _GAMES.get(spec.name)
    if known is not None and known is not spec:
        raise RulesError(f"a game named {spec.name!r} is registered already")
    _GAMES[spec.name] = spec
    return spec


def _load() -> None:
    """The built-in games, then those other packages add through entry points (once)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in _BUILT_IN:
        register(importlib.import_module(module).SPEC)
    for entry in entry_points(group=ENTRY_POINTS):
        found = entry.load()
        spec = found() if callable(found) and not isinstance(found, GameSpec) else found
        if not isinstance(spec, GameSpec):
            raise RulesError(f"entry point {entry.name!r} of {ENTRY_POINTS} is not a GameSpec")
        register(spec)


def names() -> list[str]:
    """Every registered game's name, the built-in ones first."""
    _load()
    return list(_GAMES)


def get(name: str) -> GameSpec:
    """The game called ``name``; :class:`UnknownGame` (listing the games) if there is none."""
    _load()
    spec = _GAMES.get(name) if isinstance(name, str) else None
    if spec is None:
        raise UnknownGame(f"unknown game {str(name)[:40]!r}; the games are {', '.join(_GAMES)}")
    return spec


def load_ref(ref: str) -> Any:
    """The object a ``"module:attribute"`` reference names (a spec's heuristic, terminal)."""
    module, _, attribute = ref.partition(":")
    return getattr(importlib.import_module(module), attribute)


def make_rules(game: str, options: Mapping[str, Any] | None = None) -> Rules:
    """The rules of ``game`` with ``options`` (values may be text, as typed on a command line)."""
    return get(game).make_rules(options)


def start_game(rules: Rules, seed: int, start: Mapping[str, Any] | None = None) -> State:
    """A new game of ``rules``; ``start`` is a record's description of a hand-made beginning."""
    if not start:
        return rules.new_game(seed)
    return get(rules.game).start(rules, seed, start)
