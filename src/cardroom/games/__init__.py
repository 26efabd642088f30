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

A front asks the registry by name once, at its edge (a command's ``--game``, a table made from a
request, a record's ``game``); below it, the rules it made know their game's spec:

>>> spec.make_rules({"players": 3}).spec is spec
True

A game installed by another package is found through the entry-point group
``cardroom.games``: the entry point names a :class:`GameSpec` (or a function returning one),
as pytest finds its plugins.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, ClassVar, Literal, TypeVar, overload

from cardroom.engine import CardroomInputError, Event, NamedOptions, Rules, RulesError, State, check_whole
from cardroom.games.contracts import (
    AnalysisSections,
    DealLimits,
    DealLimitsOf,
    DeckEditing,
    DeckSupport,
    GameInfo,
    GameTables,
    HeuristicFactory,
    NativeEngine,
    NativeVector,
    ObservationEncoder,
    TerminalRenderer,
)

__all__ = [
    "ENTRY_POINTS",
    "DealLimits",
    "GameInfo",
    "GameRules",
    "GameSpec",
    "REFERENCES",
    "OptionSpec",
    "UnknownGame",
    "get",
    "load_ref",
    "make_rules",
    "names",
    "option",
    "options_of",
    "register",
    "specs",
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
    shown. A game declares each beside its field in its rules class (:func:`option`) and its
    spec reads them from there (:func:`options_of`); the rules check a value against the same
    description (:meth:`GameRules.check_options`), and stay the authority on what else is valid.
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


_T = TypeVar("_T")

OPTION = "cardroom.option"
"""The key of a rules field's ``metadata`` that holds its description for people (:func:`option`)."""


def option(
    default: _T,
    text: str,
    *,
    label: str = "",
    minimum: int | None = None,
    maximum: int | None = None,
    choices: Sequence[str] = (),
    by_players: bool = False,
) -> _T:
    """A rules option people set, declared as its rules class's field with its description:
    ``scoring: str = option("horns", "How taken cards score...", label="Scoring", choices=SCORINGS)``.

    The field's default is ``default``; :func:`options_of` makes the game's catalog
    (:class:`OptionSpec`) from these fields, in their order, and
    :meth:`GameRules.check_options` checks a value against the kind, bounds and choices given
    here. The kind is ``choice`` when ``choices`` are given, else the default's type (``bool``,
    ``int``, ``text``); an option whose default is ``None`` (``by_players``) takes the kind of
    its entry in the class's ``text_kinds``. A field declared without :func:`option` (the
    players, a deck, the chance stream) is no option of the catalog.
    """
    described = OptionSpec("", "", text, minimum=minimum, maximum=maximum, choices=tuple(choices),
                           by_players=by_players, label=label)
    found: _T = field(default=default, metadata={OPTION: described})
    return found


_KINDS: tuple[tuple[type, str], ...] = ((bool, "bool"), (int, "int"), (str, "text"))
_DESCRIBED: dict[type, tuple[OptionSpec, ...]] = {}
"""Each rules class's catalog, made once from its fields."""


_Check = tuple[str, str, int | None, int | None, tuple[str, ...], bool]
_CHECKS: dict[type, tuple[_Check, ...]] = {}
"""What :meth:`GameRules.check_options` checks of each rules class, read once from its catalog."""


def _checks_of(rules: type) -> tuple[_Check, ...]:
    _CHECKS[rules] = found = tuple((o.name, o.kind, o.minimum, o.maximum, o.choices, o.by_players)
                                   for o in options_of(rules))
    return found


def options_of(rules: type) -> tuple[OptionSpec, ...]:
    """The options a rules class declares with :func:`option`, in the order of its fields, each
    named after its field and of its kind: what its game's spec gives as ``options``.

    >>> from cardroom.games.baha.rules import Rules
    >>> [(o.name, o.kind) for o in options_of(Rules)][:2]
    [('scoring', 'choice'), ('passing', 'bool')]
    """
    known = _DESCRIBED.get(rules)
    if known is not None:
        return known
    text_kinds: Mapping[str, Any] = getattr(rules, "text_kinds", {})
    found = []
    for f in dataclasses.fields(rules):
        described = f.metadata.get(OPTION)
        if described is None:
            continue
        example = text_kinds.get(f.name, f.default) if f.default is None else f.default
        kind = "choice" if described.choices else next(
            (k for t, k in _KINDS if isinstance(example, t)), None)
        if kind is None:
            raise TypeError(f"{rules.__name__}.{f.name}: an option's kind is read from its default or, "
                            f"when that is None, its text_kinds entry; neither is a bool, int or str")
        found.append(dataclasses.replace(described, name=f.name, kind=kind))
    _DESCRIBED[rules] = made = tuple(found)
    return made


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
    """The options a table may set, described for people (``players`` and decks apart): a game
    declares them in its rules class and gives ``options_of(rules)``; a game may give its own."""
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
    info: GameInfo
    """The game's static facts: its number of distinct actions, whether lower wins, the event
    that ends it, its capabilities (checked against the game by the conformance suite)."""
    exploration: float = 0.7
    """A search hint: the UCB constant, scaled to the spread of ``returns()``."""
    returns_unit: str = "returns"
    """What one unit of ``returns()`` is, in words (``cardroom drama`` values actions in it)."""
    trained_options: Mapping[str, Any] = field(default_factory=dict, hash=False)
    """The options the learned agent's shipped weights were trained and measured on, beside the
    defaults (``cardroom train`` starts from them)."""
    heuristic: str | None = None
    """The game's rule-of-thumb bot, as ``"module:attribute"``: a
    :class:`~cardroom.games.contracts.HeuristicFactory` (loaded when first asked for)."""
    terminal: str | None = None
    """The game's terminal renderer, as ``"module:attribute"``: a
    :class:`~cardroom.games.contracts.TerminalRenderer`, a function with the arguments and
    result of :func:`cardroom.cli.play.run_play`, which ``cardroom play`` calls."""
    decks: DeckSupport | None = None
    """For a game that takes decks: how the fronts list, find, parse and describe its decks,
    the error a bad deck raises, and the one edge that reads deck files (the command line, and
    loading a record written before records carried their decks)."""
    web_renderer: str | None = None
    """The game's renderer for the web table: a JavaScript module under the web's static
    folder (``games/baha.js``), loaded by the pages the catalog names it to."""
    results: str | None = None
    """The game's tables for ``simulate --out``, as ``"module:attribute"``: a
    :class:`~cardroom.games.contracts.GameTables` (its columns of ``deals``, ``cards`` and
    ``hands``, its own tables, and the rows one finished game's log gives)."""
    observation: str | None = None
    """The game's observation encoder for learning environments, as ``"module:attribute"``:
    a :class:`~cardroom.games.contracts.ObservationEncoder` (see :mod:`cardroom.games.tensor`);
    ``None`` for a game without one. Loaded by the fronts that bring numpy (the learning
    environments, OpenSpiel, the policy agent)."""
    analysis: str | None = None
    """The game's own sections of ``cardroom analyze``'s report, as a module name: an
    :class:`~cardroom.games.contracts.AnalysisSections` (its ``tally`` sums a part of a results
    folder, its ``sections`` make :class:`cardroom.analysis.report.Section` of those sums),
    kept under ``analysis/games/`` (Baha's moons and horns, BAEBAE's per-card impact)."""
    deal_limits: str | None = None
    """Bounds on one deal, as ``"module:attribute"``: a function from the rules to
    :class:`DealLimits`, for frameworks that must declare a game's length and utilities
    (the OpenSpiel adapter)."""
    native: str | None = None
    """The game's face on the native engine, as a module name (its package's ``native``
    module): a :class:`~cardroom.games.contracts.NativeEngine` (its batches, what the core
    lacks for it); ``None`` for a game the native engine does not play. :mod:`cardroom.native`
    reads which games it plays from here; such a game's rules take the engine to play on as
    ``new_game``'s ``engine`` (a :class:`cardroom.native.Engine`)."""
    vector: str | None = None
    """The game's batched environment on the native engine, as a module name: a
    :class:`~cardroom.games.contracts.NativeVector` that ``cardroom.rl.vector_env`` steps; ``None``
    for a game whose vector environment is stepped in Python."""
    deck_editing: str | None = None
    """How the game's decks are edited as forms, as ``"module:attribute"``: a
    :class:`~cardroom.games.contracts.DeckEditing`; the web table's designer's studio offers
    every game that has one. ``None`` for a game without decks to edit."""

    @property
    def lower_wins(self) -> bool:
        """Whether points count against a player (``info.lower_wins``)."""
        return self.info.lower_wins

    def make_rules(self, options: Mapping[str, Any] | None = None) -> Rules:
        """The rules with ``options`` (values may be text, as typed on a command line)."""
        rules: Rules = self.rules.from_dict(options or {})
        return rules

    @overload
    def load(self, field: Literal["heuristic"]) -> HeuristicFactory: ...
    @overload
    def load(self, field: Literal["terminal"]) -> TerminalRenderer: ...
    @overload
    def load(self, field: Literal["results"]) -> GameTables: ...
    @overload
    def load(self, field: Literal["observation"]) -> ObservationEncoder: ...
    @overload
    def load(self, field: Literal["analysis"]) -> AnalysisSections: ...
    @overload
    def load(self, field: Literal["deal_limits"]) -> DealLimitsOf: ...
    @overload
    def load(self, field: Literal["native"]) -> NativeEngine: ...
    @overload
    def load(self, field: Literal["vector"]) -> NativeVector: ...
    @overload
    def load(self, field: Literal["deck_editing"]) -> DeckEditing: ...

    def load(self, field: str) -> Any:
        """What the reference in ``field`` names, checked against the contract
        :data:`REFERENCES` gives it; a missing or wrong reference is a :class:`RulesError`
        that names the game, the field and the contract."""
        contract = REFERENCES.get(field)
        if contract is None:
            raise RulesError(f"{field!r} is not a reference of a game; they are {', '.join(REFERENCES)}")
        ref = getattr(self, field)
        if ref is None:
            raise RulesError(f"{self.title} has no {field}")
        found = load_ref(ref)
        if not isinstance(found, contract):
            raise RulesError(f"{self.name}'s {field} {ref!r} is not a {contract.__name__}")
        return found


REFERENCES: Mapping[str, type] = {
    "heuristic": HeuristicFactory,
    "terminal": TerminalRenderer,
    "results": GameTables,
    "observation": ObservationEncoder,
    "analysis": AnalysisSections,
    "deal_limits": DealLimitsOf,
    "native": NativeEngine,
    "vector": NativeVector,
    "deck_editing": DeckEditing,
}
"""Each ``"module:attribute"`` (or ``"module"``) field of a :class:`GameSpec` and the contract (from
:mod:`cardroom.games.contracts`) what it names must meet when loaded."""


_GAMES: dict[str, GameSpec] = {}
_BUILT_IN = ("cardroom.games.baha.spec", "cardroom.games.baebae.spec")
_loaded = False


def register(spec: GameSpec) -> GameSpec:
    """Add ``spec`` to the registry (a name may be registered once; the same spec again is
    a no-op, so a module imported twice does no harm). A deck's mistake must be a
    :class:`~cardroom.engine.CardroomInputError`, the one refusal the fronts tell in words."""
    known = _GAMES.get(spec.name)
    if known is not None and known is not spec:
        raise RulesError(f"a game named {spec.name!r} is registered already")
    error = spec.decks.error if spec.decks is not None else CardroomInputError
    if not (isinstance(error, type) and issubclass(error, CardroomInputError)):
        raise RulesError(f"{spec.name}'s decks.error, {error!r:.60}, is not a CardroomInputError: the fronts "
                         "tell only those as a refusal in words")
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


def specs() -> list[GameSpec]:
    """Every registered game's spec, the built-in ones first (for a front listing the games)."""
    _load()
    return list(_GAMES.values())


def get(name: str) -> GameSpec:
    """The game called ``name``; :class:`UnknownGame` (listing the games) if there is none."""
    _load()
    spec = _GAMES.get(name) if isinstance(name, str) else None
    if spec is None:
        raise UnknownGame(f"unknown game {str(name)[:40]!r}; the games are {', '.join(_GAMES)}")
    return spec


def load_ref(ref: str) -> Any:
    """The object a ``"module:attribute"`` reference names (a spec's heuristic, terminal), or
    the module a ``"module"`` one names (a spec's native)."""
    module, _, attribute = ref.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attribute) if attribute else found


def make_rules(game: str, options: Mapping[str, Any] | None = None) -> Rules:
    """The rules of ``game`` with ``options`` (values may be text, as typed on a command line)."""
    return get(game).make_rules(options)


def start_game(rules: Rules, seed: int, start: Mapping[str, Any] | None = None) -> State:
    """A new game of ``rules``; ``start`` is a record's description of a hand-made beginning."""
    if not start:
        return rules.new_game(seed)
    return rules.spec.start(rules, seed, start)


class GameRules(NamedOptions):
    """The base of a game's rules class: options as data (:class:`~cardroom.engine.NamedOptions`)
    and the spec of the game they are the rules of, so that code holding the rules never looks
    the game up by name again."""

    game: ClassVar[str]
    """The game's name (each game's rules class sets it)."""

    def check_options(self) -> None:
        """Refuse a value of an option declared with :func:`option` that its description does not
        allow: a bool that is not true or false, a whole number out of its bounds, a choice not
        among its choices (a ``by_players`` option may be left ``None``: the game resolves it). The game's
        ``__post_init__`` calls it and checks the rest (the players, what options allow together)."""
        checks = _CHECKS.get(type(self)) or _checks_of(type(self))
        for name, kind, low, high, choices, by_players in checks:
            value = getattr(self, name)
            if value is None and by_players:
                continue
            if kind == "bool":
                if value is not True and value is not False:
                    raise RulesError(f"{name} must be true or false, not {value!r}")
            elif kind == "int":
                if type(value) is not int or (low is not None and value < low) or (
                        high is not None and value > high):
                    check_whole(value, name, low, high)  # a whole number of another type, else refused
            elif kind == "choice":
                if value not in choices:
                    raise RulesError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
            elif not isinstance(value, str):
                raise RulesError(f"{name} must be text, not {value!r:.40}")

    @property
    def spec(self) -> GameSpec:
        """The game's spec: the one registered under the rules' game."""
        spec = _GAMES.get(self.game)
        return spec if spec is not None else get(self.game)  # the registry not loaded yet
