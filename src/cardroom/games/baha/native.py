"""Baha on the native engine: :class:`NativeBahaState`, the State protocol over the C++ core.

The core (``native/cardroom/baha.hpp``) holds the game and takes the actions, writing the same
events as the Python engine; this class is its face for every front, with the fields of
:class:`~cardroom.games.baha.state.BahaState` read from the core, so the observation encoder
and the heuristic read either engine alike. What a seat may know (views, the filtered log,
determinization) and the words of a refusal come from the Python reference itself, run on a
copy of the position (:meth:`NativeBahaState.reference`): one source of truth for them. A
determinized world comes back on the native engine.

>>> from cardroom.games import baha
>>> from cardroom import native
>>> if native.available():
...     state = NativeBahaState.start(baha.Rules(players=4), 7)
...     python = BahaState.start(baha.Rules(players=4), 7)
...     assert state.log == python.log and state.legal_actions() == python.legal_actions()
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from cardroom.engine import Action, RulesError, check_seed, check_totals, check_whole
from cardroom.games.baha.actions import CARD_TEXT, NUM_ACTIONS, Phase, card_texts
from cardroom.games.baha.deal import check_deal
from cardroom.games.baha.rules import Deal, Rules
from cardroom.games.baha.state import BahaState, unpickle
from cardroom.games.baha.state_base import NATIVE_FACE, BahaNativeFields, native_values
from cardroom.games.baha.views import Observation, visible_event
from cardroom.native import available, core, face

__all__ = [
    "NativeBahaState", "LIMIT", "POLICIES", "BatchFound", "BatchGames", "agent_games", "gaps",
    "heuristic_games", "native_state", "random_games", "table_games",
]

LIMIT = 1 << 62
"""The native engine keeps totals and hand numbers in 64 bits: starting values below this."""

_PHASES = (Phase.PASS, Phase.PLAY, Phase.OVER)


if TYPE_CHECKING:  # the core type's fields, as the table declares them
    _Core = BahaNativeFields
else:  # not a base class at run time: one more class in the MRO costs every attribute read
    _Core = core().BahaCore if available() else object
_NO_FIELDS: tuple[str, ...] = ()
"""The native state type (``native/module.cpp``): the per-action calls and the fields, in C."""


class NativeBahaState(face.NativeState, _Core):
    """A game of Baha on the native engine. Made by ``Rules(...).new_game(seed)`` when the
    native engine is chosen (``CARDROOM_ENGINE=native``), or by :meth:`start`.

    The calls every move makes are the core type's own, in C: ``legal_actions()``,
    ``apply(action)`` (a legal int; anything else comes to :meth:`_apply_other`),
    ``clone()``, ``current_player``, ``is_over``, ``scores``, ``log``, ``history``,
    ``deal_number``, ``winner``, and ``BahaState``'s fields (``hands``, ``taken``, ``trick``,
    ``voids``...) that the observation encoder and the heuristic read. The rest of the
    protocol is here, in Python. The fields' types are
    :class:`~cardroom.games.baha.state_base.BahaNativeFields`' (from the table,
    ``games/baha/fields.py``)."""

    __slots__ = _NO_FIELDS  # every field is the core type's
    PHASES = _PHASES
    VISIBLE = visible_event
    CORE = "baha"  # its functions: baha_load, baha_infer_chances
    FACE = NATIVE_FACE

    _ref: BahaState | None


    @classmethod
    def start(
        cls,
        rules: Rules,
        seed: object,
        *,
        deal: Deal | None = None,
        totals: Sequence[int] | None = None,
        hand: object = 1,
    ) -> NativeBahaState:
        """A new game, checked as :meth:`BahaState.start <cardroom.games.baha.state.BahaState.start>`
        checks it (the same refusals, in the same order)."""
        seed = check_seed(seed)
        n = rules.players
        hand = check_whole(hand, "hand", 1)
        start_totals = check_totals(totals, n, least=0) if totals is not None else [0] * n
        dealt = check_deal(rules, deal) if deal is not None else None
        if hand >= LIMIT or max(start_totals) >= LIMIT:
            raise RulesError(
                f"the native engine takes hand numbers and totals below 2**62; "
                f"use CARDROOM_ENGINE=python for hand {hand} and totals {start_totals}"
            )
        origin: dict[str, Any] | None = None
        if deal is not None or totals is not None or hand != 1:
            origin = {"hand": hand, "totals": list(start_totals)}
            if dealt is not None:
                origin["deal"] = {
                    "hands": [card_texts(h) for h in dealt[0]],
                    "leftover": card_texts(dealt[1]),
                    "draw_pile": [CARD_TEXT[c] for c in dealt[2]],
                    "dealer": dealt[3],
                }
        state = cls.__new__(cls)
        state.rules, state.seed, state.n, state.origin = rules, seed, n, origin
        core().baha_start(state, core_rules(rules), str(seed), hand, start_totals, dealt)
        return state

    # -- the protocol (the per-action calls are the core type's; the rest shared, NativeState) --

    def returns(self) -> list[float]:
        """As :meth:`BahaState.returns`: each seat's total below the table's mean, in moons."""
        totals = self.scores
        mean = sum(totals) / self.n
        unit = self.rules.points_per_hand
        return [(mean - t) / unit for t in totals]

    def public_action(self, action: Action, seat: int) -> Action:
        """``action`` as ``seat`` sees it: itself, or -1 for another seat's pass pick."""
        if action >= NUM_ACTIONS // 2 and self.turn != seat:
            return -1
        return action

    def random_playout(self, random: Callable[[], float]) -> None:
        """As :meth:`BahaState.random_playout`: the same moves for the same ``random``, the card
        play quiet, the hand scored and the next one not dealt."""
        core().baha_random_playout(self, random)

    # -- the Python reference, for what a seat may know and the words of refusals ------

    def reference(self) -> BahaState:
        """This position on the Python engine (a copy: changing it changes nothing here)."""
        ref = self._ref
        if ref is None:
            ref = self._ref = unpickle(self.rules, self.seed, native_values(self))
        return ref

    def native_determinize(self, seat: int, seed: int) -> NativeBahaState:
        """A world for ``seat`` dealt by the native determinizer (``baha_determinize.hpp``): the
        same worlds as :meth:`determinize` can deal (the same knowledge, the same constraints),
        drawn from the native search's stream for ``seed`` rather than from a Python ``rng``."""
        self._check_seat(seat)
        world: NativeBahaState = self.clone()
        world.seed = core().baha_determinize(world, self, seat, seed % 2**64, self.view_log(seat))
        world.origin = None
        return world

    def native_knowledge(self, seat: int) -> dict[str, Any]:
        """What ``seat`` knows of the hidden cards, as the native determinizer reads it from the
        seat's view of the hand (the fields of :class:`~cardroom.games.baha.determinize.Knowledge`)."""
        self._check_seat(seat)
        knowledge: dict[str, Any] = core().baha_knowledge(self, seat)
        return knowledge

    def _search(self, seat: int, options: Any) -> tuple[Action, int, list[tuple[int, int, float]]]:
        """The native search (:meth:`native_ismcts`) for ``seat``, ``options`` the core's one object."""
        self._check_seat(seat)
        found: tuple[Action, int, list[tuple[int, int, float]]] = core().baha_ismcts(self, seat, options)
        return found

    def observation(self, seat: int) -> Observation:
        """As ``views.observation`` (the same fields, read from the core: the heuristic asks
        for one at every move, so no reference position is made for it)."""
        n, leader = self.n, self.leader
        return Observation(
            seat=seat, rules=self.rules, phase=_PHASES[self.phase_code], hand=self.hands[seat],
            trick=tuple(((leader + i) % n, c) for i, c in enumerate(self.trick)), played=self.played,
            horns_shown=self.horns_shown(), voids=tuple(self.voids), totals=tuple(self.totals),
        )

    def horns_shown(self) -> tuple[int, ...]:
        """The points each seat took face up this hand (as ``views.horns_shown``)."""
        hand_points = self.rules.hand_points
        return tuple(hand_points(t & ~f) for t, f in zip(self.taken, self.face_down, strict=True))

    def is_legal(self, action: Action) -> bool:
        return self.illegal_reason(action) is None

    def __repr__(self) -> str:
        return (
            f"<NativeBahaState players={self.n} hand={self.hand_no} phase={self.phase.value} "
            f"turn={self.turn} totals={self.totals}>"
        )


def native_state(state: BahaState | NativeBahaState) -> NativeBahaState:
    """``state`` on the native engine: itself if it is native, else the same position made
    native from its fields (as a pickled native state is)."""
    made: NativeBahaState = face.to_native(NativeBahaState, state)
    return made


def gaps() -> str | None:
    """What the native core lacks for Baha, in words: nothing (``None``)."""
    return None


POLICIES = face.POLICIES
"""The agents a native batch plays (:data:`cardroom.native.face.POLICIES`, every game's)."""


class BatchFound(face.BatchFound):
    """What the core's ``baha_games`` returns (``native/cardroom/baha_batch.hpp``), one entry a
    game: every game's lists and Baha's own; see :class:`BatchGames`."""

    hands: list[int]
    moons: list[int]


class BatchGames(face.BatchGames):
    """Baha's games of a native batch (:class:`cardroom.native.face.BatchGames`): beside every
    game's lists, per game the hands dealt and the moons shot."""

    __slots__ = ("hands", "moons")

    def __init__(self, players: int, found: BatchFound) -> None:
        super().__init__(players, found)
        self.hands: list[int] = found["hands"]
        self.moons: list[int] = found["moons"]


@face.per_rules
def core_rules(rules: Rules) -> Any:
    """The rules as one object of the core (``BahaRules``, made from the rules whole: each option
    the core reads by its name, ``native/cardroom/baha.hpp``'s list), which every function of
    the core that plays Baha takes whole: made once per rules."""
    return core().BahaRules(rules)


BATCHES = face.Batches("a native batch", core_rules, "baha_games",
                       lambda rules, found: BatchGames(rules.players, cast(BatchFound, found)),
                       "cardroom.games.baha.native_tables")
"""Baha's native batches (:class:`cardroom.native.face.Batches`): the functions below."""
agent_games = BATCHES.agent_games
table_games = BATCHES.table_games
random_games = BATCHES.random_games
heuristic_games = BATCHES.heuristic_games
