"""The fields of a BAEBAE state (:class:`~cardroom.games.baebae.state.BaebaeState`'s base).

Generated from :mod:`cardroom.games.baebae.fields` by ``python -m cardroom.games.fieldgen``:
edit the table, not this file."""

from __future__ import annotations

from typing import Any, Final

from cardroom.engine import Action, Event
from cardroom.games.baebae.actions import ActionSpace
from cardroom.games.baebae.interpreter import Decision, Frame, Phase
from cardroom.games.baebae.rules import Rules

__all__ = ["FIELDS", "MAKER", "BaebaeFields", "NATIVE_FACE", "BaebaeNativeFields", "native_values"]

MAKER: Final = object()
"""The key only the state's own factories hold to make one (see ``BaebaeFields.__init__``)."""

FIELDS: Final = (
    "rules", "seed", "n", "space", "round_no", "dealer", "direction", "turn", "phase", "hands",
    "stock", "discard", "suit", "declared", "round_penalties", "totals", "skips", "extra_turn",
    "drawn", "idle_passes", "turns", "frames", "pending", "card_declared", "chosen", "chance",
    "log", "history", "round_start", "ranking", "shame", "guard_rounds", "origin", "legal_cache",
    "det_cache",
)
"""Every field of the state: its slots, and what pickling carries."""


class BaebaeFields:
    """The state's fields (one line of the table each), the copy ``clone`` makes, what pickles."""

    __slots__ = FIELDS

    rules: Rules
    seed: int
    n: int
    space: ActionSpace
    round_no: int
    dealer: int
    direction: int
    turn: int | None
    phase: Phase
    hands: list[int]
    stock: list[int]  # top last (pop() draws)
    discard: list[int]  # top last
    suit: int  # the suit in play
    declared: bool  # whether ``suit`` was named (then rank does not match, E4)
    round_penalties: list[int]  # penalty steps this round
    totals: list[int]
    skips: list[int]  # turns each seat is still to lose
    extra_turn: bool
    drawn: int | None  # the card drawn this turn that may be played
    # seats (a bitmask) that passed with nothing to draw since the last play or draw (E6); a seat
    # that lost its turn has not passed
    idle_passes: int
    turns: int  # turns this round, for the guard
    frames: list[Frame]  # the interpreter's stack
    pending: Decision | None
    card_declared: bool  # whether the current card's action already named a suit
    chosen: int | None  # the player chosen for the current card's action: chosen once
    chance: int  # chance events so far this round (keys the generators)
    log: list[Event]  # events are shared: never changed once logged
    history: list[tuple[int, Action]]
    round_start: int
    # the end's ranking (the native core reads it from the log's last event)
    ranking: list[dict[str, int]] | None
    shame: list[int]
    guard_rounds: int
    origin: dict[str, Any] | None  # how a hand-made game began, for records
    legal_cache: list[Action] | None  # legal actions of this position, once computed
    # determinize's knowledge per seat: a cache, never copied (interface.py)
    det_cache: dict[int, tuple[int, Any]]

    def __init__(self, rules: Rules, seed: int, key: object) -> None:
        # Only the state's factories (start, clone, unpickling) make states and fill in the
        # rest, with the key only they hold.
        if key is not MAKER:
            raise TypeError("a BAEBAE game is made by Rules(...).new_game(seed) or BaebaeState.start(...)")
        self.rules = rules
        self.seed = seed
        self.n = rules.players

    def copy_into(self, other: BaebaeFields) -> None:
        """Give ``other`` (made with this state's rules and seed) a copy of every other field."""
        other.space = self.space
        other.round_no = self.round_no
        other.dealer = self.dealer
        other.direction = self.direction
        other.turn = self.turn
        other.phase = self.phase
        other.hands = self.hands[:]
        other.stock = self.stock[:]
        other.discard = self.discard[:]
        other.suit = self.suit
        other.declared = self.declared
        other.round_penalties = self.round_penalties[:]
        other.totals = self.totals[:]
        other.skips = self.skips[:]
        other.extra_turn = self.extra_turn
        other.drawn = self.drawn
        other.idle_passes = self.idle_passes
        other.turns = self.turns
        other.frames = [f.copy() for f in self.frames]
        other.pending = self.pending
        other.card_declared = self.card_declared
        other.chosen = self.chosen
        other.chance = self.chance
        other.log = self.log[:]
        other.history = self.history[:]
        other.round_start = self.round_start
        other.ranking = self.ranking
        other.shame = self.shame[:]
        other.guard_rounds = self.guard_rounds
        other.origin = self.origin
        other.legal_cache = None
        other.det_cache = {}

    def pickled(self) -> list[Any]:
        """The value of every field, in :data:`FIELDS` order, as pickling carries it."""
        return [
            self.rules,
            self.seed,
            self.n,
            self.space,
            self.round_no,
            self.dealer,
            self.direction,
            self.turn,
            self.phase,
            self.hands,
            self.stock,
            self.discard,
            self.suit,
            self.declared,
            self.round_penalties,
            self.totals,
            self.skips,
            self.extra_turn,
            self.drawn,
            self.idle_passes,
            self.turns,
            self.frames,
            self.pending,
            self.card_declared,
            self.chosen,
            self.chance,
            self.log,
            self.history,
            self.round_start,
            self.ranking,
            self.shame,
            self.guard_rounds,
            self.origin,
            self.legal_cache,
            {},
        ]

    def unpickled(self, values: list[Any]) -> None:
        """Set every field from :meth:`pickled`'s values."""
        for name, value in zip(FIELDS, values, strict=True):
            setattr(self, name, value)


class BaebaeNativeFields:
    """What a native state holds of these fields, as its getters give them (the type checker's
    view of the core type, which a game's native state subclasses); no slots of its own."""

    __slots__ = ()

    rules: Rules
    seed: int
    n: int
    space: ActionSpace
    round_no: int
    dealer: int
    direction: int
    turn: int | None
    phase_code: int
    hands: list[int]
    stock: list[int]
    discard: list[int]
    suit: int
    declared: bool
    round_penalties: list[int]
    totals: list[int]
    skips: list[int]
    extra_turn: bool
    drawn: int | None
    idle_passes: int
    turns: int
    frames: list[Any]
    pending: Any
    card_declared: bool
    chosen: int | None
    chance: int
    log: list[Event]
    history: list[tuple[int, Action]]
    round_start: int
    ranking: list[dict[str, int]] | None
    shame: list[int]
    guard_rounds: int
    origin: dict[str, Any] | None


NATIVE_FACE: Final = ("rules", "seed", "n", "space", "origin")
"""The fields a native state's Python face holds itself (the core holds the rest, or none)."""


def native_values(native: Any) -> list[Any]:
    """Every field of a native state, in :data:`FIELDS` order, read by name from its getters:
    the values of the Python position it stands for (a new list each, a fresh cache),
    as ``BaebaeFields.unpickled`` takes them."""
    return [
        native.rules,
        native.seed,
        native.n,
        native.space,
        native.round_no,
        native.dealer,
        native.direction,
        native.turn,
        native.PHASES[native.phase_code],
        native.hands,
        native.stock,
        native.discard,
        native.suit,
        native.declared,
        native.round_penalties,
        native.totals,
        native.skips,
        native.extra_turn,
        native.drawn,
        native.idle_passes,
        native.turns,
        native.frames,
        native.pending,
        native.card_declared,
        native.chosen,
        native.chance,
        native.log[:],
        native.history[:],
        native.round_start,
        native.ranking,
        native.shame,
        native.guard_rounds,
        native.origin,
        None,
        {},
    ]
