"""BAEBAE's deck compiled into a flat program of int steps, for the native interpreter.

The deck language, its validation and its error messages stay in Python (``deck.py``,
``effects.py``); a validated deck is compiled here into ints that the C++ interpreter
(``native/cardroom/baebae.hpp``) runs step for step as :mod:`~cardroom.games.baebae.interpreter`
does. Every step list the interpreter may run (a card's action, a coin's heads or tails, a
``choose`` option, the steps a card's marks add, the question of an optional action, the end of
the turn) is one *list*: a run of consecutive step records in :attr:`Program.steps`, each
:data:`STEP_WIDTH` ints wide. A card filter becomes, per design, whether it matches: the
native side never reads a type, a mark or a name.

>>> from cardroom.games.baebae import Rules
>>> program = compile_rules(Rules())
>>> len(program.steps) % STEP_WIDTH, program.ops == OPS
(0, True)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

from cardroom.games.baebae.deck import CardDef
from cardroom.games.baebae.effects import STEPS, TARGETS, CardFilter, Step, Target
from cardroom.games.baebae.interpreter import ASK_OPTIONAL, DECLARE, END_TURN, program_marks
from cardroom.games.baebae.rules import Rules

__all__ = ["OPS", "STEP_WIDTH", "TARGET_KINDS", "Program", "compile_rules", "unsupported"]

OPS = (*STEPS, ASK_OPTIONAL.op, END_TURN.op)
"""Every op the interpreter runs, in the order of the native ``Op`` codes: the deck language's
steps, then the two the interpreter adds (ask whether an optional action is carried out; end
the turn)."""
TARGET_KINDS = (*TARGETS, "holding")
"""Target kinds in the order of the native codes; -1 is no target."""
STEP_WIDTH = 12
"""Ints per step record: op, who, who's filter, to, count, filter, points, heads list, tails
list, first option, options, whether it is the wild mark's declare (which an action that
already named a suit skips)."""


def unsupported(native_ops: Sequence[str]) -> list[str]:
    """The interpreter's ops that a native core (which runs ``native_ops``, in code order) lacks,
    or runs under another code: each would make a deck using it unplayable natively."""
    return [op for i, op in enumerate(OPS) if i >= len(native_ops) or native_ops[i] != op]


@dataclass(eq=False)
class Program:
    """A deck and the options that shape its tables, as ints (see the module's notes)."""

    ops: tuple[str, ...] = OPS
    steps: list[int] = field(default_factory=list)
    """Step records, :data:`STEP_WIDTH` ints each."""
    lists: list[int] = field(default_factory=list)
    """Per list: its first step record and its length."""
    options: list[int] = field(default_factory=list)
    """Per ``choose`` option: its label (an index into :attr:`labels`) and its list."""
    labels: list[str] = field(default_factory=list)
    filters: list[int] = field(default_factory=list)
    """Per filter, per design: 1 when the design matches it."""
    designs: list[int] = field(default_factory=list)
    """Per design: rank, suit, wild, declares, optional, can_win, on_start, has marks, effects
    list (-1: none), marks list (the marks' steps and the end of the turn), penalty, and the
    reverse and skip marks (which the native heuristic reads)."""
    card_of: list[int] = field(default_factory=list)
    ask_optional: int = -1
    end_turn: int = -1
    tuples: list[tuple[Step, ...]] = field(default_factory=list)
    """The Python steps of each list (for the reference position's frames)."""
    list_of: dict[tuple[Step, ...], int] = field(default_factory=dict)
    """Each list's number, by its steps' value (a frame of the reference position back to native)."""
    used: set[str] = field(default_factory=set)
    """The ops the program runs."""

    _filter_of: dict[CardFilter, int] = field(default_factory=dict)
    _cards: tuple[CardDef, ...] = ()

    def filter_id(self, card_filter: CardFilter | None) -> int:
        if card_filter is None:
            return -1
        found = self._filter_of.get(card_filter)
        if found is None:
            found = self._filter_of[card_filter] = len(self._filter_of)
            self.filters += [int(card_filter.matches(c.types, c.suit, c.rank, c.marks)) for c in self._cards]
        return found

    def target(self, target: Target | None) -> tuple[int, int]:
        if target is None:
            return -1, -1
        return TARGET_KINDS.index(target.kind), self.filter_id(target.holding)

    def list_id(self, steps: tuple[Step, ...], mark_declare: bool = False) -> int:
        """The list of ``steps`` (compiled once per value); ``mark_declare``: a first step that is
        the wild mark's declare (the ``DECLARE`` object of a marks program)."""
        found = self.list_of.get(steps)
        if found is not None:
            return found
        records: list[list[int]] = []
        for i, step in enumerate(steps):
            self.used.add(step.op)
            who, who_filter = self.target(step.who)
            to, _ = self.target(step.to)
            option_lists = [(opt.label, self.list_id(opt.effects)) for opt in step.options]
            first_option = len(self.options) // 2  # after the options' own lists (a choice nested in one)
            for label, effects in option_lists:
                self.options += [len(self.labels), effects]
                self.labels.append(label)
            records.append([
                OPS.index(step.op), who, who_filter, to, step.count, self.filter_id(step.filter), step.points,
                self.list_id(step.heads) if step.heads else -1,
                self.list_id(step.tails) if step.tails else -1,
                first_option, len(step.options), int(mark_declare and i == 0 and step is DECLARE),
            ])
        number = len(self.lists) // 2
        self.lists += [len(self.steps) // STEP_WIDTH, len(records)]
        for record in records:
            self.steps += record
        self.tuples.append(steps)
        self.list_of[steps] = number
        return number


@functools.lru_cache(maxsize=32)
def compile_rules(rules: Rules) -> Program:
    """The flat program of ``rules``' deck (compiled once per rules)."""
    return _compiled(rules.cards, rules.card_of, tuple(rules.penalties))


def _compiled(cards: tuple[CardDef, ...], card_of: tuple[int, ...], penalties: tuple[int, ...]) -> Program:
    program = Program(_cards=cards, card_of=list(card_of))
    program.end_turn = program.list_id((END_TURN,))
    program.ask_optional = program.list_id((ASK_OPTIONAL,))
    for card, penalty in zip(cards, penalties, strict=True):
        effects = program.list_id(card.effects) if card.effects else -1
        marks = program.list_id(program_marks(card) + (END_TURN,), mark_declare=True)
        program.designs += [
            card.rank, card.suit, int(card.wild), int(card.declares), int(card.optional), int(card.can_win),
            int(card.on_start), int(bool(card.marks)), effects, marks, penalty, int("reverse" in card.marks),
            int("skip" in card.marks),
        ]
    return program
