"""Baha as a state machine: deal, pass, tricks, draws, scoring, hands until the target.

Actions are ints in a fixed space of 104: ``card`` (0..51) plays that card, ``PASS_BASE +
card`` picks it for the pass; their text forms are in :mod:`~cardroom.games.baha.actions`.
Phases move by small named transitions (``_begin_hand``, ``_end_pass``, ``_end_trick``,
``_end_hand``). How a hand is dealt is in :mod:`~cardroom.games.baha.deal`, what a seat may
know in :mod:`~cardroom.games.baha.views`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final, cast

from cardroom.cards import Card, CardMask, mask_of
from cardroom.engine import (
    Action,
    ActionInfo,
    Event,
    IllegalAction,
    chance_rng,
    check_seed,
    check_totals,
    check_whole,
    whole_index,
)
from cardroom.games.baha import actions, views
from cardroom.games.baha.actions import (
    CARD_COLOUR,
    CARD_TEXT,
    NUM_ACTIONS,
    PASS_BASE,
    PASS_WORDS,
    Phase,
    card_texts,
)
from cardroom.games.baha.cards import (
    COLOUR_MASK,
    COLOUR_SHIFT,
    SLICE_BITS,
    SLICE_CARDS,
    cards_of,
    mask_points,
)
from cardroom.games.baha.deal import check_deal, shuffled_deck
from cardroom.games.baha.determinize import determinize as redeal_hidden
from cardroom.games.baha.events import BahaEvent, PlayEvent
from cardroom.games.baha.rules import PASS_COUNT, Deal, Rules
from cardroom.games.baha.state_base import MAKER, BahaFields
from cardroom.games.baha.views import HIDDEN, PRIVATE_KEYS, PUBLIC_KEYS, Observation, visible_event

__all__ = [
    "BahaState", "Observation", "Phase", "PASS_BASE", "NUM_ACTIONS", "HIDDEN", "PUBLIC_KEYS", "PRIVATE_KEYS",
    "visible_event",
]


# Module-level names for the phases: reading an Enum member off its class costs several times
# a global look-up, and the hot methods test the phase on every action.
_PASS: Final[Phase] = Phase.PASS
_PLAY: Final[Phase] = Phase.PLAY
_OVER: Final[Phase] = Phase.OVER


class BahaState(BahaFields):
    """A game of Baha in progress. Make one with ``Rules(...).new_game(seed)``.

    Its fields are declared once, in :mod:`~cardroom.games.baha.fields` (the table the base
    class :class:`~cardroom.games.baha.state_base.BahaFields` is generated from).
    """

    __slots__ = ()

    # -- making states -----------------------------------------------------------------

    @classmethod
    def start(
        cls,
        rules: Rules,
        seed: object,
        *,
        deal: Deal | None = None,
        totals: Sequence[int] | None = None,
        hand: object = 1,
    ) -> BahaState:
        # ``seed`` (and ``hand``) typed ``object``: they may come from people's text, and the
        # checks refuse text and True (a bool, not the number 1) in words.
        seed = check_seed(seed)
        self = cls(rules, seed, MAKER)
        n = self.n
        self.totals = [0] * n
        self.winner = None
        self.log = []
        self.last_trick = None
        self.origin = None
        self.history = []
        self.det_cache = {}
        self.shown_cache = None
        hand = check_whole(hand, "hand", 1)
        if totals is not None:
            self.totals = check_totals(totals, n, least=0)
        dealt = check_deal(rules, deal) if deal is not None else None
        if dealt is not None:
            self.dealer = dealt[3]
        elif rules.random_dealer:
            self.dealer = chance_rng(seed, "dealer", stream=rules.stream).randrange(n)
        else:
            self.dealer = 0
        if deal is not None or totals is not None or hand != 1:
            self.origin = {"hand": hand, "totals": list(self.totals)}
            if dealt is not None:
                self.origin["deal"] = {
                    "hands": [card_texts(h) for h in dealt[0]],
                    "leftover": card_texts(dealt[1]),
                    "draw_pile": [CARD_TEXT[c] for c in dealt[2]],
                    "dealer": dealt[3],
                }
        self.hand_no = hand - 1
        self._begin_hand(dealt)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a position sent to a bot worker) field by field and made again through
        # the factories' __init__ (which refuses any other caller) and ``pickled()``'s fields.
        return unpickle, (self.rules, self.seed, self.pickled())

    def clone(self) -> BahaState:
        """An independent copy (cheap: lists of ints are copied, events are shared)."""
        other = BahaState(self.rules, self.seed, MAKER)
        self.copy_into(other)
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
            led = CARD_COLOUR[trick[0]]
            # Only the led colour's slice is needed to follow: one table look-up, not four.
            follow = SLICE_CARDS[led][hand >> COLOUR_SHIFT[led] & SLICE_BITS]
            if follow:
                return list(follow)
        return cards_of(hand)

    def apply(self, action: object) -> list[Event]:
        """Take ``action`` for the current seat and return the events it caused.

        Raises :class:`IllegalAction` (and changes nothing) if the action may not be taken.
        """
        # ``object``, not ``Action``: any value may come, and True (a bool) is refused rather
        # than taken as the action 1.
        act = action if type(action) is int else self._whole_action(action)
        turn = self.turn
        # The common case is checked inline; the slow path only builds the refusal's reason.
        if self.phase is _PLAY and 0 <= act < PASS_BASE and turn is not None:
            hand = self.hands[turn]
            trick = self.trick
            if hand >> act & 1 and (
                not trick
                or CARD_COLOUR[act] == CARD_COLOUR[trick[0]]
                or not hand & COLOUR_MASK[CARD_COLOUR[trick[0]]]
            ):
                self.history.append((turn, act))
                return self._play(turn, act)
        reason = self.illegal_reason(act)
        if reason is not None:
            raise IllegalAction(reason)
        mark = len(self.log)
        self.history.append((turn, act))  # type: ignore[arg-type]
        self._pick(act - PASS_BASE)
        return self.log[mark:]

    def _whole_action(self, action: object) -> Action:
        """A non-``int`` action as a whole number (a numpy integer, say), or the refusal."""
        act = whole_index(action)  # True is not action 1
        if act is None:
            raise IllegalAction(
                f"an action is a whole number from 0 to {NUM_ACTIONS - 1}, not {action!r}"
                + self._allowed_suffix()
            )
        return act

    # The action text codec and the reasons an action is refused live in actions.py; these
    # methods forward to it.
    def action_to_string(self, action: Action) -> str:
        return actions.action_to_string(self, action)

    def decode(self, action: Action) -> ActionInfo:
        return actions.decode(self, action)

    def parse_action(self, text: str) -> Action:
        return actions.parse_action(self, text)

    def illegal_reason(self, action: object) -> str | None:
        return actions.illegal_reason(self, action)

    def _allowed_suffix(self) -> str:
        return actions.allowed_suffix(self)

    def _allowed_text(self) -> str:
        return actions.allowed_text(self)

    # -- transitions -------------------------------------------------------------------

    def _begin_hand(self, dealt: tuple[list[CardMask], CardMask, list[Card], int] | None) -> None:
        rules = self.rules
        n = self.n
        self.hand_no += 1
        if dealt is None:
            deck = shuffled_deck(self.seed, self.hand_no, self.rules.stream)
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
        cast("list[BahaEvent]", self.log).append({
            "t": "hand", "n": self.hand_no, "dealer": self.dealer,
            "hands": [card_texts(h) for h in hands], "leftover": card_texts(leftover),
            "draw_pile": [CARD_TEXT[c] for c in pile], "pass": PASS_WORDS[offset],
        })
        self.phase = Phase.PASS if offset else Phase.PLAY
        self.turn = self.leader

    def _pick(self, card: Card) -> None:
        turn = self.turn
        assert turn is not None
        self.picks[turn] |= 1 << card
        cast("list[BahaEvent]", self.log).append({"t": "pass_pick", "p": turn, "card": CARD_TEXT[card]})
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
            cast("list[BahaEvent]", self.log).append(
                {"t": "pass", "from": seat, "to": to, "cards": card_texts(cards)})
        self.picks = [0] * n
        self.phase = Phase.PLAY
        self.turn = self.leader

    def _play(self, turn: int, card: Card) -> list[Event]:
        """Seat ``turn`` plays ``card`` (held and legal); returns the events it caused."""
        bit = 1 << card
        self.hands[turn] &= ~bit
        self.played |= bit
        trick = self.trick
        if trick and CARD_COLOUR[card] != CARD_COLOUR[trick[0]]:
            self.voids[turn] |= 1 << CARD_COLOUR[trick[0]]
        trick.append(card)
        event: PlayEvent = {"t": "play", "p": turn, "card": CARD_TEXT[card]}
        log = self.log
        cast("list[BahaEvent]", log).append(event)
        if len(trick) < self.n:
            self.turn = (turn + 1) % self.n
            return cast("list[Event]", [event])  # the same fresh list a slice of the log would give
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
        colour = CARD_COLOUR
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
        led = CARD_COLOUR[trick[0]]
        best = 0
        top = trick[0]
        cards = 1 << top
        for i in range(1, n):
            card = trick[i]
            cards |= 1 << card
            if card > top and CARD_COLOUR[card] == led:
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
        texts = [CARD_TEXT[c] for c in trick]
        self.last_trick = {"leader": leader, "cards": texts, "winner": winner}
        cast("list[BahaEvent]", self.log).append({
            "t": "trick", "n": self.tricks_done, "winner": winner, "cards": texts,
            "horns": mask_points(self.rules.slice_points, cards),  # Rules.hand_points, inlined
            "leftover": card_texts(leftover) if leftover else [],
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
                cast("list[BahaEvent]", self.log).append({"t": "draw", "p": seat, "card": CARD_TEXT[card]})
        else:
            rest = mask_of(pile)
            self.taken[winner] |= rest
            self.face_down[winner] |= rest
            cast("list[BahaEvent]", self.log).append(
                {"t": "take", "p": winner, "cards": [CARD_TEXT[c] for c in pile]})
            pile.clear()

    def _end_hand(self, deal_next: bool = True) -> None:
        rules = self.rules
        n = self.n
        horns = [mask_points(rules.slice_points, t) for t in self.taken]  # Rules.hand_points
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
        cast("list[BahaEvent]", self.log).append({
            "t": "score", "hand": self.hand_no, "horns": horns, "moon": moon, "points": points,
            "totals": self.totals[:], "revealed": [card_texts(f) for f in self.face_down],
        })
        self.turn = None
        if max(self.totals) >= rules.target:
            low = min(self.totals)
            if self.totals.count(low) == 1:
                self.winner = self.totals.index(low)
                self.phase = Phase.OVER
                cast("list[BahaEvent]", self.log).append(
                    {"t": "end", "totals": self.totals[:], "winner": self.winner})
                return
        if deal_next:
            self.dealer = (self.dealer + 1) % n  # B9: the deal moves to the next seat
            self._begin_hand(None)

    # -- what a seat may know (views.py) -----------------------------------------------

    def visible_event(self, event: Event, seat: int) -> Event:
        """``event`` as ``seat`` saw it: cards it may not know replaced by ``"?"``."""
        return visible_event(event, seat)

    def view(self, seat: int) -> dict[str, Any]:
        return views.view(self, seat)

    def view_log(self, seat: int) -> list[Event]:
        return views.view_log(self, seat)

    def public_view(self) -> dict[str, Any]:
        return views.public_view(self)

    def observation(self, seat: int) -> Observation:
        return views.observation(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> BahaState:
        """A full state agreeing with all ``seat`` knows, hidden cards dealt again at random.

        Uses only what ``seat`` saw (its filtered log and the public state), so two states
        that look the same to ``seat`` give the same result for the same ``rng``. The new
        state's log is ``seat``'s filtered log, its history is empty, and its future shuffles come
        from ``rng``.
        """
        return redeal_hidden(self, seat, rng)

    def __repr__(self) -> str:
        return (
            f"<BahaState players={self.n} hand={self.hand_no} phase={self.phase.value} "
            f"turn={self.turn} totals={self.totals}>"
        )


def unpickle(rules: Rules, seed: int, values: list[Any]) -> BahaState:
    state = BahaState(rules, seed, MAKER)
    state.unpickled(values)
    return state
