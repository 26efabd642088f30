"""The fields of a Baha state (:class:`~cardroom.games.baha.state.BahaState`'s base).

Generated from :mod:`cardroom.games.baha.fields` by ``python -m cardroom.games.fieldgen``:
edit the table, not this file."""

from __future__ import annotations

from typing import Any, Final

from cardroom.cards import Card, CardMask
from cardroom.engine import Action, Event
from cardroom.games.baha.actions import Phase
from cardroom.games.baha.rules import Rules

__all__ = ["FIELDS", "MAKER", "BahaFields", "NATIVE_FACE", "BahaNativeFields", "native_values"]

MAKER: Final = object()
"""The key only the state's own factories hold to make one (see ``BahaFields.__init__``)."""

FIELDS: Final = (
    "rules", "seed", "n", "hand_no", "dealer", "phase", "turn", "hands", "taken", "face_down",
    "picks", "passed", "received", "leftover", "draw_pile", "trick", "leader", "tricks_done",
    "pass_offset", "played", "voids", "totals", "winner", "log", "last_trick", "hand_start",
    "origin", "history", "det_cache", "shown_cache",
)
"""Every field of the state: its slots, and what pickling carries."""


class BahaFields:
    """The state's fields (one line of the table each), the copy ``clone`` makes, what pickles."""

    __slots__ = FIELDS

    rules: Rules
    seed: int
    n: int
    hand_no: int
    dealer: int
    phase: Phase
    turn: int | None
    hands: list[CardMask]
    taken: list[CardMask]  # every card each seat took this hand, face down ones too
    face_down: list[CardMask]  # the part of ``taken`` nobody else has seen (B4, B10)
    picks: list[CardMask]  # cards chosen for the pass, not yet given
    passed: list[CardMask]  # cards each seat gave in this hand's pass
    received: list[CardMask]
    leftover: CardMask  # face-down cards waiting for the first trick's taker
    draw_pile: list[Card]  # top first
    trick: list[Card]
    leader: int
    tricks_done: int
    pass_offset: int
    played: CardMask
    voids: list[int]  # colours (bits 0..3) each seat is known to lack now
    totals: list[int]
    winner: int | None
    log: list[Event]  # events are shared: never changed once logged
    last_trick: dict[str, Any] | None
    hand_start: int  # index in ``log`` of this hand's ``hand`` event
    origin: dict[str, Any] | None  # how a hand-made game began, for records
    history: list[tuple[int, Action]]  # (seat, action) of every action, for records
    det_cache: dict[int, tuple[int, Any]]  # determinize's knowledge per seat: a cache, never copied
    shown_cache: tuple[int, int, tuple[int, ...]] | None  # views': (hand, tricks done, horns shown per seat)

    def __init__(self, rules: Rules, seed: int, key: object) -> None:
        # Only the state's factories (start, clone, unpickling) make states and fill in the
        # rest, with the key only they hold.
        if key is not MAKER:
            raise TypeError("a Baha game is made by Rules(...).new_game(seed) or BahaState.start(...)")
        self.rules = rules
        self.seed = seed
        self.n = rules.players

    def copy_into(self, other: BahaFields) -> None:
        """Give ``other`` (made with this state's rules and seed) a copy of every other field."""
        other.hand_no = self.hand_no
        other.dealer = self.dealer
        other.phase = self.phase
        other.turn = self.turn
        other.hands = self.hands[:]
        other.taken = self.taken[:]
        other.face_down = self.face_down[:]
        other.picks = self.picks[:]
        other.passed = self.passed[:]
        other.received = self.received[:]
        other.leftover = self.leftover
        other.draw_pile = self.draw_pile[:]
        other.trick = self.trick[:]
        other.leader = self.leader
        other.tricks_done = self.tricks_done
        other.pass_offset = self.pass_offset
        other.played = self.played
        other.voids = self.voids[:]
        other.totals = self.totals[:]
        other.winner = self.winner
        other.log = self.log[:]
        other.last_trick = self.last_trick
        other.hand_start = self.hand_start
        other.origin = self.origin
        other.history = self.history[:]
        other.det_cache = {}
        other.shown_cache = None

    def pickled(self) -> list[Any]:
        """The value of every field, in :data:`FIELDS` order, as pickling carries it."""
        return [
            self.rules,
            self.seed,
            self.n,
            self.hand_no,
            self.dealer,
            self.phase,
            self.turn,
            self.hands,
            self.taken,
            self.face_down,
            self.picks,
            self.passed,
            self.received,
            self.leftover,
            self.draw_pile,
            self.trick,
            self.leader,
            self.tricks_done,
            self.pass_offset,
            self.played,
            self.voids,
            self.totals,
            self.winner,
            self.log,
            self.last_trick,
            self.hand_start,
            self.origin,
            self.history,
            {},
            self.shown_cache,
        ]

    def unpickled(self, values: list[Any]) -> None:
        """Set every field from :meth:`pickled`'s values."""
        for name, value in zip(FIELDS, values, strict=True):
            setattr(self, name, value)


class BahaNativeFields:
    """What a native state holds of these fields, as its getters give them (the type checker's
    view of the core type, which a game's native state subclasses); no slots of its own."""

    __slots__ = ()

    rules: Rules
    seed: int
    n: int
    hand_no: int
    dealer: int
    phase_code: int
    turn: int | None
    hands: list[int]
    taken: list[int]
    face_down: list[int]
    picks: list[int]
    passed: list[int]
    received: list[int]
    leftover: int
    draw_pile: list[int]
    trick: list[int]
    leader: int
    tricks_done: int
    pass_offset: int
    played: int
    voids: list[int]
    totals: list[int]
    winner: int | None
    log: list[Event]
    last_trick: dict[str, Any] | None
    hand_start: int
    origin: dict[str, Any] | None
    history: list[tuple[int, Action]]


NATIVE_FACE: Final = ("rules", "seed", "n", "origin")
"""The fields a native state's Python face holds itself (the core holds the rest, or none)."""


def native_values(native: Any) -> list[Any]:
    """Every field of a native state, in :data:`FIELDS` order, read by name from its getters:
    the values of the Python position it stands for (a new list each, a fresh cache),
    as ``BahaFields.unpickled`` takes them."""
    return [
        native.rules,
        native.seed,
        native.n,
        native.hand_no,
        native.dealer,
        native.PHASES[native.phase_code],
        native.turn,
        native.hands,
        native.taken,
        native.face_down,
        native.picks,
        native.passed,
        native.received,
        native.leftover,
        native.draw_pile,
        native.trick,
        native.leader,
        native.tricks_done,
        native.pass_offset,
        native.played,
        native.voids,
        native.totals,
        native.winner,
        native.log[:],
        native.last_trick,
        native.hand_start,
        native.origin,
        native.history[:],
        {},
        None,
    ]
