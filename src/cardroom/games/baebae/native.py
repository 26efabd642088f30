"""BAEBAE on the native engine: :class:`NativeBaebaeState`, the State protocol over the C++ core.

The deck is compiled into a flat program of int steps (:mod:`~cardroom.games.baebae.program`);
the core (``native/cardroom/baebae.hpp``) runs it and takes the actions, writing the same
events as the Python engine, from the same chance stream. What a seat may know (views, the
filtered log, determinization, the observation), the words of a refusal and the text forms of
actions come from the Python reference itself, run on a copy of the position
(:meth:`NativeBaebaeState.reference`): one source of truth for them. A determinized world
comes back on the native engine.

Every step of the deck language runs natively: :data:`UNSUPPORTED` lists the interpreter's ops
this build of the core lacks (none), and a game is refused in words, never played on Python
in silence, when its deck would need one.

>>> from cardroom import native
>>> rules = Rules(players=4)
>>> if native.available():  # the same game on either engine
...     assert NativeBaebaeState.start(rules, 7).log == BaebaeState.start(rules, 7).log
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from cardroom.engine import SPLITMIX, TWISTER, Action, IllegalAction, RulesError, check_seed, check_totals
from cardroom.games.baebae.actions import ActionSpace
from cardroom.games.baebae.deal import Deal, check_deal
from cardroom.games.baebae.determinize import knowledge
from cardroom.games.baebae.interpreter import Phase
from cardroom.games.baebae.program import Program, compile_rules, unsupported
from cardroom.games.baebae.reward import rounds_left, win_returns
from cardroom.games.baebae.rules import Rules
from cardroom.games.baebae.state import BaebaeState
from cardroom.games.baebae.state_base import FIELDS, MAKER, NATIVE_FACE, BaebaeNativeFields, native_values
from cardroom.games.baebae.views import visible_event
from cardroom.native import available, core, face

__all__ = [
    "NativeBaebaeState", "NativeHeuristic", "LIMIT", "UNSUPPORTED", "POLICIES", "BatchFound", "BatchGames",
    "agent_games", "gaps", "heuristic_games", "loaded_rules", "native_state", "random_games",
    "refuse_lacking", "restricted_games", "table_games",
]

LIMIT = 1 << 62
"""The native engine keeps totals in 64 bits: starting totals of a smaller size."""

_PHASES = (Phase.PLAY, Phase.DRAWN, Phase.DECIDE, Phase.OVER)
_KINDS = ("optional", "declare", "target", "option", "select")
_PURPOSES = ("", "discard", "discard_under", "give")

NativeKnowledge = tuple[int, list[list[int]], list[list[tuple[list[int], int]]], list[int]]
"""A seat's knowledge as the native determinizer takes it (:meth:`NativeBaebaeState.native_knowledge`)."""

UNSUPPORTED: tuple[str, ...] = tuple(unsupported(core().baebae_ops())) if available() else ()
"""The interpreter's ops this build of the native core cannot run (empty: every step runs)."""


def gaps() -> str | None:
    """What the native core lacks for BAEBAE, in words, or ``None`` when it runs every deck."""
    if not UNSUPPORTED:
        return None
    return f"BAEBAE steps {', '.join(UNSUPPORTED)} are not in this native core"


def refuse_lacking(rules: Rules) -> None:
    """Refuse, in words, a deck that needs a step this core lacks (never played on Python unsaid)."""
    if UNSUPPORTED:
        lacking = sorted(set(UNSUPPORTED) & compile_rules(rules).used)
        if lacking:
            raise RulesError(f"the native engine cannot play this deck: its steps {', '.join(lacking)} "
                             f"are not in this native core; use CARDROOM_ENGINE=python")


@functools.lru_cache(maxsize=32)
def loaded_rules(rules: Rules) -> tuple[Program, Any, ActionSpace]:
    """The rules' compiled program, it loaded into the core, and the action space (immutable,
    shared by every game of the rules): made once per rules, not at every new game."""
    program = compile_rules(rules)
    space = ActionSpace(len(rules.cards), rules.players, rules.max_options)
    return program, core().BaebaeProgram(program, list(rules.card_texts)), space


_FRESH: dict[int, tuple[Rules, Program, ActionSpace, Any]] = {}
"""Per rules (by identity, the rules held): the program, the action space and the core's start
arguments of a game with no hand-made deal or totals, read once (a lookup by ``id`` costs less
than hashing the rules at every new game)."""


@face.per_rules
def core_rules(rules: Rules) -> Any:
    """The rules as one object of the core (``BaebaeRules``, made from the rules whole: each option
    the core reads by its name, ``native/cardroom/baebae.hpp``'s list; and the compiled deck,
    :func:`loaded_rules`), which every function of the core that plays BAEBAE takes whole: made
    once per rules."""
    return core().BaebaeRules(rules, loaded_rules(rules)[1])


def _fresh(rules: Rules) -> tuple[Rules, Program, ActionSpace, Any]:
    refuse_lacking(rules)
    program, _, space = loaded_rules(rules)
    args = core_rules(rules)
    if len(_FRESH) >= 64:
        _FRESH.clear()
    made = _FRESH[id(rules)] = (rules, program, space, args)
    return made


_START: Any = core().baebae_start if available() else None

_NO_FIELDS: tuple[str, ...] = ()

if TYPE_CHECKING:  # the core type's fields, as the table declares them
    _Core = BaebaeNativeFields
else:  # not a base class at run time: one more class in the MRO costs every attribute read
    _Core = core().BaebaeCore if available() else object
"""The native game type (``native/cardroom/baebae_module.hpp``): the per-action calls, in C++."""


class NativeBaebaeState(face.NativeState, _Core):
    """A game of BAEBAE on the native engine. Made by ``Rules(...).new_game(seed)`` when the
    native engine is chosen (``CARDROOM_ENGINE=native``, the default where it is built), or by
    :meth:`start`.

    The calls every move makes are the core type's own, in C: ``legal_actions()``,
    ``apply(action)`` (a legal int; anything else comes to :meth:`_apply_other`), ``clone()``,
    ``current_player``, ``is_over``, ``scores``, ``log``, ``history``, ``deal_number``, and the
    fields of :class:`~cardroom.games.baebae.state.BaebaeState` the observation encoder reads
    (``hands``, ``discard``, ``stock``, ``suit``, ``pending``...): every field the core holds has
    its getter, made from the table (``games/baebae/fields.py``; their types
    :class:`~cardroom.games.baebae.state_base.BaebaeNativeFields`'), and the caches it does not
    keep are read from the reference position. The type is a plain CPython one
    (``native/cardroom/baebae_module.hpp``), with no pybind11 dispatch on these calls; it holds the
    Python face's fields too (``rules``, ``seed``, ``n``, ``origin``, ``space``), so ``clone()`` is
    one call in C."""

    __slots__ = _NO_FIELDS  # every field is the core type's
    PHASES = _PHASES
    VISIBLE = visible_event
    CORE = "baebae"  # its functions: baebae_load, baebae_infer_chances
    FACE = NATIVE_FACE

    KINDS = _KINDS
    PURPOSES = _PURPOSES
    _program: Program
    _ref: BaebaeState | None

    @classmethod
    def start(
        cls, rules: Rules, seed: object, *, deal: Deal | None = None, totals: Sequence[int] | None = None
    ) -> NativeBaebaeState:
        """A new game, checked as :meth:`BaebaeState.start` checks it (the same refusals)."""
        if deal is None and totals is None:  # the common start, every game of a simulation or a table
            if type(seed) is not int:
                seed = check_seed(seed)
            fresh = _FRESH.get(id(rules))
            if fresh is None or fresh[0] is not rules:
                fresh = _fresh(rules)
            _, program, space, args = fresh
            self = cls.__new__(cls)
            self.rules, self.seed, self.n, self.origin = rules, seed, rules.players, None
            self.space, self._program = space, program
            _START(self, args, str(seed), 0, [0] * rules.players, None)
            return self
        seed = check_seed(seed)
        n = rules.players
        start_totals = [0] * n if totals is None else check_totals(totals, n)
        first = check_deal(rules, deal, seed) if deal is not None else None
        if totals is not None and any(abs(t) >= LIMIT for t in start_totals):
            raise RulesError(f"the native engine takes totals within 2**62 of zero; "
                             f"use CARDROOM_ENGINE=python for totals {start_totals}")
        refuse_lacking(rules)
        origin: dict[str, Any] | None = None
        if deal is not None or totals is not None:
            origin = {"totals": start_totals[:]}
            if deal is not None:
                origin["deal"] = {"hands": [list(h) for h in deal.hands], "starter": deal.starter,
                                  "stock": list(deal.stock), "dealer": deal.dealer}
        program, _, space = loaded_rules(rules)
        self = cls.__new__(cls)
        self.rules, self.seed, self.n, self.origin = rules, seed, n, origin
        self.space, self._program = space, program
        core().baebae_start(
            self, core_rules(rules), str(seed), deal.dealer if deal is not None else 0, start_totals, first,
        )
        return self

    # -- the protocol (the per-action calls are the core type's; the rest shared, NativeState) --

    @property
    def winner(self) -> int | None:
        return self.reference().winner if self.is_over else None

    def returns(self) -> list[float]:
        """As :meth:`BaebaeState.returns`: how far each total is below the table's mean, in tens."""
        totals = self.scores
        mean = sum(totals) / self.n
        return [(mean - t) / 10 for t in totals]

    def win_returns(self, temperature: float) -> list[float]:
        """As :meth:`BaebaeState.win_returns`: each seat's share of the win, less 1/n."""
        left = rounds_left(self.rules.rounds, self.round_no, self.is_over)
        return win_returns(self.totals, left, temperature)

    # -- the Python reference, for what a seat may know and the words of refusals --------

    def reference(self) -> BaebaeState:
        """This position on the Python engine (a copy: changing it changes nothing here)."""
        ref = self._ref
        if ref is None:
            ref = self._ref = self._reference()
        return ref

    def _reference(self) -> BaebaeState:
        state = BaebaeState(self.rules, self.seed, MAKER)
        state.unpickled(native_values(self))  # every field read by name (the table's)
        return state

    def native_knowledge(self, seat: int) -> NativeKnowledge:
        """What ``seat`` knows of the hidden cards, in design numbers as the native determinizer
        takes it: the seat; per seat the designs known in its hand and its groups (the designs
        each cannot hold, how many cards); the pool. Read in C++ from the seat's view of the
        round's events (``native/cardroom/baebae_knowledge.hpp``), the reference's
        ``determinize.knowledge`` rule for rule (:meth:`reference_knowledge`, which the tests
        hold it to)."""
        self._check_seat(seat)
        found: NativeKnowledge = core().baebae_knowledge(self, seat)
        return found

    def reference_knowledge(self, seat: int) -> NativeKnowledge:
        """:meth:`native_knowledge` as the Python reference reads it (``determinize.knowledge``
        on the reference position), in the same form."""
        self._check_seat(seat)
        know = knowledge(self.reference(), seat)
        design = self.rules.design_of_key
        designs = len(self.rules.cards)
        return (
            seat,
            [[design[k.upper()] for k, count in sorted(known.items()) for _ in range(count)]
             for known in know.known],
            [[([d for d in range(designs) if forbidden >> d & 1], count) for forbidden, count in groups]
             for groups in know.groups],
            [design[k.upper()] for k in know.pool],
        )

    def native_determinize(self, seat: int, seed: int) -> tuple[NativeBaebaeState, bool]:
        """A world dealt by the native determinizer (``native/cardroom/ismcts_baebae.hpp``) from
        :meth:`native_knowledge`, from its stream for ``seed``; and whether it met the groups of
        what hands cannot hold (else it was dealt without them, as the reference does after its
        tries)."""
        world = self.clone()
        seed_text, grouped = core().baebae_determinize(
            world, self, self.native_knowledge(seat), seed % 2**64, self.view_log(seat))
        world.seed, world.origin = int(seed_text), None
        return world, grouped

    def _search(self, seat: int, options: Any) -> tuple[Action, int, list[tuple[int, int, float]]]:
        """The native search (:meth:`native_ismcts`) for ``seat``, ``options`` the core's one
        object: what the seat knows is read once, in C++ (:meth:`native_knowledge`), and every
        world is dealt in C++; ``reward`` ``win`` backs up :meth:`win_returns`, ``horizon``
        ``game`` plays roll-outs to the game's end (``native/cardroom/baebae_infer.hpp`` weighs
        the worlds of ``infer``)."""
        knowledge = self.native_knowledge(seat)  # a seat out of range is refused here, in words
        observed = core().baebae_observed(self, seat) if options.infer else []
        found: tuple[Action, int, list[tuple[int, int, float]]] = core().baebae_ismcts(
            self, knowledge, options, observed)
        return found

    def public_action(self, action: Action, seat: int) -> Action:
        return self.reference().public_action(action, seat)

    def card_texts(self, mask: int) -> list[str]:
        return self.reference().card_texts(mask)

    def __repr__(self) -> str:
        return (f"<NativeBaebaeState players={self.n} round={self.round_no} phase={self.phase.value} "
                f"turn={self.turn} totals={self.totals}>")


_READ_THROUGH = frozenset(FIELDS) | {
    "card_def", "card_text", "designs_in", "holds_design", "next_seat", "card",
}
"""The reference's card tables (card_def, designs_in...) and the fields the core does not keep
(its caches) a native state reads from its reference position, read-only: what the observation
encoder and the tests read of a BAEBAE state beyond the core type's own getters."""


def _read_through(name: str) -> property:
    def read(self: NativeBaebaeState) -> Any:
        return getattr(self.reference(), name)

    read.__name__ = name
    return property(read, doc=f"``BaebaeState.{name}``, read from the reference position.")


# Properties, not a __getattr__: a class with __getattr__ pays for it on every attribute read,
# the per-action calls included.
for _name in sorted(_READ_THROUGH - {"rules", "seed", "n", "origin", "space"}):
    if not hasattr(NativeBaebaeState, _name):
        setattr(NativeBaebaeState, _name, _read_through(_name))


def native_state(state: BaebaeState | NativeBaebaeState) -> NativeBaebaeState:
    """``state`` on the native engine: itself if it is native, else the same position made
    native from its fields (as a pickled native state is)."""
    made: NativeBaebaeState = face.to_native(NativeBaebaeState, state)
    return made


class NativeHeuristic:
    """BAEBAE's heuristic player on the native engine (``native/cardroom/baebae_heuristic.hpp``):
    the choice :class:`~cardroom.agents.baebae_heuristic.BaebaeHeuristic` makes on the same
    position, with the same tie-break draws from its seed's generator on ``stream``
    (:func:`cardroom.engine.seeded_rng`)."""

    name = "heuristic"

    def __init__(self, seed: int, stream: str = TWISTER) -> None:
        self._player = core().BaebaeHeuristic(seed, stream == SPLITMIX)

    def act(self, state: NativeBaebaeState, seat: int) -> Action:
        if state.current_player != seat:
            raise IllegalAction(f"seat {seat} is not to act")
        choice: Action = self._player.act(state)
        return choice

    def random(self) -> float:
        """The next draw of its generator (a test sees both players drew alike)."""
        draw: float = self._player.random()
        return draw


POLICIES = face.POLICIES
"""The agents a native batch plays (:data:`cardroom.native.face.POLICIES`, every game's)."""


class BatchFound(face.BatchFound):
    """What the core's ``baebae_games`` returns (``native/cardroom/baebae_module.hpp``), one
    entry a game: every game's lists and BAEBAE's own; see :class:`BatchGames`."""

    winner_lists: list[list[int]]


class BatchGames(face.BatchGames):
    """BAEBAE's games of a native batch (:class:`cardroom.native.face.BatchGames`): beside every
    game's lists (its ``deal_points`` the penalties of every round; its extras the blocked and
    guard-stopped rounds), per game its winners (every seat in first place; none when the
    action guard stopped it)."""

    __slots__ = ("winner_lists",)

    def __init__(self, players: int, found: BatchFound) -> None:
        super().__init__(players, found)
        self.winner_lists: list[list[int]] = found["winner_lists"]


BATCHES = face.Batches("a native BAEBAE batch", core_rules, "baebae_games",
                       lambda rules, found: BatchGames(rules.players, cast(BatchFound, found)),
                       "cardroom.games.baebae.native_tables", refuse_lacking)
"""BAEBAE's native batches (:class:`cardroom.native.face.Batches`): the functions below."""
agent_games = BATCHES.agent_games
table_games = BATCHES.table_games
random_games = BATCHES.random_games
heuristic_games = BATCHES.heuristic_games


def restricted_games(
    rules: Rules, seeds: Sequence[int], seats: Sequence[int], never_play: int, never_action: int,
    max_actions: int = 200_000,
) -> dict[str, list[int]]:
    """Restricted play natively (``native/cardroom/baebae_restricted.hpp``): game ``i`` of seed
    ``seeds[i]`` between heuristic players seeded as simulate seeds them, seat ``seats[i]``
    (-1: none) never playing the design of index ``never_play`` while another action is legal
    and never carrying out the optional action of design ``never_action`` (-1: none): the
    games :class:`~cardroom.agents.restricted.RestrictedAgent` plays. Per game ``totals`` and
    ``winners`` (flat, a row of ``players`` each), ``stopped``, and the restricted seat's
    ``forced`` plays, ``declined`` actions and ``avoided`` plays."""
    if len(seeds) != len(seats):
        raise RulesError(f"one restricted seat a game: {len(seeds)} seeds, {len(seats)} seats")
    face.check_seeds("every seed", min(seeds, default=0), max(seeds, default=0), len(seeds), max_actions)
    refuse_lacking(rules)
    found: dict[str, list[int]] = core().baebae_restricted_games(
        core_rules(rules), list(seeds), list(seats), never_play, never_action, max_actions,
    )
    return found
