"""Baha as a state machine: deal, pass, tricks, draws, scoring, hands until the target.

Actions are ints in a fixed space of 104: ``card`` (0..51) plays that card, ``PASS_BASE +
card`` picks it for the pass. Phases move by small named transitions (``_begin_hand``,
``_end_pass``, ``_end_trick``, ``_end_hand``).
"""

from __future__ import annotations

import hashlib
import math
import operator
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from cardroom.cards import (
    BAHA_DECK,
    COLOUR_LETTERS,
    COLOUR_MASK,
    COLOUR_NAMES,
    COLOUR_SHIFT,
    FULL_BAHA_MASK,
    SLICE_BITS,
    SLICE_CARDS,
    VALUES,
    Card,
    CardMask,
    CardParseError,
    baha_card_text,
    cards_of,
    mask_of,
    parse_baha_card,
)
from cardroom.engine import (
    Action,
    ActionInfo,
    Event,
    IllegalAction,
    RulesError,
    chance_rng,
    check_seed,
    check_totals,
)
from cardroom.games.baha.rules import PASS_COUNT, Deal, Rules
from cardroom.text import plural

__all__ = [
    "BahaState", "Observation", "Phase", "PASS_BASE", "NUM_ACTIONS", "HIDDEN", "PUBLIC_KEYS", "PRIVATE_KEYS",
    "visible_event",
]

PASS_BASE = len(BAHA_DECK)
NUM_ACTIONS = 2 * len(BAHA_DECK)
HIDDEN = "?"
"""How a card the viewer may not see is written in a filtered event."""

_TEXT = tuple(baha_card_text(c) for c in BAHA_DECK)
_COLOUR = tuple(c // VALUES for c in BAHA_DECK)
_PASS_WORDS = {1: "right", -1: "left", 0: "none"}
_DECK_ORDERS = math.factorial(len(BAHA_DECK))


class Phase(Enum):
    """Where a hand stands."""

    PASS = "pass"
    PLAY = "play"
    OVER = "over"


# Module-level names for the phases: reading an Enum member off its class costs several times
# a global look-up, and the hot methods test the phase on every action.
_PASS = Phase.PASS
_PLAY = Phase.PLAY
_OVER = Phase.OVER


def _texts(mask: CardMask) -> list[str]:
    return [_TEXT[c] for c in cards_of(mask)]


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat may know, as ints: the fast form of :meth:`BahaState.view` for bots.

    Cards are ints, sets of cards bitmasks; ``trick`` pairs each seat with its card in
    playing order; ``horns_shown`` counts what each seat took face up this hand.
    """

    seat: int
    rules: Rules
    phase: Phase
    hand: CardMask
    trick: tuple[tuple[int, Card], ...]
    played: CardMask
    horns_shown: tuple[int, ...]
    voids: tuple[int, ...]
    totals: tuple[int, ...]


class BahaState:
    """A game of Baha in progress. Make one with ``Rules(...).new_game(seed)``."""

    __slots__ = (
        "rules", "seed", "n", "hand_no", "dealer", "phase", "turn", "hands", "taken",
        "face_down", "pass_offset", "picks", "passed", "received", "leftover", "draw_pile",
        "trick", "leader", "tricks_done", "played", "voids", "totals", "winner", "log",
        "last_trick", "hand_start", "origin", "history", "_det_cache", "_shown",
    )

    rules: Rules
    seed: int
    n: int
    hand_no: int
    dealer: int
    phase: Phase
    turn: int | None
    hands: list[CardMask]
    taken: list[CardMask]           # every card each seat took this hand, face down ones too
    face_down: list[CardMask]       # the part of ``taken`` nobody else has seen (B4, B10)
    pass_offset: int
    picks: list[CardMask]           # cards chosen for the pass, not yet given
    passed: list[CardMask]          # cards each seat gave in this hand's pass
    received: list[CardMask]
    leftover: CardMask              # face-down cards waiting for the first trick's taker
    draw_pile: list[Card]           # top first
    trick: list[Card]
    leader: int
    tricks_done: int
    played: CardMask
    voids: list[int]                # colours (bits 0..3) each seat is known to lack now
    totals: list[int]
    winner: int | None
    log: list[Event]
    last_trick: dict[str, Any] | None
    hand_start: int                 # index in ``log`` of this hand's ``hand`` event
    origin: dict[str, Any] | None   # how a hand-made game began, for records
    history: list[tuple[int, Action]]  # (seat, action) of every action taken, for records
    _det_cache: dict[int, tuple[int, Any]]
    _shown: tuple[int, int, tuple[int, ...]] | None  # (hand, tricks done, horns shown per seat)

    # -- making states -----------------------------------------------------------------

    @classmethod
    def start(
        cls,
        rules: Rules,
        seed: int,
        *,
        deal: Deal | None = None,
        totals: Sequence[int] | None = None,
        hand: int = 1,
    ) -> BahaState:
        check_seed(seed)
        self = cls.__new__(cls)
        n = rules.players
        self.rules = rules
        self.seed = seed
        self.n = n
        self.totals = [0] * n
        self.winner = None
        self.log = []
        self.last_trick = None
        self.origin = None
        self.history = []
        self._det_cache = {}
        self._shown = None
        if isinstance(hand, bool) or not isinstance(hand, int) or hand < 1:
            raise RulesError(f"hand must be a whole number from 1, not {hand!r}")
        if totals is not None:
            self.totals = check_totals(totals, n, least=0)
        dealt = _check_deal(rules, deal) if deal is not None else None
        if dealt is not None:
            self.dealer = dealt[3]
        elif rules.random_dealer:
            self.dealer = chance_rng(seed, "dealer").randrange(n)
        else:
            self.dealer = 0
        if deal is not None or totals is not None or hand != 1:
            self.origin = {"hand": hand, "totals": list(self.totals)}
            if dealt is not None:
                self.origin["deal"] = {
                    "hands": [_texts(h) for h in dealt[0]],
                    "leftover": _texts(dealt[1]),
                    "draw_pile": [_TEXT[c] for c in dealt[2]],
                    "dealer": dealt[3],
                }
        self.hand_no = hand - 1
        self._begin_hand(dealt)
        return self

    def clone(self) -> BahaState:
        """An independent copy (cheap: lists of ints are copied, events are shared)."""
        other = BahaState.__new__(BahaState)
        other.rules = self.rules
        other.seed = self.seed
        other.n = self.n
        other.hand_no = self.hand_no
        other.dealer = self.dealer
        other.phase = self.phase
        other.turn = self.turn
        other.hands = self.hands[:]
        other.taken = self.taken[:]
        other.face_down = self.face_down[:]
        other.pass_offset = self.pass_offset
        other.picks = self.picks[:]
        other.passed = self.passed[:]
        other.received = self.received[:]
        other.leftover = self.leftover
        other.draw_pile = self.draw_pile[:]
        other.trick = self.trick[:]
        other.leader = self.leader
        other.tricks_done = self.tricks_done
        other.played = self.played
        other.voids = self.voids[:]
        other.totals = self.totals[:]
        other.winner = self.winner
        other.log = self.log[:]
        other.last_trick = self.last_trick
        other.hand_start = self.hand_start
        other.origin = self.origin
        other.history = self.history[:]
        other._det_cache = {}
        other._shown = None
        return other

    # -- the protocol ------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return self.turn

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def scores(self) -> list[int]:
        return self.totals[:]

    @property
    def deal_number(self) -> int:
        """The hand being played (1-based): search rollouts stop at the end of a deal."""
        return self.hand_no

    def public_action(self, action: Action, seat: int) -> Action:
        """``action`` as ``seat`` sees it: itself, or -1 for another seat's pass pick."""
        if action >= PASS_BASE and self.turn != seat:
            return -1
        return action

    def returns(self) -> list[float]:
        """Zero-sum result: how far each seat's total is below the table's mean, in moons.

        A moon is every point of one hand (60 with horn scoring), so one unit is one hand's
        worth of points. Defined at any moment; final once the game is over.
        """
        mean = sum(self.totals) / self.n
        unit = self.rules.points_per_hand
        return [(mean - t) / unit for t in self.totals]

    def legal_actions(self) -> list[Action]:
        turn = self.turn
        if turn is None:
            return []
        hand = self.hands[turn]
        if self.phase is _PASS:
            return [PASS_BASE + c for c in cards_of(hand & ~self.picks[turn])]
        trick = self.trick
        if trick:
            led = _COLOUR[trick[0]]
            # Only the led colour's slice is needed to follow: one table look-up, not four.
            follow = SLICE_CARDS[led][hand >> COLOUR_SHIFT[led] & SLICE_BITS]
            if follow:
                return list(follow)
        return cards_of(hand)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be taken now (without the reason; see :meth:`apply`)."""
        return self.illegal_reason(action) is None

    def apply(self, action: Action) -> list[Event]:
        """Take ``action`` for the current seat and return the events it caused.

        Raises :class:`IllegalAction` (and changes nothing) if the action may not be taken.
        """
        if type(action) is not int:
            try:
                if isinstance(action, bool):
                    raise TypeError  # True is not action 1
                action = operator.index(action)
            except TypeError:
                raise IllegalAction(
                    f"an action is a whole number from 0 to {NUM_ACTIONS - 1}, not {action!r}"
                    + self._allowed_suffix()
                ) from None
        turn = self.turn
        # The common case is checked inline; the slow path only builds the refusal's reason.
        if self.phase is _PLAY and 0 <= action < PASS_BASE and turn is not None:
            hand = self.hands[turn]
            trick = self.trick
            if hand >> action & 1 and (
                not trick
                or _COLOUR[action] == _COLOUR[trick[0]]
                or not hand & COLOUR_MASK[_COLOUR[trick[0]]]
            ):
                self.history.append((turn, action))
                return self._play(turn, action)
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalAction(reason)
        mark = len(self.log)
        self.history.append((turn, action))  # type: ignore[arg-type]
        self._pick(action - PASS_BASE)
        return self.log[mark:]

    def action_to_string(self, action: Action) -> str:
        if 0 <= action < PASS_BASE:
            return f"play {_TEXT[action]}"
        if PASS_BASE <= action < NUM_ACTIONS:
            return f"pass {_TEXT[action - PASS_BASE]}"
        raise IllegalAction(f"{action!r} is not a Baha action: actions are 0 to {NUM_ACTIONS - 1}")

    def decode(self, action: Action) -> ActionInfo:
        """``play`` or ``pass`` (a pick for the pass) and the card."""
        if 0 <= action < PASS_BASE:
            return ActionInfo("play", card=_TEXT[action])
        if PASS_BASE <= action < NUM_ACTIONS:
            return ActionInfo("pass", card=_TEXT[action - PASS_BASE])
        raise IllegalAction(f"{action!r} is not a Baha action: actions are 0 to {NUM_ACTIONS - 1}")

    def parse_action(self, text: str) -> Action:
        """The action named by ``"play 9P"``, ``"pass 13R"`` or just ``"9P"`` (for this phase)."""
        words = str(text).strip().lower().split(None, 1)
        if not words:
            raise IllegalAction("no action given: write e.g. 'play 9P' or 'pass 13R'")
        verb = words[0] if words[0] in ("play", "pass") else None
        card_text = words[1] if verb and len(words) > 1 else (" ".join(words) if not verb else "")
        if verb is None:
            verb = "pass" if self.phase is Phase.PASS else "play"
        try:
            card = parse_baha_card(card_text)
        except CardParseError as err:
            raise IllegalAction(str(err)) from None
        return card + (PASS_BASE if verb == "pass" else 0)

    # -- reasons an action is refused ------------------------------------------------

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` may not be taken now (what :meth:`apply` would raise), or ``None``."""
        if type(action) is not int:
            return (f"an action is a whole number from 0 to {NUM_ACTIONS - 1}, not {action!r}"
                    + self._allowed_suffix())
        turn = self.turn
        if turn is None:
            return "the game is over: no action can be taken"
        if not 0 <= action < NUM_ACTIONS:
            return (
                f"{action} is not a Baha action: actions are 0 to {NUM_ACTIONS - 1}"
                + self._allowed_suffix()
            )
        hand = self.hands[turn]
        if self.phase is Phase.PASS:
            if action < PASS_BASE:
                return (
                    f"you must choose cards to pass {_PASS_WORDS[self.pass_offset]}, "
                    f"not play; allowed: {self._allowed_text()}"
                )
            card = action - PASS_BASE
            if not hand >> card & 1:
                return f"you do not hold {_TEXT[card]}; allowed: {self._allowed_text()}"
            if self.picks[turn] >> card & 1:
                return f"you have already chosen {_TEXT[card]}; allowed: {self._allowed_text()}"
            return None
        if action >= PASS_BASE:
            return f"this is not the passing time: you must play; allowed: {self._allowed_text()}"
        if not hand >> action & 1:
            return f"you do not hold {_TEXT[action]}; allowed: {self._allowed_text()}"
        if self.trick:
            led = _COLOUR[self.trick[0]]
            if _COLOUR[action] != led and hand & COLOUR_MASK[led]:
                return (
                    f"you must follow {COLOUR_NAMES[led]} (led {_TEXT[self.trick[0]]}) "
                    f"and may not play {_TEXT[action]}; allowed: {self._allowed_text()}"
                )
        return None

    def _allowed_suffix(self) -> str:
        return f"; allowed: {self._allowed_text()}" if self.turn is not None else ""

    def _allowed_text(self) -> str:
        return ", ".join(self.action_to_string(a) for a in self.legal_actions())

    # -- transitions -------------------------------------------------------------------

    def _begin_hand(self, dealt: tuple[list[CardMask], CardMask, list[Card], int] | None) -> None:
        rules = self.rules
        n = self.n
        self.hand_no += 1
        if dealt is None:
            deck = _shuffled_deck(self.seed, self.hand_no)
            size = rules.hand_size
            hands = [mask_of(deck[s * size:(s + 1) * size]) for s in range(n)]
            rest = deck[n * size:]
            leftover = 0 if rules.draw_pile else mask_of(rest)
            pile = rest if rules.draw_pile else []
        else:
            hands, leftover, pile, _ = dealt
        self.hands = hands
        self.leftover = leftover
        self.draw_pile = pile
        self.taken = [0] * n
        self.face_down = [0] * n
        self.picks = [0] * n
        self.passed = [0] * n
        self.received = [0] * n
        self.trick = []
        self.tricks_done = 0
        self.played = 0
        self.voids = [0] * n
        self.last_trick = None
        self.leader = (self.dealer + 1) % n
        offset = rules.pass_offset(self.hand_no)
        self.pass_offset = offset
        self.hand_start = len(self.log)
        self.log.append({
            "t": "hand", "n": self.hand_no, "dealer": self.dealer,
            "hands": [_texts(h) for h in hands], "leftover": _texts(leftover),
            "draw_pile": [_TEXT[c] for c in pile], "pass": _PASS_WORDS[offset],
        })
        self.phase = Phase.PASS if offset else Phase.PLAY
        self.turn = self.leader

    def _pick(self, card: Card) -> None:
        turn = self.turn
        assert turn is not None
        self.picks[turn] |= 1 << card
        self.log.append({"t": "pass_pick", "p": turn, "card": _TEXT[card]})
        if self.picks[turn].bit_count() < PASS_COUNT:
            return
        nxt = (turn + 1) % self.n
        if nxt != self.leader:
            self.turn = nxt
        else:
            self._end_pass()

    def _end_pass(self) -> None:
        """Every seat has chosen: the cards change hands all at once (B5)."""
        n = self.n
        for seat in range(n):
            self.hands[seat] &= ~self.picks[seat]
        for seat in range(n):
            to = (seat + self.pass_offset) % n
            cards = self.picks[seat]
            self.hands[to] |= cards
            self.passed[seat] = cards
            self.received[to] = cards
            self.log.append({"t": "pass", "from": seat, "to": to, "cards": _texts(cards)})
        self.picks = [0] * n
        self.phase = Phase.PLAY
        self.turn = self.leader

    def _play(self, turn: int, card: Card) -> list[Event]:
        """Seat ``turn`` plays ``card`` (held and legal); returns the events it caused."""
        bit = 1 << card
        self.hands[turn] &= ~bit
        self.played |= bit
        trick = self.trick
        if trick and _COLOUR[card] != _COLOUR[trick[0]]:
            self.voids[turn] |= 1 << _COLOUR[trick[0]]
        trick.append(card)
        event = {"t": "play", "p": turn, "card": _TEXT[card]}
        log = self.log
        log.append(event)
        if len(trick) < self.n:
            self.turn = (turn + 1) % self.n
            return [event]  # the same fresh list a slice of the log would give, built directly
        mark = len(log) - 1
        self._end_trick()
        return log[mark:]

    def random_playout(self, random: Callable[[], float]) -> None:
        """Finish the current hand with uniformly random legal moves, quietly: for search.

        Each move is ``legal[int(random() * len(legal))]`` over the legal actions in their
        usual (ascending) order, so it picks exactly what a loop of ``legal_actions()`` and
        ``apply()`` would with the same ``random``; but the card play writes no event and no
        history, so afterwards the log and history no longer tell the whole hand. The hand is
        scored as usual (and the game ends if it should), but the next hand is not dealt: the
        state is left between hands, with no one to play, fit only for reading ``scores()``,
        ``returns()`` and ``is_over``. Meant for a search's throwaway worlds.
        """
        deal = self.hand_no
        while self.phase is _PASS or (self.draw_pile and self.phase is _PLAY):
            # passing and the draw-pile variant take the ordinary path
            legal = self.legal_actions()
            self.apply(legal[int(random() * len(legal))])
            if self.hand_no != deal or self.phase is _OVER:
                return
        if self.phase is not _PLAY:
            return
        n = self.n
        hands = self.hands
        voids = self.voids
        taken = self.taken
        colour = _COLOUR
        colour_mask = COLOUR_MASK
        trick = self.trick[:]
        turn = self.turn
        assert turn is not None
        leader = self.leader
        played = self.played
        tricks_done = self.tricks_done
        while True:
            hand = hands[turn]
            if trick:
                led = colour[trick[0]]
                choices = hand & colour_mask[led]
                if not choices:
                    choices = hand
                    voids[turn] |= 1 << led
            else:
                choices = hand
            for _ in range(int(random() * choices.bit_count())):
                choices &= choices - 1
            bit = choices & -choices
            hands[turn] = hand ^ bit
            played |= bit
            trick.append(bit.bit_length() - 1)
            if len(trick) < n:
                turn = (turn + 1) % n
                continue
            led = colour[trick[0]]
            best = 0
            top = trick[0]
            cards = 0
            for i, card in enumerate(trick):
                cards |= 1 << card
                if card > top and colour[card] == led:
                    best = i
                    top = card
            winner = (leader + best) % n
            leftover = self.leftover
            if leftover:
                self.face_down[winner] |= leftover
                self.leftover = 0
            taken[winner] |= cards | leftover
            tricks_done += 1
            trick = []
            if not any(hands):
                break
            leader = turn = winner
        self.trick = []
        self.played = played
        self.tricks_done = tricks_done
        self.leader = leader  # as _end_trick leaves it: the last trick's leader
        self._end_hand(deal_next=False)

    def _end_trick(self) -> None:
        n = self.n
        trick = self.trick
        led = _COLOUR[trick[0]]
        best = 0
        top = trick[0]
        cards = 1 << top
        for i in range(1, n):
            card = trick[i]
            cards |= 1 << card
            if card > top and _COLOUR[card] == led:
                best = i
                top = card
        leader = self.leader
        winner = (leader + best) % n
        leftover = self.leftover
        if leftover:
            self.face_down[winner] |= leftover
            self.leftover = 0
        self.taken[winner] |= cards | leftover
        self.tricks_done += 1
        texts = [_TEXT[c] for c in trick]
        self.last_trick = {"leader": leader, "cards": texts, "winner": winner}
        self.log.append({
            "t": "trick", "n": self.tricks_done, "winner": winner, "cards": texts,
            "horns": self.rules.hand_points(cards),
            "leftover": _texts(leftover) if leftover else [],
        })
        self.trick = []
        if self.draw_pile:
            self._draw_after_trick(winner)
        if not any(self.hands):
            self._end_hand()
            return
        self.leader = winner
        self.turn = winner

    def _draw_after_trick(self, winner: int) -> None:
        """B10: everyone draws, taker first, while the pile holds a card for each; else the
        taker takes what is left face down."""
        pile = self.draw_pile
        n = self.n
        if len(pile) >= n:
            for k in range(n):
                seat = (winner + k) % n
                card = pile.pop(0)
                self.hands[seat] |= 1 << card
                self.voids[seat] = 0  # a drawn card may be of any colour
                self.log.append({"t": "draw", "p": seat, "card": _TEXT[card]})
        else:
            rest = mask_of(pile)
            self.taken[winner] |= rest
            self.face_down[winner] |= rest
            self.log.append({"t": "take", "p": winner, "cards": [_TEXT[c] for c in pile]})
            pile.clear()

    def _end_hand(self, deal_next: bool = True) -> None:
        rules = self.rules
        n = self.n
        horns = [rules.hand_points(t) for t in self.taken]
        moon = None
        points = horns[:]
        if rules.moon:
            for seat in range(n):
                if self.taken[seat] & rules.point_mask == rules.point_mask:
                    moon = seat
                    points = [0 if s == seat else rules.points_per_hand for s in range(n)]
                    break
        for seat in range(n):
            self.totals[seat] += points[seat]
        self.log.append({
            "t": "score", "hand": self.hand_no, "horns": horns, "moon": moon, "points": points,
            "totals": self.totals[:], "revealed": [_texts(f) for f in self.face_down],
        })
        self.turn = None
        if max(self.totals) >= rules.target:
            low = min(self.totals)
            if self.totals.count(low) == 1:
                self.winner = self.totals.index(low)
                self.phase = Phase.OVER
                self.log.append({"t": "end", "totals": self.totals[:], "winner": self.winner})
                return
        if deal_next:
            self.dealer = (self.dealer + 1) % n  # B9: the deal moves to the next seat
            self._begin_hand(None)

    # -- what a seat may know ----------------------------------------------------------

    def visible_event(self, event: Event, seat: int) -> Event:
        """``event`` as ``seat`` saw it: cards it may not know replaced by ``"?"``."""
        return visible_event(event, seat)


    def view_log(self, seat: int) -> list[Event]:
        return [visible_event(e, seat) for e in self.log]

    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may know now (RULINGS B11), JSON-ready."""
        if not 0 <= seat < self.n:
            raise IllegalAction(f"seat must be 0 to {self.n - 1}, not {seat!r}")
        n = self.n
        turn = self.turn
        trick_seats = [(self.leader + i) % n for i in range(len(self.trick))]
        public_taken = [t & ~f for t, f in zip(self.taken, self.face_down, strict=True)]
        offset = self.pass_offset
        passed = received = None
        if self.passed[seat]:
            passed = {"to": (seat + offset) % n, "cards": _texts(self.passed[seat])}
            received = {"from": (seat - offset) % n, "cards": _texts(self.received[seat])}
        return {
            "game": "baha",
            "seat": seat,
            "players": n,
            "rules": self.rules.to_dict(),
            "phase": self.phase.value,
            "hand_number": self.hand_no,
            "dealer": self.dealer,
            "pass_direction": _PASS_WORDS[offset],
            "current_player": turn,
            "hand": _texts(self.hands[seat]),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "my_picks": _texts(self.picks[seat]),
            "picks_made": [p.bit_count() for p in self.picks],
            "passed": passed,
            "received": received,
            "trick": [{"p": s, "card": _TEXT[c]} for s, c in zip(trick_seats, self.trick, strict=True)],
            "leader": self.leader,
            "led": COLOUR_LETTERS[_COLOUR[self.trick[0]]] if self.trick else None,
            "last_trick": _copy_trick(self.last_trick),
            "pass_count": PASS_COUNT,
            "tricks_done": self.tricks_done,
            "played": _texts(self.played),
            "taken_shown": [_texts(t) for t in public_taken],
            "horns_shown": [self.rules.hand_points(t) for t in public_taken],
            "face_down_counts": [f.bit_count() for f in self.face_down],
            "my_face_down": _texts(self.face_down[seat]),
            "leftover_count": self.leftover.bit_count(),
            "draw_pile_count": len(self.draw_pile),
            "voids": ["".join(COLOUR_LETTERS[c] for c in range(4) if v >> c & 1) for v in self.voids],
            "totals": self.totals[:],
            "winner": self.winner,
            "legal_actions": self.legal_actions() if turn == seat else [],
        }

    def public_view(self) -> dict[str, Any]:
        """What anyone watching may know: the keys of a seat's view that are the same for every
        seat (:data:`PUBLIC_KEYS`), the seat's own keys emptied (:data:`PRIVATE_KEYS`)."""
        view = {key: value for key, value in self.view(0).items() if key in PUBLIC_KEYS}
        view.update({key: _empty(value) for key, value in PRIVATE_KEYS.items()})
        return view

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now, as ints (the same knowledge as :meth:`view`)."""
        n = self.n
        # Cards are taken only as a trick ends: the horns shown hold until the next one.
        shown = self._shown
        if shown is None or shown[0] != self.hand_no or shown[1] != self.tricks_done:
            hand_points = self.rules.hand_points
            shown = self._shown = (self.hand_no, self.tricks_done, tuple(
                hand_points(t & ~f) for t, f in zip(self.taken, self.face_down, strict=True)
            ))
        return Observation(
            seat=seat,
            rules=self.rules,
            phase=self.phase,
            hand=self.hands[seat],
            trick=tuple(((self.leader + i) % n, c) for i, c in enumerate(self.trick)),
            played=self.played,
            horns_shown=shown[2],
            voids=tuple(self.voids),
            totals=tuple(self.totals),
        )

    def determinize(self, seat: int, rng: random.Random) -> BahaState:
        """A full state agreeing with all ``seat`` knows, hidden cards dealt again at random.

        Uses only what ``seat`` saw (its filtered log and the public state), so two states
        that look the same to ``seat`` give the same result for the same ``rng``. The new
        state's log is ``seat``'s filtered log, its history is empty, and its future shuffles come
        from ``rng``.
        """
        from cardroom.games.baha.determinize import determinize

        return determinize(self, seat, rng)

    def __repr__(self) -> str:
        return (
            f"<BahaState players={self.n} hand={self.hand_no} phase={self.phase.value} "
            f"turn={self.turn} totals={self.totals}>"
        )


PUBLIC_KEYS = frozenset({
    "game", "players", "rules", "phase", "hand_number", "dealer", "pass_direction",
    "current_player", "hand_sizes", "picks_made", "trick", "leader", "led", "last_trick",
    "pass_count", "tricks_done", "played", "taken_shown", "horns_shown", "face_down_counts",
    "leftover_count", "draw_pile_count", "voids", "totals", "winner",
})
"""Keys of ``view(seat)`` that are the same for every seat: the public view keeps them. A key
added to the view later stays out of the public view until it is listed here or below (a
test checks that every key is one or the other)."""

PRIVATE_KEYS: dict[str, Any] = {
    "seat": None, "hand": [], "my_picks": [], "passed": None, "received": None,
    "my_face_down": [], "legal_actions": [],
}
"""Keys of ``view(seat)`` that belong to the seat, and their value in the public view."""


def _empty(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def visible_event(event: Event, seat: int) -> Event:
    """``event`` as ``seat`` saw it (RULINGS B11): others' secrets written as ``"?"``."""
    t = event["t"]
    if t == "hand":
        return {
            **event,
            "hands": [h if s == seat else [HIDDEN] * len(h) for s, h in enumerate(event["hands"])],
            "leftover": [HIDDEN] * len(event["leftover"]),
            "draw_pile": [HIDDEN] * len(event["draw_pile"]),
        }
    if t == "pass_pick" and event["p"] != seat:
        return {**event, "card": HIDDEN}
    if t == "pass" and seat not in (event["from"], event["to"]):
        return {**event, "cards": [HIDDEN] * len(event["cards"])}
    if t == "trick" and event["winner"] != seat and event["leftover"]:
        return {**event, "leftover": [HIDDEN] * len(event["leftover"])}
    if t == "draw" and event["p"] != seat:
        return {**event, "card": HIDDEN}
    if t == "take" and event["p"] != seat:
        return {**event, "cards": [HIDDEN] * len(event["cards"])}
    return event


def _shuffled_deck(seed: int, hand_no: int) -> list[Card]:
    """The deck in dealing order for hand ``hand_no``: a function of the seed and hand only.

    One 512-bit hash of ``(seed, hand_no)`` is read as a number below 52! and decoded, one
    divmod per card, into the choices of a Fisher-Yates shuffle: a uniform shuffle (the
    remainder's bias is below 2**-286) at about a third of the cost of seeding a Mersenne
    Twister through :func:`chance_rng` and shuffling with it, a cost paid on every hand.
    """
    digest = hashlib.blake2b(f"{seed}:deal:{hand_no}".encode(), digest_size=64).digest()
    order = int.from_bytes(digest, "big") % _DECK_ORDERS
    deck = list(BAHA_DECK)
    for i in range(len(deck) - 1, 0, -1):
        order, j = divmod(order, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _copy_trick(trick: dict[str, Any] | None) -> dict[str, Any] | None:
    """A view's own copy, so a front that edits its view cannot change the game."""
    return None if trick is None else {**trick, "cards": list(trick["cards"])}


def _check_deal(rules: Rules, deal: Deal) -> tuple[list[CardMask], CardMask, list[Card], int]:
    """Validate a hand-made deal against the rules; cards as masks and a top-first pile."""
    n = rules.players

    def read(cards: Sequence[Card | str], where: str) -> list[Card]:
        out = []
        for card in cards:
            if isinstance(card, str):
                try:
                    out.append(parse_baha_card(card))
                except CardParseError as err:
                    raise RulesError(f"deal, {where}: {err}") from None
            elif isinstance(card, int) and not isinstance(card, bool) and 0 <= card < len(BAHA_DECK):
                out.append(card)
            else:
                raise RulesError(f"deal, {where}: {card!r} is not a card")
        return out

    if len(deal.hands) != n:
        raise RulesError(f"deal has {plural(len(deal.hands), 'hand')}; {n} players need {n}")
    hands = [read(h, f"hand {s}") for s, h in enumerate(deal.hands)]
    for s, hand in enumerate(hands):
        if len(hand) != rules.hand_size:
            have = plural(len(hand), "card")
            raise RulesError(f"deal, hand {s} has {have}; each hand needs {rules.hand_size}")
    leftover = read(deal.leftover, "leftover")
    pile = read(deal.draw_pile, "draw pile")
    if len(leftover) != rules.leftover_count:
        raise RulesError(f"deal has {len(leftover)} leftover cards; these rules leave {rules.leftover_count}")
    if len(pile) != rules.draw_pile_count:
        raise RulesError(f"deal has {len(pile)} draw-pile cards; these rules need {rules.draw_pile_count}")
    everything = [c for h in hands for c in h] + leftover + pile
    mask = mask_of(everything)
    if len(everything) != len(BAHA_DECK) or mask != FULL_BAHA_MASK:
        seen: set[int] = set()
        twice = sorted({_TEXT[c] for c in everything if c in seen or seen.add(c)})  # type: ignore[func-returns-value]
        raise RulesError(f"deal must hold each of the 52 cards once; repeated: {', '.join(twice)}")
    if isinstance(deal.dealer, bool) or not isinstance(deal.dealer, int) or not 0 <= deal.dealer < n:
        raise RulesError(f"deal, dealer must be a seat from 0 to {n - 1}, not {deal.dealer!r}")
    return [mask_of(h) for h in hands], mask_of(leftover), pile, deal.dealer
