"""BAEBAE as a state machine, with the one interpreter of the card-action language.

A physical card is an int (an index into ``rules.card_of``); hands are bitmasks of physical
cards. Actions name card *designs*, so two copies of the same design are the same action.

Playing a card builds a small program of steps: the action's effects (behind a yes/no
question when optional), then the card's marks as steps (wild: declare a suit; reverse;
skip), then the end of the turn. Programs run on a stack of frames; a step that needs a
person's choice sets a pending decision and waits for the matching action. Chance (shuffles,
coins, random takes) comes from ``chance_rng(seed, ...)`` and is written to the log.
"""

from __future__ import annotations

import contextlib
import operator
import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

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
from cardroom.games.baebae.deck import CardDef
from cardroom.games.baebae.effects import SUIT_NAMES, SUITS, CardFilter, Step, Target
from cardroom.games.baebae.rules import Rules
from cardroom.text import plural

__all__ = [
    "BaebaeState", "Deal", "Phase", "Decision", "HIDDEN", "ActionSpace", "PUBLIC_KEYS", "PRIVATE_KEYS",
    "visible_event",
]

HIDDEN = "?"
_DECLARE = Step("declare_suit")
_REVERSE = Step("reverse")
_SKIP = Step("skip", who=Target("next"))
_END_TURN = Step("_end_turn")
_ASK_OPTIONAL = Step("_optional")


@dataclass(frozen=True)
class Deal:
    """A hand-made first round, e.g. for a test: cards by their text forms (``6C``).

    ``stock`` lists the top of the stockpile, top first; the cards not named anywhere lie
    under it in an order shuffled from the seed.
    """

    hands: Sequence[Sequence[str]]
    starter: str
    stock: Sequence[str] = ()
    dealer: int = 0


class Phase(Enum):
    """Where a turn stands."""

    PLAY = "play"          # play a card or draw
    DRAWN = "drawn"        # play the card just drawn, or pass
    DECIDE = "decide"      # a choice while a card's action or marks are carried out
    OVER = "over"


@dataclass(frozen=True)
class ActionSpace:
    """The fixed layout of BAEBAE's int actions for a deck of ``designs`` and ``players``."""

    designs: int
    players: int
    options: int

    @property
    def select(self) -> int:
        return self.designs

    @property
    def draw(self) -> int:
        return 2 * self.designs

    @property
    def pass_(self) -> int:
        return self.draw + 1

    @property
    def done(self) -> int:
        return self.draw + 2

    @property
    def declare(self) -> int:
        return self.draw + 3

    @property
    def yes(self) -> int:
        return self.draw + 7

    @property
    def no(self) -> int:
        return self.draw + 8

    @property
    def target(self) -> int:
        return self.draw + 9

    @property
    def option(self) -> int:
        return self.target + self.players

    @property
    def size(self) -> int:
        return self.option + self.options


@dataclass(frozen=True)
class Decision:
    """A choice waiting for ``seat``: its kind and what may be chosen."""

    kind: str            # optional | declare | target | option | select
    seat: int
    card: int            # the physical card whose action or mark asks
    choices: tuple[int, ...] = ()   # seats (target), option numbers (option)
    candidates: int = 0  # physical cards that may be selected (select)
    may_stop: bool = False  # select: whether "done" is allowed
    purpose: str = ""    # select: discard, discard_under, give


class Frame:
    """A running list of steps: whose card it is, where it stands, the current step's progress."""

    __slots__ = ("steps", "index", "actor", "card", "targets", "receiver", "left", "started")

    def __init__(self, steps: Sequence[Step], actor: int, card: int) -> None:
        self.steps = steps
        self.index = 0
        self.actor = actor
        self.card = card
        self.targets: list[int] | None = None
        self.receiver: int | None = None
        self.left = 0
        self.started = False

    def copy(self) -> Frame:
        other = Frame.__new__(Frame)
        other.steps = self.steps
        other.index = self.index
        other.actor = self.actor
        other.card = self.card
        other.targets = None if self.targets is None else self.targets[:]
        other.receiver = self.receiver
        other.left = self.left
        other.started = self.started
        return other

    def next_step(self) -> None:
        self.index += 1
        self.targets = None
        self.receiver = None
        self.left = 0
        self.started = False


class _RoundOver(Exception):
    """Raised inside the interpreter the moment a hand is empty (RULINGS E10)."""


class BaebaeState:
    """A game of BAEBAE in progress. Make one with ``Rules(...).new_game(seed)``."""

    __slots__ = (
        "rules", "seed", "n", "space", "round_no", "dealer", "direction", "turn", "phase",
        "hands", "stock", "discard", "suit", "declared", "round_penalties", "totals", "skips",
        "extra_turn", "drawn", "idle_passes", "turns", "frames", "pending", "card_declared",
        "chosen", "chance", "log", "history", "round_start", "ranking", "shame", "guard_rounds",
        "origin", "_legal", "_det_cache",
    )

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
    stock: list[int]            # top last (pop() draws)
    discard: list[int]          # top last
    suit: int                   # the suit in play
    declared: bool              # whether ``suit`` was named (then rank does not match, E4)
    round_penalties: list[int]  # penalty steps this round
    totals: list[int]
    skips: list[int]            # turns each seat is still to lose
    extra_turn: bool
    drawn: int | None           # the card drawn this turn that may be played
    idle_passes: int            # seats (a bitmask) that passed with nothing to draw since the
                                # last play or draw (E6); a seat that lost its turn has not passed
    turns: int                  # turns this round, for the guard
    frames: list[Frame]
    pending: Decision | None
    card_declared: bool         # whether the current card's action already named a suit
    chosen: int | None          # the player chosen for the current card's action: chosen once
    chance: int                 # chance events so far this round (keys the generators)
    log: list[Event]
    history: list[tuple[int, Action]]
    round_start: int
    ranking: list[dict[str, int]] | None
    shame: list[int]
    guard_rounds: int
    origin: dict[str, Any] | None   # how a hand-made game began, for records
    _legal: list[Action] | None      # legal actions of this position, once computed
    _det_cache: dict[int, tuple[int, Any]]

    # -- making states -----------------------------------------------------------------

    @classmethod
    def start(
        cls,
        rules: Rules,
        seed: int,
        *,
        deal: Deal | None = None,
        totals: Sequence[int] | None = None,
    ) -> BaebaeState:
        check_seed(seed)
        self = cls.__new__(cls)
        self.rules = rules
        self.seed = seed
        self.n = rules.players
        self.space = ActionSpace(len(rules.cards), rules.players, rules.max_options)
        self.totals = [0] * self.n
        self.log = []
        self.history = []
        self.ranking = None
        self.shame = []
        self.guard_rounds = 0
        self._det_cache = {}
        self._legal = None
        self.round_no = 0
        self.dealer = 0
        self.origin = None
        first = None
        if totals is not None:
            self.totals = check_totals(totals, self.n)  # bonuses can take a total below 0
        if deal is not None:
            first = _check_deal(rules, deal, seed)
            self.dealer = deal.dealer
        if deal is not None or totals is not None:
            self.origin = {"totals": self.totals[:]}
            if deal is not None:
                self.origin["deal"] = {"hands": [list(h) for h in deal.hands], "starter": deal.starter,
                                       "stock": list(deal.stock), "dealer": deal.dealer}
        self._begin_round(first)
        return self

    def clone(self) -> BaebaeState:
        other = BaebaeState.__new__(BaebaeState)
        for name in _SHARED:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands[:]
        other.stock = self.stock[:]
        other.discard = self.discard[:]
        other.round_penalties = self.round_penalties[:]
        other.totals = self.totals[:]
        other.skips = self.skips[:]
        other.frames = [f.copy() for f in self.frames]
        other.log = self.log[:]
        other.history = self.history[:]
        other.shame = self.shame[:]
        other._legal = None
        other._det_cache = {}
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

    def legal_actions(self) -> list[Action]:
        # Drivers ask for the legal actions and then apply one, which checks it against the
        # same list: it is computed once per position and kept until the next action.
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
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
            if self._matches(self._def(self.drawn)):
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
        designs = self._designs_in(decision.candidates)
        actions = [space.select + d for d in designs]
        if decision.may_stop:
            actions.append(space.done)
        return actions

    def apply(self, action: Action) -> list[Event]:
        """Take ``action`` for the current seat and return the events it caused.

        Raises :class:`IllegalAction` (and changes nothing) if the action may not be taken.
        """
        if type(action) is not int:
            try:
                if isinstance(action, bool):  # True would pass for action 1
                    raise TypeError
                action = operator.index(action)
            except TypeError:
                raise IllegalAction(
                    f"an action is a whole number from 0 to {self.space.size - 1}, not {action!r}; "
                    f"allowed: {self._allowed_text(self.legal_actions())}"
                ) from None
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal:
            raise IllegalAction(self._refusal(action, legal))
        self._legal = None
        seat = self.turn
        assert seat is not None
        mark = len(self.log)
        self.history.append((seat, action))
        with contextlib.suppress(_RoundOver):  # the round ended; the next one is dealt
            self._take(seat, action)
        return self.log[mark:]

    def action_to_string(self, action: Action) -> str:
        space = self.space
        cards = self.rules.cards
        if 0 <= action < space.select:
            return f"play {cards[action].key}"
        if space.select <= action < space.draw:
            return f"select {cards[action - space.select].key}"
        if action == space.draw:
            return "draw"
        if action == space.pass_:
            return "pass"
        if action == space.done:
            return "done"
        if space.declare <= action < space.declare + 4:
            return f"declare {SUITS[action - space.declare]}"
        if action == space.yes:
            return "yes"
        if action == space.no:
            return "no"
        if space.target <= action < space.option:
            return f"target {action - space.target}"
        if space.option <= action < space.size:
            return f"option {action - space.option + 1}"
        raise IllegalAction(f"{action!r} is not a BAEBAE action: actions are 0 to {space.size - 1}")

    def decode(self, action: Action) -> ActionInfo:
        """The kind (``play``, ``select``, ``draw``, ``pass``, ``done``, ``declare``, ``yes``,
        ``no``, ``target``, ``option``) and what it names: a card, a suit, a player, an option."""
        space = self.space
        cards = self.rules.cards
        if 0 <= action < space.select:
            return ActionInfo("play", card=cards[action].key)
        if space.select <= action < space.draw:
            return ActionInfo("select", card=cards[action - space.select].key)
        if space.declare <= action < space.declare + 4:
            return ActionInfo("declare", suit=SUITS[action - space.declare])
        if space.target <= action < space.option:
            return ActionInfo("target", seat=action - space.target)
        if space.option <= action < space.size:
            return ActionInfo("option", option=action - space.option + 1)
        for kind in ("draw", "pass", "done", "yes", "no"):
            if action == getattr(space, "pass_" if kind == "pass" else kind):
                return ActionInfo(kind)
        raise IllegalAction(f"{action!r} is not a BAEBAE action: actions are 0 to {space.size - 1}")

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` may not be taken now (what :meth:`apply` would raise), or ``None``."""
        legal = self.legal_actions()
        if type(action) is not int:
            return (f"an action is a whole number from 0 to {self.space.size - 1}, not {action!r}; "
                    f"allowed: {self._allowed_text(legal)}")
        return None if action in legal else self._refusal(action, legal)

    def parse_action(self, text: str) -> Action:
        """The action named by text: ``play 6C``, ``select 6C`` (or just ``6C``), ``draw``,
        ``pass``, ``done``, ``declare H``, ``yes``, ``no``, ``target 2``, ``option 1``."""
        words = str(text).strip().split()
        if not words:
            raise IllegalAction("no action given: write e.g. 'play 6C', 'draw' or 'declare H'")
        verb = words[0].lower()
        arg = " ".join(words[1:])
        space = self.space
        simple = {"draw": space.draw, "pass": space.pass_, "done": space.done, "yes": space.yes,
                  "no": space.no}
        if verb in simple and not arg:
            return simple[verb]
        if verb == "declare":
            letter = arg.strip().upper()[:1]
            symbols = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
            letter = symbols.get(arg.strip()[:1], letter)
            if letter and letter in SUITS:
                return space.declare + SUITS.index(letter)
            raise IllegalAction(f"declare takes a suit: C, D, H or S, not {arg!r}")
        if verb in ("target", "option"):
            try:
                number = int(arg)
            except ValueError:
                raise IllegalAction(f"{verb} takes a number, not {arg!r}") from None
            if verb == "target" and 0 <= number < self.n:
                return space.target + number
            if verb == "option" and 1 <= number <= space.options:
                return space.option + number - 1
            raise IllegalAction(f"{verb} {number} is out of range")
        if verb in ("play", "select"):
            key = arg
        else:
            key, verb = " ".join(words), ("select" if self.phase is Phase.DECIDE else "play")
        design = self._design_of_text(key)
        return design + (space.select if verb == "select" else 0)

    def _design_of_text(self, text: str) -> int:
        index = self.rules.design_of_key
        design = index.get(text)  # the common case: a key exactly as the state writes it
        if design is not None:
            return design
        wanted = text.strip().upper().replace("♣", "C").replace("♦", "D").replace("♥", "H").replace("♠", "S")
        design = index.get(wanted)
        if design is not None:
            return design
        raise IllegalAction(
            f"{text!r} is not a card of this deck: write rank then suit, e.g. 6C, 10H, QS, AD"
        )

    # -- refusals ----------------------------------------------------------------------

    def _allowed_text(self, legal: list[int]) -> str:
        return ", ".join(self.action_to_string(a) for a in legal) or "nothing (the game is over)"

    def _refusal(self, action: int, legal: list[int]) -> str:
        allowed = self._allowed_text(legal)
        if self.turn is None:
            return "the game is over: no action can be taken"
        if not 0 <= action < self.space.size:
            return (f"{action} is not a BAEBAE action: actions are 0 to {self.space.size - 1}; "
                    f"allowed: {allowed}")
        what = self.action_to_string(action)
        seat = self.turn
        space = self.space
        why = "it is not allowed now"
        if self.phase is Phase.PLAY and 0 <= action < space.select:
            card = self.rules.cards[action]
            if not self._holds_design(seat, action):
                why = f"you do not hold {card.key}"
            elif self.hands[seat].bit_count() == 1 and not card.can_win and not card.optional:
                why = f"{card.key} cannot win a round, and it is your last card (E9)"
            else:
                why = f"{card.key} does not match {self._top_text()}"
        elif self.phase is Phase.PLAY and action == space.draw:
            why = "a player who can play may not draw (option draw_when_able)"
        elif self.phase is Phase.DECIDE and self.pending is not None:
            why = f"you must first {self._decision_text(self.pending)}"
        elif self.phase is Phase.DRAWN:
            why = "after drawing, a player may play only the card drawn, or pass"
        if what in ("yes", "no", "done"):  # an answer, not a verb: "you may not answer yes"
            what = f"answer {what}"
        return f"you may not {what}: {why}; allowed: {allowed}"

    def _top_text(self) -> str:
        top = self.rules.cards[self.rules.card_of[self.discard[-1]]]
        if self.declared:
            return f"the declared suit {SUIT_NAMES[self.suit]}"
        return f"the top card {top.key} (rank {top.rank_text} or {SUIT_NAMES[self.suit]})"

    def _decision_text(self, d: Decision) -> str:
        card = self.rules.cards[self.rules.card_of[d.card]]
        return {
            "optional": f"carry out {card.key}'s optional action or not",
            "declare": "name a suit",
            "target": f"choose a player for {card.key}'s action",
            "option": f"choose an option of {card.key}'s action",
            "select": f"choose a card to {d.purpose.replace('_', ' ')}",
        }[d.kind]

    # -- card tables -------------------------------------------------------------------

    def _designs_in(self, mask: int) -> list[int]:
        """The designs of the cards in ``mask``, ascending, each once."""
        out: list[int] = []
        append = out.append
        while mask:
            low = mask & -mask
            append(low.bit_length() - 1)
            mask ^= low
        if self.rules.one_copy:
            return out  # a card's index is its design, and the bits came out in order
        card_of = self.rules.card_of
        return sorted({card_of[pid] for pid in out})

    def _holds_design(self, seat: int, design: int) -> bool:
        return self._physical(seat, design) is not None

    def _physical(self, seat: int, design: int) -> int | None:
        """The lowest physical card of ``design`` in ``seat``'s hand."""
        mask = self.hands[seat]
        card_of = self.rules.card_of
        while mask:
            low = mask & -mask
            pid = low.bit_length() - 1
            if card_of[pid] == design:
                return pid
            mask ^= low
        return None

    def _def(self, pid: int) -> CardDef:
        return self.rules.cards[self.rules.card_of[pid]]

    def _matches(self, card: CardDef) -> bool:
        """RULINGS E4: rank or suit in play, or wild, or an action that declares a suit."""
        if card.wild or card.declares:
            return True
        if card.suit == self.suit:
            return True
        return not self.declared and card.rank == self._def(self.discard[-1]).rank

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
        return self._designs_in(self._playable_mask(seat))

    def _can_draw(self) -> bool:
        return bool(self.stock) or len(self.discard) > 1

    def _text(self, pid: int) -> str:
        return self.rules.card_texts[pid]

    def _texts(self, mask: int) -> list[str]:
        texts = self.rules.card_texts
        out = []
        while mask:
            low = mask & -mask
            out.append(texts[low.bit_length() - 1])
            mask ^= low
        return out

    def _next(self, seat: int) -> int:
        return (seat + self.direction) % self.n

    # -- rounds ------------------------------------------------------------------------

    def _begin_round(self, first: list[int] | None = None) -> None:
        rules = self.rules
        n = self.n
        self.round_no += 1
        if first is None:
            deck = list(range(len(rules.card_of)))
            chance_rng(self.seed, "round", self.round_no).shuffle(deck)
        else:
            deck = first
        size = rules.hand_size or 0
        hands = []
        for seat in range(n):
            mask = 0
            for pid in deck[seat * size:(seat + 1) * size]:
                mask |= 1 << pid
            hands.append(mask)
        rest = deck[n * size:]
        starter = rest[0]
        self.hands = hands
        self.stock = rest[1:][::-1]  # top last
        self.discard = [starter]
        card = self._def(starter)
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
        self.log.append({
            "t": "round", "n": self.round_no, "dealer": self.dealer,
            "hands": [self._texts(h) for h in hands], "stock": [self._text(p) for p in rest[1:]],
            "starter": self._text(starter), "suit": SUITS[self.suit], "direction": self.direction,
        })
        self.phase = Phase.PLAY
        self.turn = self._next(self.dealer)
        if card.on_start and card.effects:
            # E3: the starter's action is carried out, with the dealer as its player (who
            # decides, as any card's player does, whether an optional one is carried out: E8).
            steps = (_ASK_OPTIONAL,) if card.optional else card.effects
            self.frames = [Frame((_END_TURN,), self.dealer, starter), Frame(steps, self.dealer, starter)]
            self.log.append({"t": "effect", "p": self.dealer, "op": "on_start", "card": self._text(starter)})
            with contextlib.suppress(_RoundOver):
                self._run()

    def _end_round(self, out: int | None, blocked: bool = False, guard: bool = False) -> None:
        rules = self.rules
        penalties = []
        for seat in range(self.n):
            hand_points = 0
            mask = self.hands[seat]
            while mask:
                low = mask & -mask
                hand_points += rules.penalties[rules.card_of[low.bit_length() - 1]]
                mask ^= low
            penalties.append(hand_points + self.round_penalties[seat])
        for seat in range(self.n):
            self.totals[seat] += penalties[seat]
        if guard:
            self.guard_rounds += 1
        self.frames = []
        self.pending = None
        self.drawn = None
        self.log.append({
            "t": "round_end", "n": self.round_no, "out": out,
            "hands": [self._texts(h) for h in self.hands], "penalties": penalties,
            "totals": self.totals[:], "blocked": blocked, "guard": guard,
        })
        if self.round_no >= rules.rounds:
            self._end_game()
        else:
            self.dealer = (self.dealer + 1) % self.n  # E2: the deal moves left
            self._begin_round()
        raise _RoundOver

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
        self.log.append({"t": "end", "totals": totals[:], "ranking": [dict(r) for r in ranking],
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
            self._end_round(None, blocked=True, guard=True)

    def _pass(self, seat: int) -> None:
        nothing = self.phase is Phase.PLAY  # passing at the start of a turn: nothing to draw
        self.log.append({"t": "pass", "p": seat})
        if nothing:
            self.idle_passes |= 1 << seat
            if self.idle_passes == (1 << self.n) - 1:
                self._end_round(None, blocked=True)  # E6: every player passed in turn
        self._advance(seat)

    def _voluntary_draw(self, seat: int) -> None:
        pid = self._draw_one(seat, forced=False)
        self.idle_passes = 0
        assert pid is not None
        # The player then plays the card or passes; even an unplayable card waits for the
        # pass, so that nobody learns from the turn's shape whether the card drawn could be
        # played (the card drawn is private, E14).
        self.drawn = pid
        self.phase = Phase.DRAWN

    def _draw_one(self, seat: int, forced: bool) -> int | None:
        """Move the stockpile's top card to ``seat``; reshuffle first if it is empty (E6)."""
        if not self.stock:
            if len(self.discard) < 2:
                return None
            rest = self.discard[:-1]
            self.discard = self.discard[-1:]
            self.chance += 1
            chance_rng(self.seed, "reshuffle", self.round_no, self.chance).shuffle(rest)
            self.stock = rest
            self.log.append({"t": "reshuffle", "stock": [self._text(p) for p in reversed(rest)]})
        pid = self.stock.pop()
        self.hands[seat] |= 1 << pid
        self.log.append({"t": "draw", "p": seat, "card": self._text(pid), "forced": forced})
        return pid

    def _play(self, seat: int, pid: int) -> None:
        self.idle_passes = 0
        self.drawn = None
        self.hands[seat] &= ~(1 << pid)
        self.discard.append(pid)
        card = self._def(pid)
        self.suit = card.suit
        self.declared = False
        self.card_declared = False
        self.chosen = None
        self.log.append({"t": "play", "p": seat, "card": card.key, "under": False})
        if not self.hands[seat]:
            self._end_round(seat)  # E10: the last card has no effect at all
        if not card.effects and not card.marks:
            self._advance(seat)  # a plain card: no program to run (most plays)
            return
        program = [Frame(self._mark_steps(card) + (_END_TURN,), seat, pid)]
        if card.effects:
            program.append(Frame((_ASK_OPTIONAL,) if card.optional else card.effects, seat, pid))
        self.frames = program
        self._run()

    @staticmethod
    def _mark_steps(card: CardDef) -> tuple[Step, ...]:
        steps = []
        if card.wild:
            steps.append(_DECLARE)
        if "reverse" in card.marks:
            steps.append(_REVERSE)
        if "skip" in card.marks:
            steps.append(_SKIP)
        return tuple(steps)

    def _advance(self, seat: int) -> None:
        """End ``seat``'s turn: the next player, past any who lose their turn (skip)."""
        if self.extra_turn:
            self.extra_turn = False
            self._start_turn(seat)
            return
        nxt = self._next(seat)
        for _ in range(self.n * 8):
            if not self.skips[nxt]:
                break
            self.skips[nxt] -= 1
            self.log.append({"t": "skip", "p": nxt})
            nxt = self._next(nxt)
        self._start_turn(nxt)

    # -- the interpreter ---------------------------------------------------------------

    def _run(self) -> None:
        """Run steps until the program ends or a step waits for a decision."""
        frames = self.frames
        while frames:
            frame = frames[-1]
            if frame.index >= len(frame.steps):
                frames.pop()
                continue
            step = frame.steps[frame.index]
            if not _HANDLERS[step.op](self, frame, step):
                return
            frame.next_step()
        self.pending = None

    def _ask(self, decision: Decision) -> bool:
        self.pending = decision
        self.phase = Phase.DECIDE
        self.turn = decision.seat
        return False

    def _decide(self, seat: int, action: int) -> None:
        decision = self.pending
        assert decision is not None
        frame = self.frames[-1]
        space = self.space
        self.pending = None
        kind = decision.kind
        if kind == "optional":
            carry = action == space.yes
            self.log.append({"t": "effect", "p": seat, "op": "optional", "card": self._text(decision.card),
                             "carried_out": carry})
            frame.next_step()
            if carry:
                self.frames.append(Frame(self._def(decision.card).effects, seat, decision.card))
        elif kind == "declare":
            self._declare(seat, action - space.declare)
            frame.next_step()
        elif kind == "target":
            self.chosen = action - space.target
            self.log.append({"t": "effect", "p": seat, "op": "target", "card": self._text(decision.card),
                             "who": self.chosen})
        elif kind == "option":
            number = action - space.option
            step = frame.steps[frame.index]
            option = step.options[number]
            self.log.append({"t": "effect", "p": seat, "op": "choose", "option": number + 1,
                             "label": option.label})
            frame.next_step()
            self.frames.append(Frame(option.effects, frame.actor, frame.card))
        else:  # select
            if action == space.done:
                frame.left = 0
            else:
                pid = self._physical_in(decision.candidates, action - space.select)
                self._move_selected(frame, frame.steps[frame.index], seat, pid)
        self._run()

    def _physical_in(self, mask: int, design: int) -> int:
        card_of = self.rules.card_of
        while mask:
            low = mask & -mask
            pid = low.bit_length() - 1
            if card_of[pid] == design:
                return pid
            mask ^= low
        raise AssertionError("a legal selection has a card")

    def _declare(self, seat: int, suit: int) -> None:
        self.suit = suit
        self.declared = True
        self.card_declared = True
        self.log.append({"t": "declare", "p": seat, "suit": SUITS[suit]})

    # Targets ---------------------------------------------------------------------------

    def _players(self, frame: Frame, target: Target) -> list[int] | None:
        """The seats ``target`` names now, or ``None`` after asking the actor to choose."""
        actor = frame.actor
        kind = target.kind
        if kind == "self":
            return [actor]
        if kind == "next":
            return [self._next(actor)]
        if kind == "previous":
            return [(actor - self.direction) % self.n]
        if kind == "chosen":
            # Chosen once per action: the first step that needs the player asks, and every
            # later step of the same card's action (in a coin or a choice too) means them.
            if self.chosen is not None:
                return [self.chosen]
            others = tuple(s for s in range(self.n) if s != actor)
            if len(others) == 1:
                return [others[0]]
            self._ask(Decision("target", actor, frame.card, choices=others))
            return None
        order = [(actor + self.direction * k) % self.n for k in range(self.n)]
        if kind == "others":
            return order[1:]
        if kind == "all":
            return order
        assert target.holding is not None
        return [s for s in order if self._matching(s, target.holding)]

    def _matching(self, seat: int, card_filter: CardFilter | None) -> int:
        """Physical cards of ``seat``'s hand that match ``card_filter`` (all if none)."""
        hand = self.hands[seat]
        if card_filter is None:
            return hand
        out = 0
        mask = hand
        while mask:
            low = mask & -mask
            card = self._def(low.bit_length() - 1)
            if card_filter.matches(card.types, card.suit, card.rank, card.marks):
                out |= low
            mask ^= low
        return out

    def _targets(self, frame: Frame, target: Target | None) -> list[int] | None:
        """The step's remaining target seats, resolved once when the step starts."""
        if frame.targets is None:
            assert target is not None
            players = self._players(frame, target)
            if players is None:
                return None
            frame.targets = players
        return frame.targets

    # Steps -----------------------------------------------------------------------------

    def _step_draw(self, frame: Frame, step: Step) -> bool:
        players = self._targets(frame, step.who)
        if players is None:
            return False
        for seat in players:
            for _ in range(step.count):
                if self._draw_one(seat, forced=True) is None:
                    break
        return True

    def _selecting(self, frame: Frame, step: Step, purpose: str) -> bool:
        """Drive a step in which each target player picks cards (discard, give, discard under)."""
        if purpose == "give" and frame.receiver is None:
            assert step.to is not None
            receiver = self._players(frame, step.to)
            if receiver is None:
                return False
            frame.receiver = receiver[0]
        players = self._targets(frame, step.who if purpose != "discard_under" else Target("self"))
        if players is None:
            return False
        while players:
            seat = players[0]
            if purpose == "give" and seat == frame.receiver:
                players.pop(0)
                continue
            if not frame.started:
                frame.started = True
                frame.left = step.count
            candidates = self._matching(seat, step.filter)
            if frame.left <= 0 or not candidates:
                players.pop(0)
                frame.started = False
                continue
            if purpose != "discard_under" and candidates.bit_count() <= frame.left:
                # no choice to make: every matching card goes
                while candidates:
                    low = candidates & -candidates
                    self._move_selected(frame, step, seat, low.bit_length() - 1)
                    candidates ^= low
                continue
            if purpose != "discard_under" and len(self._designs_in(candidates)) == 1:
                self._move_selected(frame, step, seat, (candidates & -candidates).bit_length() - 1)
                continue
            return self._ask(Decision("select", seat, frame.card, candidates=candidates,
                                      may_stop=purpose == "discard_under", purpose=purpose))
        return True

    def _move_selected(self, frame: Frame, step: Step, seat: int, pid: int) -> None:
        """Carry out one selected card of a discard, give or discard-under step."""
        self.hands[seat] &= ~(1 << pid)
        frame.left -= 1
        text = self._text(pid)
        if step.op == "give":
            assert frame.receiver is not None
            self.hands[frame.receiver] |= 1 << pid
            self.log.append({"t": "move", "from": seat, "to": frame.receiver, "cards": [text], "why": "give"})
        else:
            # E11: cards played through an action go under the action card
            self.discard.insert(self.discard.index(frame.card), pid)
            if step.op == "discard_under":
                self.log.append({"t": "play", "p": seat, "card": text, "under": True})
            else:
                self.log.append({"t": "move", "from": seat, "to": "discard", "cards": [text],
                                 "why": "discard"})
        if not self.hands[seat]:
            self._end_round(seat)

    def _step_discard(self, frame: Frame, step: Step) -> bool:
        return self._selecting(frame, step, "discard")

    def _step_discard_under(self, frame: Frame, step: Step) -> bool:
        return self._selecting(frame, step, "discard_under")

    def _step_give(self, frame: Frame, step: Step) -> bool:
        return self._selecting(frame, step, "give")

    def _step_take(self, frame: Frame, step: Step) -> bool:
        players = self._targets(frame, step.who)
        if players is None:
            return False
        victim = players[0]
        actor = frame.actor
        if victim == actor:
            return True
        candidates = self._matching(victim, step.filter)
        pool = []
        while candidates:
            low = candidates & -candidates
            pool.append(low.bit_length() - 1)
            candidates ^= low
        if not pool:
            return True
        self.chance += 1
        rng = chance_rng(self.seed, "take", self.round_no, self.chance)
        taken = rng.sample(pool, min(step.count, len(pool)))
        for pid in taken:
            self.hands[victim] &= ~(1 << pid)
            self.hands[actor] |= 1 << pid
        self.log.append({"t": "move", "from": victim, "to": actor, "cards": [self._text(p) for p in taken],
                         "why": "take"})
        if not self.hands[victim]:
            self._end_round(victim)
        return True

    def _step_swap_hands(self, frame: Frame, step: Step) -> bool:
        players = self._targets(frame, step.who)
        if players is None:
            return False
        other = players[0]
        actor = frame.actor
        if other == actor:
            return True
        mine, theirs = self.hands[actor], self.hands[other]
        self.hands[actor], self.hands[other] = theirs, mine
        log = self.log
        log.append({"t": "move", "from": actor, "to": other, "cards": self._texts(mine), "why": "swap"})
        log.append({"t": "move", "from": other, "to": actor, "cards": self._texts(theirs), "why": "swap"})
        return True

    def _step_skip(self, frame: Frame, step: Step) -> bool:
        players = self._targets(frame, step.who)
        if players is None:
            return False
        for seat in players:
            self.skips[seat] += 1
            self.log.append({"t": "effect", "p": frame.actor, "op": "skip", "who": seat})
        return True

    def _step_reverse(self, frame: Frame, step: Step) -> bool:
        self.direction = -self.direction
        self.log.append({"t": "reverse", "direction": self.direction})
        return True

    def _step_declare_suit(self, frame: Frame, step: Step) -> bool:
        if step is _DECLARE and self.card_declared:
            return True  # the action already named the suit
        return self._ask(Decision("declare", frame.actor, frame.card))

    def _step_play_again(self, frame: Frame, step: Step) -> bool:
        self.extra_turn = True
        self.log.append({"t": "effect", "p": frame.actor, "op": "play_again"})
        return True

    def _step_peek(self, frame: Frame, step: Step) -> bool:
        players = self._targets(frame, step.who)
        if players is None:
            return False
        other = players[0]
        if other != frame.actor:
            self.log.append({"t": "effect", "p": frame.actor, "op": "peek", "who": other,
                             "cards": self._texts(self.hands[other])})
        return True

    def _step_penalty(self, frame: Frame, step: Step) -> bool:
        players = self._targets(frame, step.who)
        if players is None:
            return False
        for seat in players:
            self.round_penalties[seat] += step.points
            self.log.append({"t": "penalty", "p": seat, "points": step.points})
        return True

    def _step_coin(self, frame: Frame, step: Step) -> bool:
        self.chance += 1
        heads = chance_rng(self.seed, "coin", self.round_no, self.chance).random() < 0.5
        self.log.append({"t": "coin", "p": frame.actor, "result": "heads" if heads else "tails"})
        branch = step.heads if heads else step.tails
        if branch:  # on top of this frame: it runs before the steps after the coin
            self.frames.append(Frame(branch, frame.actor, frame.card))
        return True

    def _step_choose(self, frame: Frame, step: Step) -> bool:
        return self._ask(Decision("option", frame.actor, frame.card,
                                  choices=tuple(range(len(step.options)))))

    def _step_optional(self, frame: Frame, step: Step) -> bool:
        return self._ask(Decision("optional", frame.actor, frame.card))

    def _step_end_turn(self, frame: Frame, step: Step) -> bool:
        self.frames.clear()
        self.pending = None
        self._advance(frame.actor)
        return False  # the program is over; _run stops

    # -- what a seat may know ----------------------------------------------------------

    def view_log(self, seat: int) -> list[Event]:
        return [visible_event(e, seat) for e in self.log]

    def visible_event(self, event: Event, seat: int) -> Event:
        """``event`` as ``seat`` saw it: others' hands, draws and the stock hidden."""
        return visible_event(event, seat)

    def public_view(self) -> dict[str, Any]:
        """What anyone watching may know: the keys of a seat's view that are the same for every
        seat (:data:`PUBLIC_KEYS`), the seat's own keys emptied (:data:`PRIVATE_KEYS`), and of
        a pending decision only who must decide on which card (E14)."""
        base = self.view(0)
        view = {key: value for key, value in base.items() if key in PUBLIC_KEYS}
        view.update({key: list(v) if isinstance(v, list) else v for key, v in PRIVATE_KEYS.items()})
        pending = base["pending"]
        if pending is not None:
            view["pending"] = {"kind": pending["kind"], "seat": pending["seat"], "card": pending["card"]}
        return view

    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may know now (RULINGS E14), JSON-ready."""
        if not 0 <= seat < self.n:
            raise IllegalAction(f"seat must be 0 to {self.n - 1}, not {seat!r}")
        rules = self.rules
        texts = rules.card_texts
        top = self._def(self.discard[-1])
        pending: dict[str, Any] | None = None
        d = self.pending
        if d is not None and d.seat == seat:
            pending = {
                "kind": d.kind, "seat": seat, "card": self._text(d.card),
                "text": self._decision_text(d), "purpose": d.purpose,
            }
            if d.kind == "option":
                step = self.frames[-1].steps[self.frames[-1].index]
                pending["options"] = [o.label for o in step.options]
        elif d is not None:
            pending = {"kind": d.kind, "seat": d.seat, "card": self._text(d.card)}
        return {
            "game": "baebae",
            "seat": seat,
            "players": self.n,
            "rules": rules.to_dict(),
            "deck": rules.deck_record(),
            "phase": self.phase.value,
            "round": self.round_no,
            "dealer": self.dealer,
            "direction": self.direction,
            "current_player": self.turn,
            "hand": self._texts(self.hands[seat]),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "top": top.key,
            "discard": [texts[p] for p in self.discard],
            "suit": SUITS[self.suit],
            "declared": self.declared,
            "stock_count": len(self.stock),
            "drawn": self._text(self.drawn) if self.drawn is not None and self.turn == seat else None,
            "pending": pending,
            "skips": self.skips[:],
            "round_penalties": self.round_penalties[:],
            "totals": self.totals[:],
            "ranking": None if self.ranking is None else [dict(r) for r in self.ranking],
            "shame": self.shame[:],
            "legal_actions": self.legal_actions() if self.turn == seat else [],
        }

    def determinize(self, seat: int, rng: random.Random) -> BaebaeState:
        """A full state agreeing with what ``seat`` knows; hidden cards dealt again at random.

        See :mod:`cardroom.games.baebae.determinize` for what is kept.
        """
        from cardroom.games.baebae.determinize import determinize

        return determinize(self, seat, rng)

    def card(self, text: str) -> CardDef:
        """The design named ``text`` (``6C``)."""
        return self.rules.cards[self._design_of_text(text)]

    def __repr__(self) -> str:
        return (f"<BaebaeState players={self.n} round={self.round_no} phase={self.phase.value} "
                f"turn={self.turn} totals={self.totals}>")


_SHARED = (
    "rules", "seed", "n", "space", "round_no", "dealer", "direction", "turn", "phase", "suit",
    "declared", "extra_turn", "drawn", "idle_passes", "turns", "pending", "card_declared",
    "chosen", "chance", "round_start", "ranking", "guard_rounds", "origin",
)

_HANDLERS = {
    "draw": BaebaeState._step_draw,
    "discard": BaebaeState._step_discard,
    "discard_under": BaebaeState._step_discard_under,
    "give": BaebaeState._step_give,
    "take": BaebaeState._step_take,
    "swap_hands": BaebaeState._step_swap_hands,
    "skip": BaebaeState._step_skip,
    "reverse": BaebaeState._step_reverse,
    "declare_suit": BaebaeState._step_declare_suit,
    "play_again": BaebaeState._step_play_again,
    "peek": BaebaeState._step_peek,
    "penalty": BaebaeState._step_penalty,
    "coin": BaebaeState._step_coin,
    "choose": BaebaeState._step_choose,
    "_optional": BaebaeState._step_optional,
    "_end_turn": BaebaeState._step_end_turn,
}


PUBLIC_KEYS = frozenset({
    "game", "players", "rules", "deck", "phase", "round", "dealer", "direction",
    "current_player", "hand_sizes", "top", "discard", "suit", "declared", "stock_count",
    "skips", "round_penalties", "totals", "ranking", "shame",
})
"""Keys of ``view(seat)`` that are the same for every seat: the public view keeps them. A key
added to the view later stays out of the public view until it is listed here or below (a
test checks that every key is one or the other)."""

PRIVATE_KEYS: dict[str, Any] = {"seat": None, "hand": [], "drawn": None, "pending": None, "legal_actions": []}
"""Keys of ``view(seat)`` that belong to the seat, and their value in the public view."""


def visible_event(event: Event, seat: int) -> Event:
    """``event`` as ``seat`` saw it (RULINGS E14): others' hands, draws and the stock hidden."""
    t = event["t"]
    if t == "round":
        return {**event,
                "hands": [h if s == seat else [HIDDEN] * len(h) for s, h in enumerate(event["hands"])],
                "stock": [HIDDEN] * len(event["stock"])}
    if t == "draw" and event["p"] != seat:
        return {**event, "card": HIDDEN}
    if t == "reshuffle":
        return {**event, "stock": [HIDDEN] * len(event["stock"])}
    if t == "move" and event["to"] != "discard" and seat not in (event["from"], event["to"]):
        return {**event, "cards": [HIDDEN] * len(event["cards"])}
    if t == "effect" and event.get("op") == "peek" and event["p"] != seat:
        return {**event, "cards": [HIDDEN] * len(event["cards"])}
    return event


def _check_deal(rules: Rules, deal: Deal, seed: int) -> list[int]:
    """The first round's deck in dealing order (hands, starter, stock top first)."""
    n = rules.players
    if len(deal.hands) != n:
        raise RulesError(f"deal has {plural(len(deal.hands), 'hand')}; {n} players need {n}")
    size = rules.hand_size
    keys = {c.key.upper(): i for i, c in enumerate(rules.cards)}
    free: dict[int, list[int]] = {}
    for pid, design in enumerate(rules.card_of):
        free.setdefault(design, []).append(pid)

    def take(text: object, where: str) -> int:
        design = keys.get(str(text).strip().upper()) if isinstance(text, str) else None
        if design is None:
            raise RulesError(f"deal, {where}: {text!r} is not a card of the deck {rules.deck_data.name!r}")
        if not free[design]:
            raise RulesError(f"deal, {where}: no copy of {text} is left")
        return free[design].pop(0)

    order: list[int] = []
    for seat, hand in enumerate(deal.hands):
        if len(hand) != size:
            raise RulesError(f"deal, hand {seat} has {plural(len(hand), 'card')}; each hand needs {size}")
        order.extend(take(card, f"hand {seat}") for card in hand)
    order.append(take(deal.starter, "starter"))
    order.extend(take(card, "stock") for card in deal.stock)
    rest = sorted(pid for pids in free.values() for pid in pids)
    chance_rng(seed, "deal-rest").shuffle(rest)
    if isinstance(deal.dealer, bool) or not isinstance(deal.dealer, int) or not 0 <= deal.dealer < n:
        raise RulesError(f"deal, dealer must be a seat from 0 to {n - 1}, not {deal.dealer!r}")
    return order + rest
