"""The one interpreter of BAEBAE's card-action language.

Playing a card builds a small program of steps: the action's effects (behind a yes/no
question when optional), then the card's marks as steps (wild: declare a suit; reverse;
skip), then the end of the turn. Programs run on a stack of frames; a step that needs a
person's choice sets a pending decision (:class:`Decision`) and waits for the matching
action. Each step is one handler here, found by the step's ``op`` in a table: card actions
are data, never ``if name == ...`` chains. The handlers change a
:class:`~cardroom.games.baebae.state.BaebaeState` in place through its own moves (draw one
card, end the round, pass the turn on), declared in
:class:`~cardroom.games.baebae.interface.StateMoves`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, cast

from cardroom.cards import bits_of, lowest
from cardroom.engine import chance_rng
from cardroom.games.baebae.deck import CardDef
from cardroom.games.baebae.effects import SUITS, CardFilter, Step, Target
from cardroom.games.baebae.events import BaebaeEvent
from cardroom.games.baebae.rules import lowest_of_design

if TYPE_CHECKING:
    from cardroom.games.baebae.state import BaebaeState

__all__ = [
    "Phase", "Decision", "Frame", "RoundOver", "DECLARE", "END_TURN", "ASK_OPTIONAL",
    "program_marks", "run", "decide", "matching",
]

DECLARE = Step("declare_suit")
_REVERSE = Step("reverse")
_SKIP = Step("skip", who=Target("next"))
END_TURN = Step("_end_turn")
ASK_OPTIONAL = Step("_optional")


class Phase(Enum):
    """Where a turn stands."""

    PLAY = "play"          # play a card or draw
    DRAWN = "drawn"        # play the card just drawn, or pass
    DECIDE = "decide"      # a choice while a card's action or marks are carried out
    OVER = "over"


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

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its constructor's arguments, made again through __init__.
        return Decision, (self.kind, self.seat, self.card, self.choices, self.candidates, self.may_stop,
                          self.purpose)


_FRAME_FIELDS = ("steps", "index", "actor", "card", "targets", "receiver", "chosen", "left", "started")
"""Every field of a :class:`Frame`: its slots, and what pickling carries."""


class Frame:
    """A running list of steps: whose card it is, where it stands, the current step's progress."""

    __slots__ = _FRAME_FIELDS

    def __init__(self, steps: Sequence[Step], actor: int, card: int) -> None:
        self.steps = steps
        self.index = 0
        self.actor = actor
        self.card = card
        self.targets: list[int] | None = None
        self.receiver: int | None = None
        self.chosen: int | None = None  # the player chosen for this step (chosen_target = "each_step")
        self.left = 0
        self.started = False

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled with its state (see BaebaeState.__reduce__), field by field.
        return _unpickle_frame, tuple(getattr(self, name) for name in _FRAME_FIELDS)

    def copy(self) -> Frame:
        other = Frame(self.steps, self.actor, self.card)
        other.index = self.index
        other.targets = None if self.targets is None else self.targets[:]
        other.receiver = self.receiver
        other.chosen = self.chosen
        other.left = self.left
        other.started = self.started
        return other

    def next_step(self) -> None:
        self.index += 1
        self.targets = None
        self.receiver = None
        self.chosen = None
        self.left = 0
        self.started = False


class RoundOver(Exception):
    """Raised inside the interpreter the moment a hand is empty (RULINGS E10)."""


def program_marks(card: CardDef) -> tuple[Step, ...]:
    """The steps ``card``'s marks add after its action: declare a suit (wild), reverse, skip."""
    steps = []
    if card.wild:
        steps.append(DECLARE)
    if "reverse" in card.marks:
        steps.append(_REVERSE)
    if "skip" in card.marks:
        steps.append(_SKIP)
    return tuple(steps)


def run(state: BaebaeState) -> None:
    """Run steps until the program ends or a step waits for a decision."""
    frames = state.frames
    while frames:
        frame = frames[-1]
        if frame.index >= len(frame.steps):
            frames.pop()
            continue
        step = frame.steps[frame.index]
        if not _HANDLERS[step.op](state, frame, step):
            return
        frame.next_step()
    state.pending = None


def _ask(state: BaebaeState, decision: Decision) -> bool:
    state.pending = decision
    state.phase = Phase.DECIDE
    state.turn = decision.seat
    return False


def decide(state: BaebaeState, seat: int, action: int) -> None:
    decision = state.pending
    assert decision is not None
    frame = state.frames[-1]
    space = state.space
    state.pending = None
    kind = decision.kind
    if kind == "optional":
        carry = action == space.yes
        cast("list[BaebaeEvent]", state.log).append(
            {"t": "effect", "p": seat, "op": "optional", "card": state.card_text(decision.card),
             "carried_out": carry})
        frame.next_step()
        if carry:
            state.frames.append(Frame(state.card_def(decision.card).effects, seat, decision.card))
    elif kind == "declare":
        _declare(state, seat, action - space.declare)
        frame.next_step()
    elif kind == "target":
        who = action - space.target
        if state.rules.chosen_once:
            state.chosen = who
        else:
            frame.chosen = who
        cast("list[BaebaeEvent]", state.log).append(
            {"t": "effect", "p": seat, "op": "target", "card": state.card_text(decision.card), "who": who})
    elif kind == "option":
        number = action - space.option
        step = frame.steps[frame.index]
        option = step.options[number]
        cast("list[BaebaeEvent]", state.log).append(
            {"t": "effect", "p": seat, "op": "choose", "option": number + 1, "label": option.label})
        frame.next_step()
        state.frames.append(Frame(option.effects, frame.actor, frame.card))
    else:  # select
        if action == space.done:
            frame.left = 0
        else:
            pid = _physical_in(state, decision.candidates, action - space.select)
            _move_selected(state, frame, frame.steps[frame.index], seat, pid)
    run(state)


def _physical_in(state: BaebaeState, mask: int, design: int) -> int:
    pid = lowest_of_design(mask, design, state.rules.card_of)
    assert pid is not None, "a legal selection has a card"
    return pid


def _declare(state: BaebaeState, seat: int, suit: int) -> None:
    state.suit = suit
    state.declared = True
    state.card_declared = True
    cast("list[BaebaeEvent]", state.log).append({"t": "declare", "p": seat, "suit": SUITS[suit]})


# Targets ---------------------------------------------------------------------------

def _players(state: BaebaeState, frame: Frame, target: Target) -> list[int] | None:
    """The seats ``target`` names now, or ``None`` after asking the actor to choose."""
    actor = frame.actor
    kind = target.kind
    if kind == "self":
        return [actor]
    if kind == "next":
        return [state.next_seat(actor)]
    if kind == "previous":
        return [(actor - state.direction) % state.n]
    if kind == "chosen":
        # Chosen once per action (chosen_target = "once"): the first step that needs the player
        # asks, and every later step of the same card's action (in a coin or a choice too) means
        # them. With "each_step", the reading of records before the option, each step asks.
        chosen = state.chosen if state.rules.chosen_once else frame.chosen
        if chosen is not None:
            return [chosen]
        others = tuple(s for s in range(state.n) if s != actor)
        if len(others) == 1:
            return [others[0]]
        _ask(state, Decision("target", actor, frame.card, choices=others))
        return None
    order = [(actor + state.direction * k) % state.n for k in range(state.n)]
    if kind == "others":
        return order[1:]
    if kind == "all":
        return order
    assert target.holding is not None
    return [s for s in order if matching(state, s, target.holding)]


def matching(state: BaebaeState, seat: int, card_filter: CardFilter | None) -> int:
    """Physical cards of ``seat``'s hand that match ``card_filter`` (all if none)."""
    hand = state.hands[seat]
    if card_filter is None:
        return hand
    out = 0
    for pid in bits_of(hand):
        card = state.card_def(pid)
        if card_filter.matches(card.types, card.suit, card.rank, card.marks):
            out |= 1 << pid
    return out


def _targets(state: BaebaeState, frame: Frame, target: Target | None) -> list[int] | None:
    """The step's remaining target seats, resolved once when the step starts."""
    if frame.targets is None:
        assert target is not None
        players = _players(state, frame, target)
        if players is None:
            return None
        frame.targets = players
    return frame.targets


# Steps -----------------------------------------------------------------------------

def _step_draw(state: BaebaeState, frame: Frame, step: Step) -> bool:
    players = _targets(state, frame, step.who)
    if players is None:
        return False
    for seat in players:
        for _ in range(step.count):
            if state.draw_one(seat, forced=True) is None:
                break
    return True


def _selecting(state: BaebaeState, frame: Frame, step: Step, purpose: str) -> bool:
    """Drive a step in which each target player picks cards (discard, give, discard under)."""
    if purpose == "give" and frame.receiver is None:
        assert step.to is not None
        receiver = _players(state, frame, step.to)
        if receiver is None:
            return False
        frame.receiver = receiver[0]
    players = _targets(state, frame, step.who if purpose != "discard_under" else Target("self"))
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
        candidates = matching(state, seat, step.filter)
        if frame.left <= 0 or not candidates:
            players.pop(0)
            frame.started = False
            continue
        if purpose != "discard_under" and candidates.bit_count() <= frame.left:
            # no choice to make: every matching card goes
            for pid in bits_of(candidates):
                _move_selected(state, frame, step, seat, pid)
            continue
        if purpose != "discard_under" and len(state.designs_in(candidates)) == 1:
            _move_selected(state, frame, step, seat, lowest(candidates))
            continue
        return _ask(state, Decision("select", seat, frame.card, candidates=candidates,
                                  may_stop=purpose == "discard_under", purpose=purpose))
    return True


def _move_selected(state: BaebaeState, frame: Frame, step: Step, seat: int, pid: int) -> None:
    """Carry out one selected card of a discard, give or discard-under step."""
    state.hands[seat] &= ~(1 << pid)
    frame.left -= 1
    text = state.card_text(pid)
    if step.op == "give":
        assert frame.receiver is not None
        state.hands[frame.receiver] |= 1 << pid
        cast("list[BaebaeEvent]", state.log).append(
            {"t": "move", "from": seat, "to": frame.receiver, "cards": [text], "why": "give"})
    else:
        # E11: cards played through an action go under the action card
        state.discard.insert(state.discard.index(frame.card), pid)
        if step.op == "discard_under":
            cast("list[BaebaeEvent]", state.log).append({"t": "play", "p": seat, "card": text, "under": True})
        else:
            cast("list[BaebaeEvent]", state.log).append(
                {"t": "move", "from": seat, "to": "discard", "cards": [text], "why": "discard"})
    if not state.hands[seat]:
        state.end_round(seat)


def _step_discard(state: BaebaeState, frame: Frame, step: Step) -> bool:
    return _selecting(state, frame, step, "discard")


def _step_discard_under(state: BaebaeState, frame: Frame, step: Step) -> bool:
    return _selecting(state, frame, step, "discard_under")


def _step_give(state: BaebaeState, frame: Frame, step: Step) -> bool:
    return _selecting(state, frame, step, "give")


def _step_take(state: BaebaeState, frame: Frame, step: Step) -> bool:
    players = _targets(state, frame, step.who)
    if players is None:
        return False
    victim = players[0]
    actor = frame.actor
    if victim == actor:
        return True
    candidates = matching(state, victim, step.filter)
    pool = bits_of(candidates)
    if not pool:
        return True
    state.chance += 1
    rng = chance_rng(state.seed, "take", state.round_no, state.chance, stream=state.rules.stream)
    taken = rng.sample(pool, min(step.count, len(pool)))
    for pid in taken:
        state.hands[victim] &= ~(1 << pid)
        state.hands[actor] |= 1 << pid
    cast("list[BaebaeEvent]", state.log).append(
        {"t": "move", "from": victim, "to": actor, "cards": [state.card_text(p) for p in taken],
         "why": "take"})
    if not state.hands[victim]:
        state.end_round(victim)
    return True


def _step_swap_hands(state: BaebaeState, frame: Frame, step: Step) -> bool:
    players = _targets(state, frame, step.who)
    if players is None:
        return False
    other = players[0]
    actor = frame.actor
    if other == actor:
        return True
    mine, theirs = state.hands[actor], state.hands[other]
    state.hands[actor], state.hands[other] = theirs, mine
    log = cast("list[BaebaeEvent]", state.log)
    log.append({"t": "move", "from": actor, "to": other, "cards": state.card_texts(mine), "why": "swap"})
    log.append({"t": "move", "from": other, "to": actor, "cards": state.card_texts(theirs), "why": "swap"})
    return True


def _step_skip(state: BaebaeState, frame: Frame, step: Step) -> bool:
    players = _targets(state, frame, step.who)
    if players is None:
        return False
    for seat in players:
        state.skips[seat] += 1
        cast("list[BaebaeEvent]", state.log).append(
            {"t": "effect", "p": frame.actor, "op": "skip", "who": seat})
    return True


def _step_reverse(state: BaebaeState, frame: Frame, step: Step) -> bool:
    state.direction = -state.direction
    cast("list[BaebaeEvent]", state.log).append({"t": "reverse", "direction": state.direction})
    return True


def _step_declare_suit(state: BaebaeState, frame: Frame, step: Step) -> bool:
    if step is DECLARE and state.card_declared:
        return True  # the action already named the suit
    return _ask(state, Decision("declare", frame.actor, frame.card))


def _step_play_again(state: BaebaeState, frame: Frame, step: Step) -> bool:
    state.extra_turn = True
    cast("list[BaebaeEvent]", state.log).append({"t": "effect", "p": frame.actor, "op": "play_again"})
    return True


def _step_peek(state: BaebaeState, frame: Frame, step: Step) -> bool:
    players = _targets(state, frame, step.who)
    if players is None:
        return False
    other = players[0]
    if other != frame.actor:
        cast("list[BaebaeEvent]", state.log).append(
            {"t": "effect", "p": frame.actor, "op": "peek", "who": other,
             "cards": state.card_texts(state.hands[other])})
    return True


def _step_penalty(state: BaebaeState, frame: Frame, step: Step) -> bool:
    players = _targets(state, frame, step.who)
    if players is None:
        return False
    for seat in players:
        state.round_penalties[seat] += step.points
        cast("list[BaebaeEvent]", state.log).append({"t": "penalty", "p": seat, "points": step.points})
    return True


def _step_coin(state: BaebaeState, frame: Frame, step: Step) -> bool:
    state.chance += 1
    heads = chance_rng(state.seed, "coin", state.round_no, state.chance,
                       stream=state.rules.stream).random() < 0.5
    cast("list[BaebaeEvent]", state.log).append(
        {"t": "coin", "p": frame.actor, "result": "heads" if heads else "tails"})
    branch = step.heads if heads else step.tails
    if branch:  # on top of this frame: it runs before the steps after the coin
        state.frames.append(Frame(branch, frame.actor, frame.card))
    return True


def _step_choose(state: BaebaeState, frame: Frame, step: Step) -> bool:
    return _ask(state, Decision("option", frame.actor, frame.card,
                              choices=tuple(range(len(step.options)))))


def _step_optional(state: BaebaeState, frame: Frame, step: Step) -> bool:
    return _ask(state, Decision("optional", frame.actor, frame.card))


def _step_end_turn(state: BaebaeState, frame: Frame, step: Step) -> bool:
    state.frames.clear()
    state.pending = None
    state.advance(frame.actor)
    return False  # the program is over; run stops


_HANDLERS: dict[str, Callable[[BaebaeState, Frame, Step], bool]] = {
    "draw": _step_draw,
    "discard": _step_discard,
    "discard_under": _step_discard_under,
    "give": _step_give,
    "take": _step_take,
    "swap_hands": _step_swap_hands,
    "skip": _step_skip,
    "reverse": _step_reverse,
    "declare_suit": _step_declare_suit,
    "play_again": _step_play_again,
    "peek": _step_peek,
    "penalty": _step_penalty,
    "coin": _step_coin,
    "choose": _step_choose,
    "_optional": _step_optional,
    "_end_turn": _step_end_turn,
}


def _unpickle_frame(*values: Any) -> Frame:
    frame = Frame(values[0], values[2], values[3])
    for name, value in zip(_FRAME_FIELDS, values, strict=True):
        setattr(frame, name, value)
    return frame
