"""BAEBAE as a state machine: deal, turns, rounds, scores and what each seat may know.

A physical card is an int (an index into ``rules.card_of``); hands are bitmasks of physical
cards. Actions name card *designs*, so two copies of the same design are the same action;
their layout and text forms are in :mod:`~cardroom.games.baebae.actions`. Playing a card
with an action or marks runs a small program of steps in the one interpreter of the
card-action language, :mod:`~cardroom.games.baebae.interpreter`, which moves the state through
the moves its package declares (:class:`~cardroom.games.baebae.interface.StateMoves`: draw one
card, pass the turn on, end the round; the card tables). What a seat may know is
in :mod:`~cardroom.games.baebae.views`, a hand-made first round in
:mod:`~cardroom.games.baebae.deal`. Chance (shuffles, coins, random takes) comes from
``chance_rng(seed, ...)`` and is written to the log.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from typing import Any, cast

from cardroom.cards import bits_of, mask_of, select
from cardroom.engine import (
    Action,
    ActionInfo,
    Event,
    IllegalAction,
    chance_rng,
    check_seed,
    check_totals,
    whole_index,
)
from cardroom.games.baebae import actions, interpreter, views
from cardroom.games.baebae.actions import ActionSpace
from cardroom.games.baebae.deal import Deal, check_deal
from cardroom.games.baebae.deck import CardDef
from cardroom.games.baebae.determinize import determinize as redeal_hidden
from cardroom.games.baebae.effects import SUITS
from cardroom.games.baebae.events import BaebaeEvent, Place
from cardroom.games.baebae.interpreter import (
    ASK_OPTIONAL,
    END_TURN,
    Decision,
    Frame,
    Phase,
    RoundOver,
    program_marks,
)
from cardroom.games.baebae.reward import rounds_left, win_returns
from cardroom.games.baebae.rules import Rules, lowest_of_design
from cardroom.games.baebae.state_base import MAKER, BaebaeFields
from cardroom.games.baebae.views import HIDDEN, PRIVATE_KEYS, PUBLIC_KEYS, visible_event

__all__ = [
    "BaebaeState", "Deal", "Phase", "Decision", "HIDDEN", "ActionSpace", "PUBLIC_KEYS", "PRIVATE_KEYS",
    "visible_event",
]


class BaebaeState(BaebaeFields):
    """A game of BAEBAE in progress. Make one with ``Rules(...).new_game(seed)``.

    Its fields are declared once, in :mod:`~cardroom.games.baebae.fields` (the table the base
    class :class:`~cardroom.games.baebae.state_base.BaebaeFields` is generated from).
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
    ) -> BaebaeState:
        # ``seed`` typed ``object``: it may come from people's text, and the check refuses
        # text and True (a bool, not the number 1) in words.
        seed = check_seed(seed)
        self = cls(rules, seed, MAKER)
        self.space = ActionSpace(len(rules.cards), rules.players, rules.max_options)
        self.totals = [0] * self.n
        self.log = []
        self.history = []
        self.ranking = None
        self.shame = []
        self.guard_rounds = 0
        self.det_cache = {}
        self.legal_cache = None
        self.round_no = 0
        self.dealer = 0
        self.origin = None
        first = None
        if totals is not None:
            self.totals = check_totals(totals, self.n)  # bonuses can take a total below 0
        if deal is not None:
            first = check_deal(rules, deal, seed)
            self.dealer = deal.dealer
        if deal is not None or totals is not None:
            self.origin = {"totals": self.totals[:]}
            if deal is not None:
                self.origin["deal"] = {"hands": [list(h) for h in deal.hands], "starter": deal.starter,
                                       "stock": list(deal.stock), "dealer": deal.dealer}
        self._begin_round(first)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a position sent to a bot worker) field by field and made again through
        # the factories' __init__ (which refuses any other caller) and ``pickled()``'s fields.
        return _unpickle, (self.rules, self.seed, self.pickled())

    def clone(self) -> BaebaeState:
        other = BaebaeState(self.rules, self.seed, MAKER)
        self.copy_into(other)
        return other

    # -- the protocol ------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return self.turn

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def scores(self) -> list[int]:
        return self.totals[:]

    @property
    def winner(self) -> int | None:
        """The seat with the lowest total once the game is over, if it is alone there."""
        if self.ranking is None:
            return None
        first = [r["seat"] for r in self.ranking if r["place"] == 1]
        return first[0] if len(first) == 1 else None

    @property
    def deal_number(self) -> int:
        """The round being played (1-based): search rollouts stop at the end of a deal."""
        return self.round_no

    def public_action(self, action: Action, seat: int) -> Action:
        """``action`` as ``seat`` sees it: itself, or -1 for a card given between two others."""
        decision = self.pending
        if (
            decision is not None and decision.kind == "select" and decision.purpose == "give"
            and seat != decision.seat and seat != self.frames[-1].receiver
            and self.space.select <= action < self.space.draw
        ):
            return -1
        return action

    def returns(self) -> list[float]:
        """Zero-sum: how far each total is below the table's mean, in tens of points."""
        mean = sum(self.totals) / self.n
        return [(mean - t) / 10 for t in self.totals]

    def win_returns(self, temperature: float) -> list[float]:
        """Zero-sum: each seat's share of the win, exact once the game is over, else smoothed over
        ``temperature`` points a square root of the rounds left (:mod:`~cardroom.games.baebae.reward`)."""
        left = rounds_left(self.rules.rounds, self.round_no, self.phase is Phase.OVER)
        return win_returns(self.totals, left, temperature)

    def legal_actions(self) -> list[Action]:
        # Drivers ask for the legal actions and then apply one, which checks it against the
        # same list: it is computed once per position and kept until the next action.
        legal = self.legal_cache
        if legal is None:
            legal = self.legal_cache = self._compute_legal()
        return legal[:]

    def _compute_legal(self) -> list[Action]:
        turn = self.turn
        if turn is None:
            return []
        space = self.space
        phase = self.phase
        if phase is Phase.PLAY:
            playable = self._playable_defs(turn)
            if playable and not (self.rules.draw_when_able and self._can_draw()):
                return playable  # a player who can play passes only by drawing (E5)
            return playable + [space.draw if self._can_draw() else space.pass_]
        if phase is Phase.DRAWN:
            assert self.drawn is not None
            if self._matches(self.card_def(self.drawn)):
                return [self.rules.card_of[self.drawn], space.pass_]
            return [space.pass_]
        decision = self.pending
        assert decision is not None
        kind = decision.kind
        if kind == "optional":
            return [space.yes, space.no]
        if kind == "declare":
            return [space.declare + s for s in range(4)]
        if kind == "target":
            return [space.target + s for s in decision.choices]
        if kind == "option":
            return [space.option + k for k in decision.choices]
        designs = self.designs_in(decision.candidates)
        actions = [space.select + d for d in designs]
        if decision.may_stop:
            actions.append(space.done)
        return actions

    def apply(self, action: object) -> list[Event]:
        """Take ``action`` for the current seat and return the events it caused.

        Raises :class:`IllegalAction` (and changes nothing) if the action may not be taken.
        """
        # ``object``, not ``Action``: any value may come, and True (a bool) is refused rather
        # than taken as the action 1.
        act = action if type(action) is int else self._whole_action(action)
        legal = self.legal_cache
        if legal is None:
            legal = self.legal_cache = self._compute_legal()
        if act not in legal:
            raise IllegalAction(self._refusal(act, legal))
        self.legal_cache = None
        seat = self.turn
        assert seat is not None
        mark = len(self.log)
        self.history.append((seat, act))
        with contextlib.suppress(RoundOver):  # the round ended; the next one is dealt
            self._take(seat, act)
        return self.log[mark:]

    def _whole_action(self, action: object) -> Action:
        """A non-``int`` action as a whole number (a numpy integer, say), or the refusal."""
        act = whole_index(action)  # True would pass for action 1
        if act is None:
            raise IllegalAction(
                f"an action is a whole number from 0 to {self.space.size - 1}, not {action!r}; "
                f"allowed: {self._allowed_text(self.legal_actions())}"
            )
        return act

    # The action text codec (actions.py) and the card-action interpreter (interpreter.py)
    # live in modules of their own; these methods forward to them.
    def action_to_string(self, action: Action) -> str:
        return actions.action_to_string(self, action)

    def decode(self, action: Action) -> ActionInfo:
        return actions.decode(self, action)

    def illegal_reason(self, action: object) -> str | None:
        return actions.illegal_reason(self, action)

    def parse_action(self, text: str) -> Action:
        return actions.parse_action(self, text)

    def _design_of_text(self, text: str) -> int:
        return actions.design_of_text(self, text)

    def _allowed_text(self, legal: list[int]) -> str:
        return actions.allowed_text(self, legal)

    def _refusal(self, action: int, legal: list[int]) -> str:
        return actions.refusal(self, action, legal)

    def _run(self) -> None:
        interpreter.run(self)

    def _decide(self, seat: int, action: int) -> None:
        interpreter.decide(self, seat, action)


    # -- card tables -------------------------------------------------------------------

    def designs_in(self, mask: int) -> list[int]:
        """The designs of the cards in ``mask``, ascending, each once."""
        out = bits_of(mask)
        if self.rules.one_copy:
            return out  # a card's index is its design, and the bits came out in order
        card_of = self.rules.card_of
        return sorted({card_of[pid] for pid in out})

    def holds_design(self, seat: int, design: int) -> bool:
        return self._physical(seat, design) is not None

    def _physical(self, seat: int, design: int) -> int | None:
        """The lowest physical card of ``design`` in ``seat``'s hand."""
        return lowest_of_design(self.hands[seat], design, self.rules.card_of)

    def card_def(self, pid: int) -> CardDef:
        return self.rules.cards[self.rules.card_of[pid]]

    def _matches(self, card: CardDef) -> bool:
        """RULINGS E4: rank or suit in play, or wild, or an action that declares a suit."""
        if card.wild or card.declares:
            return True
        if card.suit == self.suit:
            return True
        return not self.declared and card.rank == self.card_def(self.discard[-1]).rank

    def _playable_mask(self, seat: int) -> int:
        """Cards of ``seat``'s hand that may be played now (E4, E9), by mask arithmetic."""
        rules = self.rules
        hand = self.hands[seat]
        allowed = rules.wild_mask | rules.suit_masks[self.suit]
        if not self.declared:
            allowed |= rules.rank_masks[rules.cards[rules.card_of[self.discard[-1]]].rank]
        playable = hand & allowed
        if hand & (hand - 1) == 0:
            playable &= ~rules.no_win_mask  # E9: may not go out on a card that cannot win
        return playable

    def _playable_defs(self, seat: int) -> list[int]:
        return self.designs_in(self._playable_mask(seat))

    def _can_draw(self) -> bool:
        return bool(self.stock) or len(self.discard) > 1

    def card_text(self, pid: int) -> str:
        return self.rules.card_texts[pid]

    def card_texts(self, mask: int) -> list[str]:
        return select(mask, self.rules.card_texts)

    def next_seat(self, seat: int) -> int:
        return (seat + self.direction) % self.n

    # -- rounds ------------------------------------------------------------------------

    def _begin_round(self, first: list[int] | None = None) -> None:
        rules = self.rules
        n = self.n
        self.round_no += 1
        if first is None:
            deck = list(range(len(rules.card_of)))
            chance_rng(self.seed, "round", self.round_no, stream=rules.stream).shuffle(deck)
        else:
            deck = first
        size = rules.hand_size or 0
        hands = []
        for seat in range(n):
            hands.append(mask_of(deck[seat * size:(seat + 1) * size]))
        rest = deck[n * size:]
        starter = rest[0]
        self.hands = hands
        self.stock = rest[1:][::-1]  # top last
        self.discard = [starter]
        card = self.card_def(starter)
        self.suit = card.suit  # E3: a wild starter's printed suit is the suit in play
        self.declared = False
        self.direction = 1
        self.round_penalties = [0] * n
        self.skips = [0] * n
        self.extra_turn = False
        self.drawn = None
        self.idle_passes = 0
        self.turns = 0
        self.frames = []
        self.pending = None
        self.card_declared = False
        self.chosen = None
        self.chance = 0
        self.round_start = len(self.log)
        cast("list[BaebaeEvent]", self.log).append(
            {"t": "round", "n": self.round_no, "dealer": self.dealer,
             "hands": [self.card_texts(h) for h in hands], "stock": [self.card_text(p) for p in rest[1:]],
             "starter": self.card_text(starter), "suit": SUITS[self.suit], "direction": self.direction, })
        self.phase = Phase.PLAY
        self.turn = self.next_seat(self.dealer)
        if card.on_start and card.effects:
            # E3: the starter's action is carried out, with the dealer as its player (who
            # decides, as any card's player does, whether an optional one is carried out: E8).
            steps = (ASK_OPTIONAL,) if card.optional else card.effects
            self.frames = [Frame((END_TURN,), self.dealer, starter), Frame(steps, self.dealer, starter)]
            cast("list[BaebaeEvent]", self.log).append(
                {"t": "effect", "p": self.dealer, "op": "on_start", "card": self.card_text(starter)})
            with contextlib.suppress(RoundOver):
                self._run()

    def end_round(self, out: int | None, blocked: bool = False, guard: bool = False) -> None:
        rules = self.rules
        penalties = []
        for seat in range(self.n):
            hand_points = 0
            for pid in bits_of(self.hands[seat]):
                hand_points += rules.penalties[rules.card_of[pid]]
            penalties.append(hand_points + self.round_penalties[seat])
        for seat in range(self.n):
            self.totals[seat] += penalties[seat]
        if guard:
            self.guard_rounds += 1
        self.frames = []
        self.pending = None
        self.drawn = None
        cast("list[BaebaeEvent]", self.log).append(
            {"t": "round_end", "n": self.round_no, "out": out,
             "hands": [self.card_texts(h) for h in self.hands], "penalties": penalties,
             "totals": self.totals[:], "blocked": blocked, "guard": guard, })
        if self.round_no >= rules.rounds:
            self._end_game()
        else:
            self.dealer = (self.dealer + 1) % self.n  # E2: the deal moves left
            self._begin_round()
        raise RoundOver

    def _end_game(self) -> None:
        totals = self.totals
        ranking = []
        for seat in sorted(range(self.n), key=lambda s: (totals[s], s)):
            place = 1 + sum(1 for t in totals if t < totals[seat])  # E12: equal totals share
            ranking.append({"seat": seat, "total": totals[seat], "place": place})
        worst = max(totals)
        self.shame = [s for s in range(self.n) if totals[s] == worst] if worst != min(totals) else []
        self.ranking = ranking
        self.phase = Phase.OVER
        self.turn = None
        cast("list[BaebaeEvent]", self.log).append(
            {"t": "end", "totals": totals[:], "ranking": cast("list[Place]", [dict(r) for r in ranking]),
             "shame": self.shame[:], "guard_rounds": self.guard_rounds})

    # -- taking an action --------------------------------------------------------------

    def _take(self, seat: int, action: int) -> None:
        space = self.space
        if self.phase is Phase.DECIDE:
            self._decide(seat, action)
            return
        if action == space.draw:
            self._voluntary_draw(seat)
        elif action == space.pass_:
            self._pass(seat)
        else:
            pid = self.drawn if self.phase is Phase.DRAWN else self._physical(seat, action)
            assert pid is not None
            self._play(seat, pid)

    def _start_turn(self, seat: int) -> None:
        self.turn = seat
        self.phase = Phase.PLAY
        self.drawn = None
        self.turns += 1
        if self.turns > self.rules.turn_limit:
            self.end_round(None, blocked=True, guard=True)

    def _pass(self, seat: int) -> None:
        nothing = self.phase is Phase.PLAY  # passing at the start of a turn: nothing to draw
        cast("list[BaebaeEvent]", self.log).append({"t": "pass", "p": seat})
        if nothing:
            self.idle_passes |= 1 << seat
            if self.idle_passes == (1 << self.n) - 1:
                self.end_round(None, blocked=True)  # E6: every player passed in turn
        self.advance(seat)

    def _voluntary_draw(self, seat: int) -> None:
        pid = self.draw_one(seat, forced=False)
        self.idle_passes = 0
        assert pid is not None
        # The player then plays the card or passes; even an unplayable card waits for the
        # pass, so that nobody learns from the turn's shape whether the card drawn could be
        # played (the card drawn is private, E14).
        self.drawn = pid
        self.phase = Phase.DRAWN

    def draw_one(self, seat: int, forced: bool) -> int | None:
        """Move the stockpile's top card to ``seat``; reshuffle first if it is empty (E6)."""
        if not self.stock:
            if len(self.discard) < 2:
                return None
            rest = self.discard[:-1]
            self.discard = self.discard[-1:]
            self.chance += 1
            rng = chance_rng(self.seed, "reshuffle", self.round_no, self.chance, stream=self.rules.stream)
            rng.shuffle(rest)
            self.stock = rest
            cast("list[BaebaeEvent]", self.log).append(
                {"t": "reshuffle", "stock": [self.card_text(p) for p in reversed(rest)]})
        pid = self.stock.pop()
        self.hands[seat] |= 1 << pid
        cast("list[BaebaeEvent]", self.log).append(
            {"t": "draw", "p": seat, "card": self.card_text(pid), "forced": forced})
        return pid

    def _play(self, seat: int, pid: int) -> None:
        self.idle_passes = 0
        self.drawn = None
        self.hands[seat] &= ~(1 << pid)
        self.discard.append(pid)
        card = self.card_def(pid)
        self.suit = card.suit
        self.declared = False
        self.card_declared = False
        self.chosen = None
        cast("list[BaebaeEvent]", self.log).append({"t": "play", "p": seat, "card": card.key, "under": False})
        if not self.hands[seat]:
            self.end_round(seat)  # E10: the last card has no effect at all
        if not card.effects and not card.marks:
            self.advance(seat)  # a plain card: no program to run (most plays)
            return
        program = [Frame(program_marks(card) + (END_TURN,), seat, pid)]
        if card.effects:
            program.append(Frame((ASK_OPTIONAL,) if card.optional else card.effects, seat, pid))
        self.frames = program
        self._run()

    def advance(self, seat: int) -> None:
        """End ``seat``'s turn: the next player, past any who lose their turn (skip)."""
        if self.extra_turn:
            self.extra_turn = False
            self._start_turn(seat)
            return
        nxt = self.next_seat(seat)
        for _ in range(self.n * 8):
            if not self.skips[nxt]:
                break
            self.skips[nxt] -= 1
            cast("list[BaebaeEvent]", self.log).append({"t": "skip", "p": nxt})
            nxt = self.next_seat(nxt)
        self._start_turn(nxt)

    # -- what a seat may know (views.py) ---------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        return views.view(self, seat)

    def public_view(self) -> dict[str, Any]:
        return views.public_view(self)

    def view_log(self, seat: int) -> list[Event]:
        return views.view_log(self, seat)

    def visible_event(self, event: Event, seat: int) -> Event:
        """``event`` as ``seat`` saw it: others' hands, draws and the stock hidden."""
        return visible_event(event, seat)

    def determinize(self, seat: int, rng: random.Random) -> BaebaeState:
        """A full state agreeing with what ``seat`` knows; hidden cards dealt again at random.

        See :mod:`cardroom.games.baebae.determinize` for what is kept.
        """
        return redeal_hidden(self, seat, rng)

    def card(self, text: str) -> CardDef:
        """The design named ``text`` (``6C``)."""
        return self.rules.cards[self._design_of_text(text)]

    def __repr__(self) -> str:
        return (f"<BaebaeState players={self.n} round={self.round_no} phase={self.phase.value} "
                f"turn={self.turn} totals={self.totals}>")


def _unpickle(rules: Rules, seed: int, values: list[Any]) -> BaebaeState:
    state = BaebaeState(rules, seed, MAKER)
    state.unpickled(values)
    return state
