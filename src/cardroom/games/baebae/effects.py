"""BAEBAE's card-action language: steps as data, read from deck files and validated.

An action is a list of *steps*. Each step is a table whose ``step`` names what it does; the
other keys are its arguments. Steps are read once into frozen :class:`Step` objects and run
by the one interpreter in :mod:`cardroom.games.baebae.interpreter`; no card's behaviour is written
as code. The language, with an example per step, is documented in ``docs/deck-guide.md``.

>>> step = parse_step({"step": "draw", "who": "next", "count": 2}, "example", {"Officer"})
>>> step.op, step.who.kind, step.count
('draw', 'next', 2)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence, Set
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from cardroom.engine import CardroomInputError, is_whole

__all__ = [
    "RANKS",
    "SUITS",
    "SUIT_SYMBOLS",
    "SUIT_NAMES",
    "MARKS",
    "STEPS",
    "TARGETS",
    "SINGLE_TARGETS",
    "MAX_COUNT",
    "MAX_OPTIONS",
    "MAX_LABEL",
    "DeckError",
    "Problems",
    "shown",
    "CardFilter",
    "Target",
    "Option",
    "Step",
    "parse_rank",
    "parse_suit",
    "parse_filter",
    "parse_target",
    "parse_step",
    "parse_steps",
]

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank texts; a rank is its index + 1 (A = 1, J = 11, Q = 12, K = 13)."""
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("Clubs", "Diamonds", "Hearts", "Spades")
MARKS = ("skip", "wild", "reverse")
TARGETS = ("self", "next", "previous", "chosen", "others", "all")
SINGLE_TARGETS = ("self", "next", "previous", "chosen")
MAX_COUNT = 20
MAX_OPTIONS = 6
MAX_DEPTH = 4
MAX_PENALTY = 100
MAX_LABEL = 60
"""Characters in a ``choose`` option's label (untrusted text, shown to every player)."""
_SHOWN = 60

_RANK_ALIASES = {r: i + 1 for i, r in enumerate(RANKS)} | {str(i): i for i in range(1, 14)} | {
    "ACE": 1, "JACK": 11, "QUEEN": 12, "KING": 13, "T": 10}
_SUIT_ALIASES = {s: i for i, s in enumerate(SUITS)} | {s: i for i, s in enumerate(SUIT_SYMBOLS)} | {
    n.upper(): i for i, n in enumerate(SUIT_NAMES)
}


class DeckError(CardroomInputError):
    """A deck file is wrong: one or more problems, each naming the file, the card, the field
    and what is allowed. ``str(err)`` is the problems, one a line.

    >>> err = DeckError("f.toml: card 1.rank: unknown rank '14'", "f.toml: card 2.suit: unknown suit 'X'")
    >>> len(err.problems), str(err).count("\\n")
    (2, 1)
    """

    def __init__(self, *problems: str) -> None:
        self.problems: tuple[str, ...] = problems
        super().__init__("\n".join(problems))


class Problems:
    """The problems found so far while reading a deck: a failed check adds its problems and
    the reading goes on, so that one pass over a file reports every mistake in it."""

    def __init__(self) -> None:
        self.found: list[str] = []

    @contextmanager
    def check(self) -> Iterator[None]:
        """Run a check; a :class:`DeckError` it raises is kept instead of stopping the reading."""
        try:
            yield
        except DeckError as err:
            self.found.extend(err.problems)

    def add(self, problem: str) -> None:
        self.found.append(problem)

    def raise_any(self) -> None:
        if self.found:
            raise DeckError(*self.found)


def shown(value: Any) -> str:
    """A value from a deck file as an error message quotes it: its ``repr``, cut short (a file
    may hold a name of a million characters, or a number too long to write out)."""
    try:
        text = repr(value)
    except ValueError:  # an int past Python's limit on digits converted to text
        return f"a number of about {int(value.bit_length() * 0.30103)} digits"
    except RecursionError:
        return "a value nested too deeply to show"
    return text if len(text) <= _SHOWN else text[:_SHOWN - 1] + "…"


@dataclass(frozen=True)
class CardFilter:
    """Which cards a step concerns: each given field must match (any of its values)."""

    types: frozenset[str] = frozenset()
    suits: frozenset[int] = frozenset()
    ranks: frozenset[int] = frozenset()
    marks: frozenset[str] = frozenset()

    def matches(self, types: Set[str], suit: int, rank: int, marks: Set[str]) -> bool:
        return (
            (not self.types or not self.types.isdisjoint(types))
            and (not self.suits or suit in self.suits)
            and (not self.ranks or rank in self.ranks)
            and (not self.marks or not self.marks.isdisjoint(marks))
        )

    def describe(self) -> str:
        parts = []
        if self.types:
            parts.append("/".join(sorted(self.types)))
        if self.suits:
            parts.append("/".join(SUIT_NAMES[s] for s in sorted(self.suits)))
        if self.ranks:
            parts.append("/".join(RANKS[r - 1] for r in sorted(self.ranks)))
        if self.marks:
            parts.append("/".join(sorted(self.marks)))
        return " ".join(parts) or "any"


@dataclass(frozen=True)
class Target:
    """Which players a step acts on: a kind from ``TARGETS``, or players holding a card."""

    kind: str
    holding: CardFilter | None = None

    @property
    def single(self) -> bool:
        return self.kind in SINGLE_TARGETS


@dataclass(frozen=True)
class Option:
    """One choice of a ``choose`` step."""

    label: str
    effects: tuple[Step, ...]


@dataclass(frozen=True)
class Step:
    """One step of an action. Only the fields its ``op`` uses are set (see ``STEPS``)."""

    op: str
    who: Target | None = None
    to: Target | None = None
    count: int = 1
    filter: CardFilter | None = None
    points: int = 0
    heads: tuple[Step, ...] = ()
    tails: tuple[Step, ...] = ()
    options: tuple[Option, ...] = field(default=())


# Each step: its arguments and their defaults. ``who`` names the players the step acts on;
# for give, ``to`` is the receiver; for take, swap_hands and peek, ``who`` is the other player.
STEPS: Mapping[str, Mapping[str, Any]] = {
    "draw": {"who": "self", "count": 1},
    "discard": {"who": "self", "count": 1, "filter": None},
    "discard_under": {"count": 1, "filter": None},
    "give": {"who": "self", "to": "next", "count": 1, "filter": None},
    "take": {"who": "next", "count": 1, "filter": None},
    "swap_hands": {"who": "next"},
    "skip": {"who": "next"},
    "reverse": {},
    "declare_suit": {},
    "play_again": {},
    "peek": {"who": "next"},
    "penalty": {"who": "self", "points": 1},
    "coin": {"heads": [], "tails": []},
    "choose": {"options": None},
}
_SINGLE_WHO = {"take", "swap_hands", "peek"}


def parse_rank(value: Any, where: str) -> int:
    """A rank from text (``A``, ``2``..``10``, ``J``, ``Q``, ``K``) or a number 1..13."""
    if is_whole(value) and 1 <= value <= 13:
        return value
    rank = _RANK_ALIASES.get(value.strip().upper()) if isinstance(value, str) else None
    if rank is None:
        raise DeckError(f"{where}: unknown rank {shown(value)}; ranks are {', '.join(RANKS)}")
    return rank


def parse_suit(value: Any, where: str) -> int:
    """A suit from ``C D H S``, the suit symbols, or the suit's name."""
    suit = _SUIT_ALIASES.get(str(value).strip().upper()) if isinstance(value, str) else None
    if suit is None:
        raise DeckError(f"{where}: unknown suit {shown(value)}; suits are C, D, H, S (or ♣ ♦ ♥ ♠)")
    return suit


def _list(value: Any, where: str) -> list[Any]:
    if isinstance(value, str | int):
        return [value]
    if not isinstance(value, list):
        raise DeckError(f"{where}: expected a list, not {shown(value)}")
    return value


def _check_keys(table: Mapping[str, Any], allowed: Sequence[str], where: str) -> None:
    unknown = [f"{where}: unknown field {shown(key)}; the fields are {', '.join(allowed)}"
               for key in table if key not in allowed]
    if unknown:
        raise DeckError(*unknown)


def parse_filter(table: Any, where: str, types: Set[str]) -> CardFilter:
    """A card filter: ``{types = [...], suits = [...], ranks = [...], marks = [...]}``."""
    if not isinstance(table, Mapping):
        raise DeckError(f"{where}: a card filter is a table such as {{types = [\"Officer\"]}}")
    problems = Problems()
    with problems.check():
        _check_keys(table, ("types", "suits", "ranks", "marks"), where)
    known = ", ".join(sorted(types)) or "none declared"
    found_types, marks, suits, ranks = set(), set(), set(), set()
    with problems.check():
        for t in _list(table.get("types", []), f"{where}.types"):
            if isinstance(t, str) and t in types:
                found_types.add(t)
            else:
                problems.add(f"{where}.types: unknown type {shown(t)}; the deck's types are {known}")
    with problems.check():
        for m in _list(table.get("marks", []), f"{where}.marks"):
            if m in MARKS:
                marks.add(m)
            else:
                problems.add(f"{where}.marks: unknown mark {shown(m)}; marks are {', '.join(MARKS)}")
    with problems.check():
        for s in _list(table.get("suits", []), f"{where}.suits"):
            with problems.check():
                suits.add(parse_suit(s, f"{where}.suits"))
    with problems.check():
        for r in _list(table.get("ranks", []), f"{where}.ranks"):
            with problems.check():
                ranks.add(parse_rank(r, f"{where}.ranks"))
    problems.raise_any()
    result = CardFilter(types=frozenset(found_types), suits=frozenset(suits), ranks=frozenset(ranks),
                        marks=frozenset(marks))
    if result == CardFilter():
        raise DeckError(f"{where}: an empty filter; give types, suits, ranks or marks (or leave it out)")
    return result


def parse_target(value: Any, where: str, types: Set[str], *, single: bool = False) -> Target:
    """A target: one of ``TARGETS``, or ``{holding = {filter}}`` for players holding such a card."""
    if isinstance(value, Mapping):
        _check_keys(value, ("holding",), where)
        if "holding" not in value:
            raise DeckError(f"{where}: a target table needs 'holding', e.g. {{holding = {{types = [...]}}}}")
        if single:
            raise DeckError(f"{where}: this step acts on one player: use {', '.join(SINGLE_TARGETS)}")
        return Target("holding", parse_filter(value["holding"], f"{where}.holding", types))
    allowed = SINGLE_TARGETS if single else TARGETS
    if single and value in TARGETS and value not in SINGLE_TARGETS:
        raise DeckError(
            f"{where}: this step acts on one player, so {shown(value)} cannot be its target; "
            f"use {', '.join(SINGLE_TARGETS)}"
        )
    if value not in allowed:
        extra = "" if single else ", or {holding = {...}}"
        raise DeckError(f"{where}: unknown target {shown(value)}; targets are {', '.join(allowed)}{extra}")
    return Target(str(value))


def _count(value: Any, where: str) -> int:
    if not is_whole(value) or not 1 <= value <= MAX_COUNT:
        raise DeckError(f"{where}: a count is a whole number from 1 to {MAX_COUNT}, not {shown(value)}")
    return value


def parse_step(table: Any, where: str, types: Set[str], depth: int = 0) -> Step:
    """One step from its table (see ``STEPS`` for the steps and their arguments).

    Every argument is checked, and every problem found is in the one :class:`DeckError`.
    """
    if not isinstance(table, Mapping):
        raise DeckError(f"{where}: a step is a table such as {{step = \"draw\", who = \"next\"}}")
    op = table.get("step")
    if not isinstance(op, str) or op not in STEPS:
        raise DeckError(f"{where}: unknown step {shown(op)}; steps are {', '.join(STEPS)}")
    if depth > MAX_DEPTH:
        raise DeckError(f"{where}: steps nest more than {MAX_DEPTH} deep")
    args = STEPS[op]
    problems = Problems()
    with problems.check():
        _check_keys(table, ("step", *args), where)
    values = {**args, **{k: v for k, v in table.items() if k != "step"}}
    kwargs: dict[str, Any] = {}
    with problems.check():
        if "who" in args:
            kwargs["who"] = parse_target(values["who"], f"{where}.who", types, single=op in _SINGLE_WHO)
    with problems.check():
        if "to" in args:
            kwargs["to"] = parse_target(values["to"], f"{where}.to", types, single=True)
    with problems.check():
        if "count" in args:
            kwargs["count"] = _count(values["count"], f"{where}.count")
    with problems.check():
        if "filter" in args and values["filter"] is not None:
            kwargs["filter"] = parse_filter(values["filter"], f"{where}.filter", types)
    if op == "penalty":
        points = values["points"]
        if not is_whole(points) or not (-MAX_PENALTY <= points <= MAX_PENALTY and points):
            problems.add(
                f"{where}.points: a whole number from -{MAX_PENALTY} to {MAX_PENALTY} other than 0, "
                f"not {shown(points)}"
            )
        kwargs["points"] = points
    if op == "coin":
        heads: tuple[Step, ...] = ()
        tails: tuple[Step, ...] = ()
        with problems.check():
            heads = parse_steps(values["heads"], f"{where}.heads", types, depth + 1)
        with problems.check():
            tails = parse_steps(values["tails"], f"{where}.tails", types, depth + 1)
        if not heads and not tails and not problems.found:
            problems.add(f"{where}: a coin needs steps for heads or tails")
        kwargs["heads"], kwargs["tails"] = heads, tails
    if op == "choose":
        with problems.check():
            kwargs["options"] = _options(values["options"], f"{where}.options", types, depth)
    problems.raise_any()
    return Step(op=op, **kwargs)


def _options(options: Any, where: str, types: Set[str], depth: int) -> tuple[Option, ...]:
    """The options of a ``choose`` step, each with a label and its steps."""
    if not isinstance(options, list) or not 2 <= len(options) <= MAX_OPTIONS:
        raise DeckError(f"{where}: a list of 2 to {MAX_OPTIONS} options")
    problems = Problems()
    parsed = []
    for i, option in enumerate(options):
        here = f"{where}[{i}]"
        if not isinstance(option, Mapping):
            problems.add(f"{here}: an option is a table {{label = \"...\", effects = [...]}}")
            continue
        with problems.check():
            _check_keys(option, ("label", "effects"), here)
        label = option.get("label")
        if not isinstance(label, str) or not label.strip() or len(label) > MAX_LABEL:
            problems.add(f"{here}.label: an option needs a label, text of at most {MAX_LABEL} characters")
            label = ""
        with problems.check():
            parsed.append(Option(label.strip(), parse_steps(option.get("effects", []), f"{here}.effects",
                                                            types, depth + 1)))
    problems.raise_any()
    return tuple(parsed)


def parse_steps(value: Any, where: str, types: Set[str], depth: int = 0) -> tuple[Step, ...]:
    """A list of steps; the problems of every step are reported together."""
    if not isinstance(value, list):
        raise DeckError(f"{where}: expected a list of steps")
    problems = Problems()
    steps = []
    for i, table in enumerate(value):
        with problems.check():
            steps.append(parse_step(table, f"{where}[{i}]", types, depth))
    problems.raise_any()
    return tuple(steps)


def walk(steps: Sequence[Step]) -> list[Step]:
    """Every step, nested ones (coin, choose) included, in order."""
    out: list[Step] = []
    for step in steps:
        out.append(step)
        out.extend(walk(step.heads))
        out.extend(walk(step.tails))
        for option in step.options:
            out.extend(walk(option.effects))
    return out
