"""Dealing Baha's hidden cards again, consistently with all one seat knows.

What a seat knows is read from its filtered log of the current hand (never from the true
hidden cards), so two states that look the same to the seat determinize the same way:

- its own hand, face-down cards and draws; the cards it passed (the receiver holds them
  until they are played) and received;
- every card played, and every failure to follow colour: from then on the player lacks that
  colour, until it draws a card (draw-pile variant), which may be of any colour;
- how many cards lie in each hand, the leftovers, the draw pile and each face-down pile.

Each other player's hand is a list of *slots*, each with the colours it cannot be. A card a
player plays from an unknown slot is taken from the most constrained slot that allows it:
slots of one player have nested constraints (older slots carry every later void too), so
that choice leaves the most freedom for the rest, and any consistent world stays reachable.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from cardroom.cards import Card, CardMask, mask_of
from cardroom.engine import Event
from cardroom.games.baha.actions import Phase
from cardroom.games.baha.cards import BAHA_DECK, FULL_BAHA_MASK, VALUES, cards_of, parse_baha_card
from cardroom.games.baha.events import baha_events
from cardroom.games.baha.views import visible_event

if TYPE_CHECKING:
    from cardroom.games.baha.state import BahaState

__all__ = ["Knowledge", "knowledge", "determinize"]

CARD_COLOUR: Final = tuple(c // VALUES for c in BAHA_DECK)
_RETRIES = 64


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows of the hidden cards of the current hand."""

    seat: int
    unknown: tuple[Card, ...]          # cards whose place the seat does not know
    known_in_hand: tuple[CardMask, ...]  # cards the seat knows are in each other hand
    hand_slots: tuple[tuple[int, ...], ...]  # per seat: forbidden colours (bits) of each slot
    leftover: int
    draw_pile: int
    face_down: tuple[int, ...]         # hidden face-down cards per other seat
    picks_made: tuple[int, ...]
    seen_log: tuple[Event, ...]        # the seat's filtered log, the log of every world


def knowledge(state: BahaState, seat: int) -> Knowledge:
    """Read what ``seat`` knows from its view of this hand's events (cached per log length)."""
    cached = state.det_cache.get(seat)
    if cached is not None and cached[0] == len(state.log):
        return cached[1]  # type: ignore[no-any-return]
    n = state.n
    slots: list[list[int]] = [[] for _ in range(n)]
    known = [0] * n
    picks_made = [0] * n
    face_down = [0] * n
    leftover = draw_pile = 0
    led: int | None = None
    seen_log = tuple(visible_event(e, seat) for e in state.log)
    for event in baha_events(seen_log[state.hand_start:]):
        if event["t"] == "play":
            p = event["p"]
            card = parse_baha_card(event["card"])
            colour = CARD_COLOUR[card]
            if led is None:
                led = colour
            if p != seat:
                if known[p] >> card & 1:
                    known[p] &= ~(1 << card)
                else:
                    _take_slot(slots[p], colour)
                if colour != led:
                    slots[p] = [f | 1 << led for f in slots[p]]
        elif event["t"] == "trick":
            led = None
            if event["leftover"] and event["winner"] != seat:
                face_down[event["winner"]] += len(event["leftover"])
            leftover = 0
        elif event["t"] == "draw":
            draw_pile -= 1
            if event["p"] != seat:
                slots[event["p"]].append(0)
        elif event["t"] == "take":
            draw_pile -= len(event["cards"])
            if event["p"] != seat:
                face_down[event["p"]] += len(event["cards"])
        elif event["t"] == "pass_pick":
            picks_made[event["p"]] += 1
        elif event["t"] == "pass":
            picks_made = [0] * n
            if event["from"] == seat and event["to"] != seat:
                to = event["to"]
                for text in event["cards"]:
                    known[to] |= 1 << parse_baha_card(text)
                del slots[to][: len(event["cards"])]  # no voids yet: the slots are alike
        elif event["t"] == "hand":
            slots = [[] if s == seat else [0] * len(h) for s, h in enumerate(event["hands"])]
            leftover = len(event["leftover"])
            draw_pile = len(event["draw_pile"])
    own = state.hands[seat] | state.face_down[seat]
    seen = own | state.played
    for mask in known:
        seen |= mask
    unknown = tuple(cards_of(FULL_BAHA_MASK & ~seen))
    result = Knowledge(
        seat=seat,
        unknown=unknown,
        known_in_hand=tuple(known),
        hand_slots=tuple(tuple(s) for s in slots),
        leftover=leftover,
        draw_pile=draw_pile,
        face_down=tuple(face_down),
        picks_made=tuple(picks_made),
        seen_log=seen_log,
    )
    places = sum(map(len, slots)) + leftover + draw_pile + sum(face_down)
    assert places == len(unknown), f"seat {seat} sees {places} hidden places, {len(unknown)} cards"
    state.det_cache[seat] = (len(state.log), result)
    return result


def _take_slot(slots: list[int], colour: int) -> None:
    """Remove the most constrained slot that may hold ``colour`` (see the module doc)."""
    best = -1
    for i, forbidden in enumerate(slots):
        if not forbidden >> colour & 1 and (best < 0 or forbidden.bit_count() > slots[best].bit_count()):
            best = i
    if best < 0:
        raise AssertionError(f"no hidden slot can hold a card of colour {colour}")
    del slots[best]


def _fill(know: Knowledge, rng: random.Random) -> dict[tuple[str, int], list[Card]]:
    """Give every hidden place a card: constrained hand slots first, then a shuffle."""
    constrained = [
        (p, f) for p, fs in enumerate(know.hand_slots) for f in fs if f
    ]
    constrained.sort(key=lambda pf: -pf[1].bit_count())
    for _ in range(_RETRIES):
        placed = _try_constrained(constrained, know.unknown, rng)
        if placed is not None:
            break
    else:
        placed = _match_constrained(constrained, know.unknown, rng)
    chosen = {c for _, c in placed}
    rest = [c for c in know.unknown if c not in chosen]
    rng.shuffle(rest)
    out: dict[tuple[str, int], list[Card]] = {}
    for p, card in placed:
        out.setdefault(("hand", p), []).append(card)
    i = 0
    for p, fs in enumerate(know.hand_slots):
        free = sum(1 for f in fs if not f)
        out.setdefault(("hand", p), []).extend(rest[i:i + free])
        i += free
    for p, count in enumerate(know.face_down):
        out[("face_down", p)] = rest[i:i + count]
        i += count
    out[("leftover", 0)] = rest[i:i + know.leftover]
    i += know.leftover
    out[("draw_pile", 0)] = rest[i:i + know.draw_pile]
    return out


def _try_constrained(
    slots: list[tuple[int, int]], unknown: tuple[Card, ...], rng: random.Random
) -> list[tuple[int, Card]] | None:
    """Deal the constrained slots, the most constrained kind first, or None on a dead end.

    The slots that forbid the same colours take a sample of the cards still left that they
    allow (the same as drawing for them one by one), so one scan of the cards serves all of
    them.
    """
    groups: dict[int, list[int]] = {}
    for p, forbidden in slots:
        groups.setdefault(forbidden, []).append(p)
    left = set(unknown)
    placed: list[tuple[int, Card]] = []
    for forbidden, players in groups.items():
        eligible = [c for c in unknown if c in left and not forbidden >> CARD_COLOUR[c] & 1]
        if len(eligible) < len(players):
            return None
        chosen = rng.sample(eligible, len(players))
        left.difference_update(chosen)
        placed.extend(zip(players, chosen, strict=True))
    return placed


def _match_constrained(
    slots: list[tuple[int, int]], unknown: tuple[Card, ...], rng: random.Random
) -> list[tuple[int, Card]]:
    """Bipartite matching of slots to cards (augmenting paths), for when chance fails."""
    cards = list(unknown)
    rng.shuffle(cards)
    owner: dict[Card, int] = {}

    def augment(slot: int, visited: set[Card]) -> bool:
        forbidden = slots[slot][1]
        for card in cards:
            if forbidden >> CARD_COLOUR[card] & 1 or card in visited:
                continue
            visited.add(card)
            if card not in owner or augment(owner[card], visited):
                owner[card] = slot
                return True
        return False

    for slot in range(len(slots)):
        if not augment(slot, set()):
            raise AssertionError("the hidden cards admit no deal consistent with the voids")
    return [(slots[s][0], c) for c, s in owner.items()]


def determinize(state: BahaState, seat: int, rng: random.Random) -> BahaState:
    """See :meth:`BahaState.determinize`."""
    know = knowledge(state, seat)
    filled = _fill(know, rng)
    other = state.clone()
    n = state.n
    mask = mask_of
    for p in range(n):
        if p == seat:
            continue
        other.hands[p] = know.known_in_hand[p] | mask(filled.get(("hand", p), []))
        hidden = mask(filled[("face_down", p)])
        other.taken[p] = (state.taken[p] & ~state.face_down[p]) | hidden
        other.face_down[p] = hidden
        other.picks[p] = 0
        if state.passed[p] and seat not in (p, (p + state.pass_offset) % n):
            other.passed[p] = 0  # a pass between two other seats is not re-imagined
        if state.received[p] and seat not in (p, (p - state.pass_offset) % n):
            other.received[p] = 0
    other.leftover = mask(filled[("leftover", 0)])
    other.draw_pile = filled[("draw_pile", 0)]
    if state.phase is Phase.PASS:
        for p in range(n):
            if p != seat and know.picks_made[p]:
                other.picks[p] = mask(rng.sample(cards_of(other.hands[p]), know.picks_made[p]))
    other.seed = rng.getrandbits(63)
    other.origin = None  # a hand-made start would show the real first deal
    other.log = list(know.seen_log)
    other.history = []  # others' picks would show in it; a determinized state has no past
    return other
