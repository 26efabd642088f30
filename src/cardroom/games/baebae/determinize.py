"""Dealing BAEBAE's hidden cards again, consistently with what one seat knows.

What a seat knows is read from its filtered log of the current round, never from the hidden
cards, so two states that look the same to the seat determinize the same way. It keeps:

- the seat's own hand, the discard pile, every hand's size and the stockpile's size;
- cards the seat knows to be in another hand, while they stay there: cards it gave or swapped
  to that player, cards it saw with a peek; when another player is choosing cards for a
  discard or a give, that it holds enough matching cards for the choice (that hand is dealt
  first, so the others cannot use up what it needs); when another player is deciding on a
  card it just drew, that card is one of its hidden cards (playable or not: nobody can tell).

Everything else (other hands and the stockpile order) is dealt again at random. Two
inferences are left out: a player who draws at the start of a turn could not play, and
which hand a known card went to after it changed hands between two other players unseen.
Cards moved that way become unknown again, which keeps every deal possible, if less sharp.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardroom.engine import Event
from cardroom.games.baebae.state import Phase, visible_event

if TYPE_CHECKING:
    from cardroom.games.baebae.state import BaebaeState

__all__ = ["Knowledge", "knowledge", "determinize"]


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows of the hidden cards of the current round."""

    seat: int
    known: tuple[dict[str, int], ...]  # per seat: designs (by text) known to be in that hand
    slots: tuple[int, ...]             # per seat: hidden cards in that hand
    pool: tuple[str, ...]              # designs of the hidden cards, sorted
    seen_log: tuple[Event, ...]        # the seat's filtered log, the log of every world


def knowledge(state: BaebaeState, seat: int) -> Knowledge:
    """Read what ``seat`` knows from its view of this round's events (cached per log length)."""
    cached = state._det_cache.get(seat)
    if cached is not None and cached[0] == len(state.log):
        return cached[1]  # type: ignore[no-any-return]
    n = state.n
    known: list[Counter[str]] = [Counter() for _ in range(n)]
    slots = [0] * n
    swap_pair = False

    def lose(p: int, design: str) -> None:
        if known[p][design] > 0:
            known[p][design] -= 1
        else:
            slots[p] -= 1

    def blur(p: int) -> None:
        """``p`` lost cards unseen: which of its known cards went is unknown now."""
        slots[p] += sum(known[p].values())
        known[p].clear()

    seen_log = tuple(visible_event(e, seat) for e in state.log)
    for event in seen_log[state.round_start:]:
        t = event["t"]
        if t == "round":
            slots = [0 if s == seat else len(h) for s, h in enumerate(event["hands"])]
        elif t == "draw":
            if event["p"] != seat:
                slots[event["p"]] += 1
        elif t == "play":
            if event["p"] != seat:
                lose(event["p"], event["card"])
        elif t == "effect" and event.get("op") == "peek" and event["p"] == seat:
            other = event["who"]
            known[other] = Counter(event["cards"])
            slots[other] = 0
        elif t == "move":
            src, dst, cards = event["from"], event["to"], event["cards"]
            if event["why"] == "swap":  # two events: a's hand to b, then b's to a
                if not swap_pair:
                    known[src], known[dst] = known[dst], known[src]
                    slots[src], slots[dst] = slots[dst], slots[src]
                swap_pair = not swap_pair
                if src == seat:  # the seat saw its old hand go to the other player
                    known[dst] = Counter(cards)
                    slots[dst] = 0
                continue
            if dst == "discard":
                if src != seat:
                    for design in cards:
                        lose(src, design)
            elif src == seat:
                known[dst].update(cards)
            elif dst == seat:
                for design in cards:
                    lose(src, design)
            else:
                blur(src)
                slots[src] -= len(cards)
                slots[dst] += len(cards)
    slots[seat] = 0
    known[seat] = Counter()
    rules = state.rules
    pool: Counter[str] = Counter()
    for card in rules.cards:
        pool[card.key] += card.copies
    mask = state.hands[seat]
    while mask:
        low = mask & -mask
        pool[state._text(low.bit_length() - 1)] -= 1
        mask ^= low
    for pid in state.discard:
        pool[state._text(pid)] -= 1
    for p in range(n):
        pool.subtract(known[p])
    hidden = tuple(sorted(pool.elements()))
    result = Knowledge(
        seat=seat,
        known=tuple({k: v for k, v in c.items() if v > 0} for c in known),
        slots=tuple(slots),
        pool=hidden,
        seen_log=seen_log,
    )
    places = sum(slots) + len(state.stock)
    assert places == len(hidden), f"seat {seat} sees {places} hidden places, {len(hidden)} cards"
    state._det_cache[seat] = (len(state.log), result)
    return result


def determinize(state: BaebaeState, seat: int, rng: random.Random) -> BaebaeState:
    """See :meth:`BaebaeState.determinize`."""
    know = knowledge(state, seat)
    pool = list(know.pool)
    rng.shuffle(pool)
    other = state.clone()
    rules = state.rules
    keys = [c.key for c in rules.cards]
    design_of = {k: i for i, k in enumerate(keys)}
    # Physical cards of each design that are not in a public place or the seat's hand.
    free: dict[int, list[int]] = {}
    public = set(state.discard)
    mine = state.hands[seat]
    for pid, design in enumerate(rules.card_of):
        if pid not in public and not mine >> pid & 1:
            free.setdefault(design, []).append(pid)

    def take(design_key: str) -> int:
        return free[design_of[design_key]].pop()

    drawn_by = state.turn if state.phase is Phase.DRAWN and state.turn != seat else None
    # Another player choosing cards for a discard or a give was asked because it holds more
    # matching cards than the step takes, of two designs or more (else they would move without
    # a choice): its hand dealt again must too, or the choice would have nothing to choose from.
    decision = state.pending
    chooser, wanted, least = None, None, 0
    if decision is not None and decision.kind == "select" and decision.seat != seat and not decision.may_stop:
        frame = state.frames[-1]
        chooser, wanted, least = decision.seat, frame.steps[frame.index].filter, frame.left + 1

    def fits(design_key: str) -> bool:
        card = rules.cards[design_of[design_key]]
        return wanted is None or wanted.matches(card.types, card.suit, card.rank, card.marks)

    # Constrained hands are dealt first, so that the others cannot use up what they need.
    order = sorted((p for p in range(state.n) if p != seat), key=lambda p: p not in (chooser, drawn_by))
    for p in order:
        hand = 0
        for design_key, count in sorted(know.known[p].items()):
            for _ in range(count):
                hand |= 1 << take(design_key)
        slots = know.slots[p]
        if p == drawn_by:
            # the card it just drew, playable or not, is one of its hidden cards
            pid = take(pool.pop(0))
            hand |= 1 << pid
            other.drawn = pid
            slots -= 1
        if p == chooser and slots:
            have = [k for k, count in know.known[p].items() for _ in range(count) if fits(k)]
            picked = _enough_to_choose(pool, fits, least, have)
            for i in sorted(picked, reverse=True):
                hand |= 1 << take(pool.pop(i))
            slots -= len(picked)
        for design_key in pool[:slots]:
            hand |= 1 << take(design_key)
        del pool[:slots]
        other.hands[p] = hand
    other.stock = [take(k) for k in pool]
    decision = state.pending
    if decision is not None and decision.kind == "select" and decision.seat != seat:
        frame = other.frames[-1]
        step = frame.steps[frame.index]
        from dataclasses import replace

        other.pending = replace(decision, candidates=other._matching(decision.seat, step.filter))
    other.seed = rng.getrandbits(63)
    other.origin = None  # a hand-made start would show the real first deal
    other.log = list(know.seen_log)
    other.history = []
    return other


def _enough_to_choose(
    pool: list[str], fits: Callable[[str], bool], least: int, have: list[str]
) -> list[int]:
    """Places in ``pool`` of cards that, with ``have``, make ``least`` fitting cards of two
    designs or more: first cards of new designs, then any that fit."""
    designs = set(have)
    count = len(have)
    picked: list[int] = []
    for i, key in enumerate(pool):
        if len(designs) >= 2:
            break
        if key not in designs and fits(key):
            picked.append(i)
            designs.add(key)
            count += 1
    for i, key in enumerate(pool):
        if count >= least:
            break
        if i not in picked and fits(key):
            picked.append(i)
            count += 1
    return picked
