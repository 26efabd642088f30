"""What a game provides to the fronts, as contracts every game may import (standard library only).

A game's package implements these; the fronts (simulation, analysis, the terminal, the web
table, learning environments, OpenSpiel) read them through the game's spec and never import
the game. Nothing here imports a front or a third-party library: a column of a results table
is given by its *kind* (``"int32"``, ``"list[string]"``...), which :mod:`cardroom.sim.results`
maps to Arrow types; an observation array is whatever buffer the caller passes.

- :class:`GameInfo`: a game's static facts, declared once (as OpenSpiel's ``_GAME_INFO``);
- :class:`GameTables`, :class:`GameRows`, :class:`Decisions`: the game's part of the results;
- :class:`DealLimits`: bounds on one deal;
- :class:`ObservationEncoder`: the tensor encoding of what a seat may know;
- :class:`DeckSupport`, :class:`DeckInfo`: decks (list, find, parse, describe, read files);
- :class:`DeckEditing`, :class:`DeckLimits`, :class:`EditedDeck`: decks as forms a person edits
  (the web table's designer's studio);
- :class:`TerminalRenderer`, :class:`AnalysisSections`, :class:`HeuristicFactory`: what a
  spec's references to the fronts' per-game adapters must be;
- :class:`NativeEngine`: a game's face on the native engine (its spec's ``native``).
- :class:`NativeVector`: a game's batched environment on the native engine (its spec's ``vector``).

>>> Decisions([1, 3]).at(2)
0
>>> GameTables(columns={"deals": (("moon", "int9"),)}, tables={}, rows=lambda *a: GameRows(None, {}))
Traceback (most recent call last):
...
ValueError: column 'moon' of deals has kind 'int9'; the kinds are bool, int8, int32, ...
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from cardroom.engine import Action, CardroomInputError, Event, Rules, State

__all__ = [
    "CAPABILITIES",
    "COLUMN_KINDS",
    "AnalysisSections",
    "BatchResults",
    "Columns",
    "DealLimits",
    "DealLimitsOf",
    "Decisions",
    "DeckEditing",
    "DeckInfo",
    "DeckLimits",
    "DeckNumbers",
    "DeckSupport",
    "EditedDeck",
    "GameInfo",
    "GameRows",
    "GameTables",
    "HeuristicFactory",
    "NativeEngine",
    "NativeVector",
    "ObservationEncoder",
    "TerminalRenderer",
]

# -- static facts ---------------------------------------------------------------------------

CAPABILITIES = frozenset({"quiet_playout", "deck_rules"})
"""The optional capabilities a game may declare: its states are ``engine.QuietPlayout``
(``quiet_playout``), its rules ``engine.DeckRules`` (``deck_rules``)."""


@dataclass(frozen=True)
class GameInfo:
    """A game's static facts, declared once in its spec rather than found out at run time.

    The conformance suite checks each against the game: the action count against ``decode``,
    the end event against a finished game's log, the capabilities against ``isinstance``.
    """

    num_actions: Callable[[Rules], int]
    """The size of the fixed action space for some rules: actions are ``0`` to ``N - 1``."""
    lower_wins: bool = True
    """Whether points count against a player (the lowest total wins); rewards and reports
    turn the sign by it."""
    end_event: str = "end"
    """The type (``"t"``) of the event that ends a game, the last of a finished game's log."""
    capabilities: frozenset[str] = frozenset()
    """Which of :data:`CAPABILITIES` the game has."""

    def __post_init__(self) -> None:
        unknown = set(self.capabilities) - CAPABILITIES
        if unknown:
            raise ValueError(f"unknown capability {sorted(unknown)[0]!r}; the capabilities are "
                             f"{', '.join(sorted(CAPABILITIES))}")


@dataclass(frozen=True)
class DealLimits:
    """Bounds that hold for every deal (a Baha hand, a BAEBAE round) of some rules."""

    actions: int
    """The most actions one deal can take."""
    returns: float
    """The most any seat's ``returns()`` can change in one deal, up or down."""


@runtime_checkable
class DealLimitsOf(Protocol):
    """A game's bounds on one deal (its spec's ``deal_limits``): from the rules."""

    def __call__(self, rules: Rules, /) -> DealLimits: ...


# -- results --------------------------------------------------------------------------------

COLUMN_KINDS = ("bool", "int8", "int32", "int64", "float64", "string", "list[int8]", "list[int32]",
                "list[string]")
"""The kinds a results column may have (``sim.results`` maps each to an Arrow type)."""

Columns = Sequence[tuple[str, str]]
"""Columns as ``(name, kind)`` pairs, in order."""


@dataclass
class GameRows:
    """What one finished game gives the tables: the places by seat (``None`` for a game
    stopped before its end) and rows per table, without the key columns, which are added."""

    places: list[int] | None
    tables: dict[str, list[dict[str, Any]]]


@dataclass(frozen=True)
class GameTables:
    """A game's part of the results, named by its spec's ``results``.

    ``columns`` are the game's own columns of ``deals``, ``cards`` and ``hands`` (after the
    common ones); ``tables`` are the game's own tables (their columns after the key); ``rows``
    reads one finished game's log (with its rules, and the log position of each decision)."""

    columns: Mapping[str, Columns]
    tables: Mapping[str, Columns]
    rows: Callable[[Sequence[Event], Rules, Decisions], GameRows]

    def __post_init__(self) -> None:
        for group in (self.columns, self.tables):
            for table, columns in group.items():
                for name, kind in columns:
                    if kind not in COLUMN_KINDS:
                        raise ValueError(f"column {name!r} of {table} has kind {kind!r}; the kinds are "
                                         f"{', '.join(COLUMN_KINDS)}")


class Decisions:
    """Which decision (action) caused each event of a log, from the log's length before each.

    >>> d = Decisions([1, 3, 4])  # events 0: the deal; 1-2: action 0; 3: action 1; 4...: action 2
    >>> d.at(2), d.at(3), d.at(0)
    (0, 1, -1)
    >>> d.between(1, 4)
    2
    """

    def __init__(self, marks: Sequence[int]) -> None:
        self.marks = marks

    def at(self, event: int) -> int:
        """The decision (0-based) that caused the event at ``event``; -1 before the first."""
        return bisect_right(self.marks, event) - 1

    def first(self, event: int) -> int:
        """The first decision taken at or after the event at ``event``."""
        return bisect_left(self.marks, event)

    def between(self, start: int, end: int) -> int:
        """Decisions taken from the event at ``start`` up to (not including) ``end``."""
        return self.first(end) - self.first(start)


# -- learning environments ------------------------------------------------------------------

@runtime_checkable
class ObservationEncoder(Protocol):
    """A game's observation encoder (its spec's ``observation``; :mod:`cardroom.games.tensor`
    holds what one is made of). Arrays are numpy's, which only the encoders and their callers
    import."""

    def size(self, rules: Rules) -> int:
        """The length of the observation array for ``rules``."""

    def num_actions(self, rules: Rules) -> int:
        """The size of the game's fixed action space."""

    def slices(self, rules: Rules) -> Sequence[Any]:
        """The array's named slices, in order, covering it exactly."""

    def bounds(self, rules: Rules) -> tuple[Any, Any]:
        """The least and greatest value of each entry."""

    def encode(self, state: Any, seat: int, out: Any) -> None:
        """Fill ``out`` (float32, of ``size(rules)``) with what ``seat`` may know now."""

    private: frozenset[str]
    """The slices that hold the observing seat's own secrets (its hand, its picks...); the others
    hold public information only, the same on any deal of the hidden cards (what OpenSpiel's
    public observer's tensor is made of)."""


# -- decks ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class DeckInfo:
    """A validated deck as the fronts see it: ``name`` is how it was asked for (a project
    deck's name, an upload's digest), ``title`` the deck's own name."""

    name: str
    title: str
    size: int
    """Cards in one copy of the deck."""
    digest: str
    """``sha256:`` of its canonical content: equal decks have equal digests."""
    description: str = ""
    designs: int = 0
    """Card designs (a design may have several copies)."""
    actions: int = 0
    """Designs with an action."""
    types: tuple[str, ...] = ()
    """The character types the deck declares."""
    players: tuple[int, int] | None = None
    """The fewest and most players the deck is enough for with the default options."""
    unplayable: str | None = None
    """Why no game can be played with the deck alone, or ``None``."""


@runtime_checkable
class DeckSupport(Protocol):
    """How a game that takes decks offers them to the fronts (its spec's ``decks``).

    Only :meth:`read` and :meth:`path` touch files, and only the edges call them (the command
    line, record loading, the web table's download of a project deck); the rest works on names
    and texts. Every mistake is an :attr:`error`, whose message says what was wrong (one
    problem a line). The rules take the decks in two options: ``deck`` (project names and
    digests, by commas) and ``deck_files`` (the texts of the files the digests stand for)."""

    error: type[CardroomInputError]
    """What the game raises for a bad deck: fronts tell it as they tell a bad option."""
    default: str
    """The project deck a table is given when none is named."""

    def names(self) -> list[str]:
        """The project's decks, by name."""

    def find(self, name: str) -> DeckInfo:
        """A project deck (or a deck file's path, several joined by commas) as a :class:`DeckInfo`."""

    def parse(self, text: str, where: str) -> DeckInfo:
        """A deck file's text checked (``where`` names it in messages)."""

    def rows(self, name: str) -> list[dict[str, Any]]:
        """Each card design of a deck found as :meth:`find` finds it, as a JSON-ready row."""

    def design_rows(self, rules: Rules) -> list[dict[str, Any]]:
        """Each card design of the decks ``rules`` are played with, as the same rows."""

    def read(self, spec: str, folder: Path | None) -> dict[str, Any]:
        """The rule options for decks as people write them (project names, file paths by
        commas, relative to ``folder``, else the working folder): an edge that reads files."""

    def path(self, name: str) -> Path | None:
        """A project deck's file, or ``None`` for a name that is none."""


@dataclass(frozen=True)
class DeckLimits:
    """The most a deck of a game may hold, as its deck checker bounds it: what a form's fields
    are bounded by before the checker reads them."""

    cards: int
    """Card designs in one deck."""
    name: int
    """Characters of the deck's name."""
    description: int
    """Characters of its description."""
    card_name: int
    """Characters of a card's name."""
    text: int
    """Characters of a card's action text."""
    type: int
    """Characters of one character type."""
    types: int
    """Types the deck (or a card) declares."""


@dataclass(frozen=True)
class EditedDeck:
    """A deck file the checker accepted, as an editor shows it: its own name, its digest
    (``sha256:`` of its canonical content), its cards in one copy, and each card design as the
    JSON-ready row the table draws it from (:meth:`DeckSupport.rows`' rows)."""

    name: str
    digest: str
    size: int
    cards: list[dict[str, Any]]


@runtime_checkable
class DeckEditing(Protocol):
    """How a game's decks are edited as forms (its spec's ``deck_editing``): the web table's
    designer's studio offers every game whose spec has one, and reaches the game through it only.

    A *form* is plain JSON: the deck's ``name``, ``description`` and ``types``, then its
    ``cards``, each with ``rank``, ``suit``, ``name``, ``types``, ``marks``, ``copies`` and an
    ``action`` (``text``, the flags ``optional``, ``can_win``, ``on_start``, and ``steps``, each
    ``{"step": kind, "fields": "TOML"}``). A form is never trusted: :meth:`checked` writes it as a
    deck file and the game's checker judges that. Every mistake is an :attr:`error`, whose
    problems :meth:`where_problems` places at their card and field."""

    error: type[CardroomInputError]
    """What the game raises for a bad deck or form."""
    limits: DeckLimits
    """The bounds of the deck checker."""
    step_kinds: tuple[str, ...]
    """The kinds of step of an action, in the order the guide lists them."""
    marks: tuple[str, ...]
    """The marks a card may bear."""

    def project_decks(self) -> list[str]:
        """The project's decks, by name."""

    def project_text(self, name: str) -> str:
        """A project deck's file (``name`` one of :meth:`project_decks`)."""

    def form_of(self, text: str, where: str) -> dict[str, Any]:
        """The form of a deck file, which must be valid (else :attr:`error`, ``where`` naming it)."""

    def checked(self, form: Mapping[str, Any], where: str = "the deck") -> str:
        """The deck file of ``form`` once the checker accepts it, else one :attr:`error` with
        every problem."""

    def parse(self, text: str, where: str) -> EditedDeck:
        """A deck file checked (else :attr:`error`), as an :class:`EditedDeck`."""

    def deck_diff(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[dict[str, Any]]:
        """What changed from one valid form to another, a line per card and field:
        ``{"card", "field", "before", "after", "words"}`` (``card`` ``None`` for the deck's own)."""

    def where_problems(self, error: Exception) -> list[dict[str, Any]]:
        """An :attr:`error`'s problems, each ``{"card", "field", "step", "message"}``: the card
        (from 0, ``None`` for the deck), the field of the form and the step (from 0) it is about."""


@runtime_checkable
class DeckNumbers(Protocol):
    """A :class:`DeckSupport` whose decks' numbers ``cardroom tune`` can search (BAEBAE's)."""

    def number(self, text: str, ref: str) -> int:
        """A number of a deck's text (``cardroom tune``'s ``CARD.FIELD``, e.g. ``10C.count``)."""

    def with_number(self, text: str, ref: str, value: int) -> str:
        """The deck's text with that number changed (checked as a deck, its layout kept)."""

    def number_card(self, text: str, ref: str) -> str:
        """The card a number belongs to, in words (its key and name)."""

    def numbers(self, text: str) -> dict[str, int]:
        """Every number of a deck's text that ``tune`` may search, by its ``CARD.FIELD`` name."""


# -- the fronts' per-game adapters ------------------------------------------------------------

@runtime_checkable
class TerminalRenderer(Protocol):
    """A game's terminal (its spec's ``terminal``, a ``run_play`` under ``cli/play/``): the
    one contract of ``run_play``, which :func:`cardroom.cli.play.run_play` calls for
    ``cardroom play GAME``; each game's renderer documents only what it adds."""

    def __call__(self, rules: Rules, *, seed: int | None, bots: str, name: str | None,
                 record_path: Path | None, console: Any, ask: Callable[[str], str] | None = None) -> int:
        """Play a game of ``rules`` with the person at seat 0 against bots; return the exit
        status (0, or 130 on Ctrl-C).

        ``seed`` deals the game (``None``: a new one, shown so the game can be played again);
        ``bots`` the agent specs of the other seats (one for all, or one a seat); ``name`` the
        person's (``None``: the record calls the seat by its number); ``record_path`` where the
        record is written however the game stops (``None``: none); ``console`` the Rich console
        the screen is drawn on. ``ask(prompt)`` reads one line from the person (default
        ``console.input``); it may raise ``EOFError`` (input ended: the game stops, status 0) or
        ``KeyboardInterrupt`` (status 130). Bad options raise ``RulesError``, ``AgentError`` or
        ``RecordError`` for the caller to print.
        """
        ...


@runtime_checkable
class AnalysisSections(Protocol):
    """A game's own sections of ``cardroom analyze`` (its spec's ``analysis``, a module): its
    ``tally`` adds one part of a results folder (a ``cardroom.analysis.folder.Results`` of some
    games) to the sums (a ``cardroom.analysis.tally.Tally``), and its ``sections`` make the
    report's sections from the whole folder (a ``Folder`` or ``Results``) and those sums."""

    def tally(self, part: Any, tally: Any, /) -> None: ...

    def sections(self, results: Any, tally: Any, /) -> list[Any]: ...


class _Agent(Protocol):
    name: str

    def act(self, state: State, seat: int) -> Action: ...


@runtime_checkable
class HeuristicFactory(Protocol):
    """A game's rule-of-thumb bot (its spec's ``heuristic``): made from a seed."""

    def __call__(self, seed: int | None, /) -> _Agent: ...


class BatchResults(Protocol):
    """Whole games played by a game's native batch (its ``agent_games``, its table games), one
    entry a game: the totals, the first winner (-1 when the action guard stopped the game),
    the points of every deal (one list a seat), the actions taken and the spec's
    ``result_extras``. A game whose first place may be shared adds ``winner_lists``."""

    @property
    def totals(self) -> list[list[int]]: ...

    @property
    def winners(self) -> list[int]: ...

    @property
    def deal_points(self) -> list[list[list[int]]]: ...

    @property
    def actions(self) -> list[int]: ...

    @property
    def extras(self) -> list[dict[str, int]]: ...


@runtime_checkable
class NativeEngine(Protocol):
    """A game's face on the native engine (its spec's ``native``, the game's ``native`` module):
    the agents its batches play, the batches (whole games with no Python in the loop, the very
    games ``cardroom simulate`` plays with that lineup), and what the native core lacks for the
    game, in words (``None``: nothing). Its rules make the native state themselves
    (``Rules.new_game``, on the engine it is given, :class:`cardroom.native.Engine`)."""

    POLICIES: tuple[str, ...]

    def agent_games(self, rules: Any, games: int, first_seed: int = 0, agents: Sequence[str] = ("random",),
                    max_actions: int = 200_000) -> BatchResults: ...

    def gaps(self) -> str | None: ...


@runtime_checkable
class NativeVector(Protocol):
    """A game's batched environment on the native engine (its spec's ``vector``, a module):
    ``POLICIES``, the bots a batch plays, and ``Batch``, what ``cardroom.rl.vector_env`` steps
    (``Batch(rules, num_envs, self_play, seat, bots, deals, max_steps, zero_sum)`` with ``bind``,
    ``reset``, ``step``, ``refusal``, ``global_state``, ``row_state``, ``set_row_state`` and
    ``load``; the contract in words is in
    :mod:`cardroom.games.baha.vector`'s docstring)."""

    POLICIES: tuple[str, ...]
    Batch: Any
