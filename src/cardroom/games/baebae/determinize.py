"""Dealing BAEBAE's hidden cards again, consistently with what one seat knows.

What a seat knows is read from its filtered log of the current round, never from the hidden
cards, so two states that look the same to the seat determinize the same way. It keeps:

- the seat's own hand, the discard pile, every hand's size and the stockpile's size;
- cards the seat knows to be in another hand, while they stay there: cards it gave or swapped
  to that player, cards it saw with a peek; when another player is choosing cards for a
  discard or a give, that it holds enough matching cards for the choice (that hand is dealt
  first, so the others cannot use up what it needs); when another player is deciding on a
  card it just drew, that card is one of its hidden cards (playable or not: nobody can tell).

- what a player could not have held: one who drew at the start of a turn, or passed with
  nothing to draw, held no card it could have played (RULINGS E5; unless ``draw_when_able``),
  so the cards it still holds from then are none of the designs that matched then.

Everything else (other hands and the stockpile order) is dealt again at random. One
inference is left out: which hand a known card went to after it changed hands between two
other players unseen; cards moved that way become unknown again.

The "could not play" knowledge is kept as *groups* of a hand's hidden cards, oldest first,
each with the designs it cannot hold: a group is the cards held since a draw, so an older
group forbids everything a newer one does, and more. A card that leaves a hand is taken from
the most constrained group that could hold it (or, unseen, from the most constrained of all):
when the truth is another group, that only loosens what is kept, so every deal that could be
the real one stays possible. A deal that cannot meet the groups (it can happen when several
players' constraints meet a small pool) is tried again, then dealt without them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardroom.cards import bits_of
from cardroom.engine import Event
from cardroom.games.baebae.deck import CardDef
from cardroom.games.baebae.effects import SUITS
from cardroom.games.baebae.events import BaebaeEvent, baebae_events
from cardroom.games.baebae.interpreter import Phase, matching
from cardroom.games.baebae.views import visible_event

if TYPE_CHECKING:
    from cardroom.games.baebae.state import BaebaeState

__all__ = ["Knowledge", "knowledge", "determinize"]


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows of the hidden cards of the current round."""

    seat: int
    known: tuple[dict[str, int], ...]  # per seat: designs (by text) known to be in that hand
    groups: tuple[tuple[tuple[int, int], ...], ...]  # per seat: (forbidden designs, cards), oldest first
    pool: tuple[str, ...]              # designs of the hidden cards, sorted
    seen_log: tuple[Event, ...]        # the seat's filtered log, the log of every world

    @property
    def slots(self) -> tuple[int, ...]:
        """Per seat: how many hidden cards that hand holds (its groups' cards)."""
        return tuple(sum(count for _, count in g) for g in self.groups)


def knowledge(state: BaebaeState, seat: int) -> Knowledge:
    """Read what ``seat`` knows from its view of this round's events (cached per log length)."""
    cached = state.det_cache.get(seat)
    if cached is not None and cached[0] == len(state.log):
        return cached[1]  # type: ignore[no-any-return]
    n = state.n
    rules = state.rules
    design = rules.design_of_key
    known: list[Counter[str]] = [Counter() for _ in range(n)]
    groups: list[list[list[int]]] = [[] for _ in range(n)]  # per seat: [forbidden, count]
    swap_pair = False
    infer = not rules.draw_when_able
    top_rank, suit, declared = 0, 0, False
    last: BaebaeEvent | None = None

    def unseen(p: int) -> int:
        return sum(count for _, count in groups[p])

    def add(p: int, k: int) -> None:
        """``k`` cards join ``p``'s hand unseen: they may be anything."""
        g = groups[p]
        if k <= 0:
            return
        if g and g[-1][0] == 0:
            g[-1][1] += k
        else:
            g.append([0, k])

    def remove_any(p: int, k: int) -> None:
        """``k`` hidden cards left ``p``'s hand unseen: taken from the most constrained."""
        g = groups[p]
        while k > 0 and g:
            take = min(k, g[0][1])
            g[0][1] -= take
            k -= take
            if g[0][1] == 0:
                g.pop(0)

    def remove_design(p: int, d: int) -> None:
        """A hidden card of design ``d`` left ``p``'s hand in sight."""
        g = groups[p]
        for i, (forbidden, _) in enumerate(g):
            if not forbidden >> d & 1:
                g[i][1] -= 1
                if g[i][1] == 0:
                    del g[i]
                return
        # No group could hold it: forget the constraints rather than keep a false one.
        left = unseen(p) - 1
        groups[p] = [[0, left]] if left > 0 else []

    def could_not_play(p: int) -> None:
        """``p`` had nothing to play with the hand it holds now (E5)."""
        size = unseen(p) + sum(known[p].values())
        if not infer or size == 0:
            return
        forbidden = rules_wild | suit_designs[suit] | (0 if declared else rank_designs[top_rank])
        if size == 1:
            forbidden &= ~no_win_designs  # E9: a last card that cannot win was not playable
        for g in groups[p]:
            g[0] |= forbidden

    def lose(p: int, key: str) -> None:
        if known[p][key] > 0:
            known[p][key] -= 1
        else:
            remove_design(p, design[key])

    def blur(p: int) -> None:
        """``p`` lost cards unseen: which of its known cards went is unknown now."""
        add(p, sum(known[p].values()))
        known[p].clear()

    cards = rules.cards
    rules_wild = _designs(cards, lambda c: c.wild or c.declares)
    suit_designs = [_designs(cards, lambda c, s=s: c.suit == s) for s in range(4)]  # type: ignore[misc]
    rank_designs = [_designs(cards, lambda c, r=r: c.rank == r) for r in range(14)]  # type: ignore[misc]
    no_win_designs = _designs(cards, lambda c: not c.can_win and not c.optional)

    seen_log = tuple(visible_event(e, seat) for e in state.log)
    for event in baebae_events(seen_log[state.round_start:]):
        if event["t"] == "round":
            groups = [[] if s == seat else [[0, len(h)]] for s, h in enumerate(event["hands"])]
            top_rank = cards[design[event["starter"]]].rank
            suit, declared = SUITS.index(event["suit"]), False
        elif event["t"] == "draw":
            p = event["p"]
            if p != seat:
                if not event["forced"]:
                    could_not_play(p)  # a draw at the start of a turn: nothing to play (E5)
                add(p, 1)
        elif event["t"] == "pass":
            p = event["p"]
            after_draw = last is not None and last["t"] == "draw" and last["p"] == p and not last["forced"]
            if p != seat and not after_draw:
                could_not_play(p)  # passing with nothing to draw, nor to play
        elif event["t"] == "play":
            if event["p"] != seat:
                lose(event["p"], event["card"])
            if not event.get("under"):
                top = cards[design[event["card"]]]
                top_rank, suit, declared = top.rank, top.suit, False
        elif event["t"] == "declare":
            suit, declared = SUITS.index(event["suit"]), True
        elif event["t"] == "effect" and event["op"] == "peek" and event["p"] == seat:
            other = event["who"]
            known[other] = Counter(event["cards"])
            groups[other] = []
        elif event["t"] == "move":
            src, moved = event["from"], event["cards"]
            if event["why"] == "discard":
                if src != seat:
                    for key in moved:
                        lose(src, key)
            elif event["why"] == "swap":  # two events: a's hand to b, then b's to a
                dst = event["to"]
                if not swap_pair:
                    known[src], known[dst] = known[dst], known[src]
                    groups[src], groups[dst] = groups[dst], groups[src]
                swap_pair = not swap_pair
                if src == seat:  # the seat saw its old hand go to the other player
                    known[dst] = Counter(moved)
                    groups[dst] = []
            elif src == seat:
                known[event["to"]].update(moved)
            elif event["to"] == seat:
                for key in moved:
                    lose(src, key)
            else:
                blur(src)
                remove_any(src, len(moved))
                add(event["to"], len(moved))
        last = event
    known[seat] = Counter()
    pool: Counter[str] = Counter()
    for card in rules.cards:
        pool[card.key] += card.copies
    for pid in bits_of(state.hands[seat]):
        pool[state.card_text(pid)] -= 1
    for pid in state.discard:
        pool[state.card_text(pid)] -= 1
    for p in range(n):
        pool.subtract(known[p])
    hidden = tuple(sorted(pool.elements()))
    result = Knowledge(
        seat=seat,
        known=tuple({k: v for k, v in c.items() if v > 0} for c in known),
        groups=tuple(() if p == seat else tuple((f, k) for f, k in groups[p] if k > 0) for p in range(n)),
        pool=hidden,
        seen_log=seen_log,
    )
    places = sum(result.slots) + len(state.stock)
    assert places == len(hidden), f"seat {seat} sees {places} hidden places, {len(hidden)} cards"
    state.det_cache[seat] = (len(state.log), result)
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
    order = sorted(
        (p for p in range(state.n) if p != seat),
        key=lambda p: (p not in (chooser, drawn_by), not any(f for f, _ in know.groups[p])),
    )
    dealt = None
    for attempt in range(_TRIES + 1):
        if attempt:
            rng.shuffle(pool)
        dealt = _deal(know, pool, order, drawn_by, chooser, fits, least, design_of,
                      groups=attempt < _TRIES)
        if dealt is not None:
            break
    assert dealt is not None  # without the groups every deal fits
    hands, drawn_key, rest = dealt
    for p in order:
        hand = 0
        for design_key, count in sorted(know.known[p].items()):
            for _ in range(count):
                hand |= 1 << take(design_key)
        for i, design_key in enumerate(hands[p]):
            pid = take(design_key)
            hand |= 1 << pid
            if p == drawn_by and i == 0:
                other.drawn = pid  # the card it just drew, playable or not, is one of its hidden cards
        other.hands[p] = hand
    other.stock = [take(k) for k in rest]
    decision = state.pending
    if decision is not None and decision.kind == "select" and decision.seat != seat:
        frame = other.frames[-1]
        step = frame.steps[frame.index]
        from dataclasses import replace

        other.pending = replace(decision, candidates=matching(other, decision.seat, step.filter))
    other.seed = rng.getrandbits(63)
    other.origin = None  # a hand-made start would show the real first deal
    other.log = list(know.seen_log)
    other.history = []
    return other


_TRIES = 20
"""Deals tried against the groups of what players could not hold, before dealing without."""


def _designs(cards: Sequence[CardDef], test: Callable[[CardDef], bool]) -> int:
    """The designs (a bitmask of indexes into ``cards``) that pass ``test``."""
    return sum(1 << i for i, card in enumerate(cards) if test(card))


def _deal(
    know: Knowledge, pool: list[str], order: list[int], drawn_by: int | None, chooser: int | None,
    fits: Callable[[str], bool], least: int, design_of: dict[str, int], groups: bool,
) -> tuple[dict[int, list[str]], str | None, list[str]] | None:
    """The hidden cards of each hand (design keys; a drawn card first) and the stock, from the
    shuffled ``pool``; None when the groups of what hands cannot hold cannot all be met."""
    pool = pool[:]
    hands: dict[int, list[str]] = {}
    drawn_key = None
    for p in order:
        keys: list[str] = []
        if groups:
            parts = [[forbidden, count] for forbidden, count in know.groups[p]]
        else:
            parts = [[0, know.slots[p]]] if know.slots[p] else []

        def newest(k: int, parts: list[list[int]] = parts) -> None:
            """``k`` of the hand's newest hidden cards are dealt already."""
            while k > 0 and parts:
                take = min(k, parts[-1][1])
                parts[-1][1] -= take
                k -= take
                if parts[-1][1] == 0:
                    parts.pop()

        if p == drawn_by:
            drawn_key = pool.pop(0)  # drawn at the start of this turn: its newest card
            keys.append(drawn_key)
            newest(1)
        if p == chooser and any(count for _, count in parts):
            have = [k for k, count in know.known[p].items() for _ in range(count) if fits(k)]
            picked = _enough_to_choose(pool, fits, least, have)
            for i in sorted(picked, reverse=True):
                keys.append(pool.pop(i))
            newest(len(picked))
        for forbidden, count in parts:
            if not forbidden:
                keys.extend(pool[:count])
                del pool[:count]
                continue
            chosen = [i for i, key in enumerate(pool) if not forbidden >> design_of[key] & 1][:count]
            if len(chosen) < count:
                return None
            for i in reversed(chosen):
                keys.append(pool.pop(i))
        hands[p] = keys
    return hands, drawn_key, pool


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
