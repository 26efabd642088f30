"""BAEBAE's observation for learning environments: what one seat may know, as a float array.

Built from the seat's view only (RULINGS E14): its hand as counts per card design, the card
it drew, its pending decision, and what everyone sees (the discard pile, the suit in play,
the direction, hand sizes, the stockpile's size, skips, penalties and totals). The card
designs come from the deck, so the array's size depends on the deck and the players.
Per-seat slices start with the observing seat and go on in seat order. The layout is listed
by :meth:`BaebaeObservation.slices` and in docs/research.md.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from cardroom.games.baebae.actions import ActionSpace
from cardroom.games.baebae.effects import SUITS
from cardroom.games.baebae.interpreter import Phase
from cardroom.games.baebae.rules import Rules
from cardroom.games.baebae.state import BaebaeState
from cardroom.games.tensor import Layout, Slice, put_bits

__all__ = ["BaebaeObservation", "encoder"]

KINDS = ("optional", "declare", "target", "option", "select")
"""The kinds of pending decision, in the order of the ``decision`` one-hot."""
PURPOSES = ("discard", "discard_under", "give")
"""What a card is selected for, in the order of the ``purpose`` one-hot."""
_PHASES = {Phase.PLAY: 0, Phase.DRAWN: 1, Phase.DECIDE: 2}
_INF = math.inf


class _Tables:
    """The layout for one set of rules, and the deck's tables the encoder reads."""

    def __init__(self, rules: Rules) -> None:
        n = rules.players
        designs = len(rules.cards)
        seats = f"{n} seats from this one"
        lay = Layout()
        self.hand = lay.add("hand", designs,
                            f"this seat's cards per design ({designs} designs of the deck), over the "
                            "design's copies")
        self.discard = lay.add("discard", designs,
                               "cards of each design in the discard pile, over its copies")
        self.counts = lay.size
        self.top = lay.add("top", designs, "the discard pile's top card (design one-hot)")
        self.drawn = lay.add("drawn", designs, "the card this seat just drew and may play (design one-hot)")
        self.pending_card = lay.add("pending_card", designs,
                                    "the card whose action asks this seat to decide (design one-hot)")
        self.suit = lay.add("suit", 4, f"the suit in play ({' '.join(SUITS)} one-hot)")
        self.declared = lay.add("declared", 1, "1 if the suit was named (then rank does not match)")
        self.direction = lay.add("direction", 1, "1 while play goes to the next seat up, 0 when reversed")
        self.phase = lay.add("phase", 3, "play, drawn (play the card drawn or pass), decide (one-hot)")
        self.decision = lay.add("decision", len(KINDS),
                                f"this seat's pending decision: {', '.join(KINDS)} (one-hot)")
        self.purpose = lay.add("purpose", len(PURPOSES),
                               f"what a card is selected for: {', '.join(PURPOSES)} (one-hot)")
        self.may_stop = lay.add("may_stop", 1, "1 if this seat may stop selecting (done)")
        self.to_act = lay.add("to_act", n, f"the seat to act ({seats}, one-hot)")
        self.bits = lay.size - self.counts
        deck = len(rules.card_of)
        hand = rules.hand_size or 1
        self.hand_sizes = lay.add("hand_sizes", n,
                                  f"cards in each seat's hand ({seats}), over the hand dealt",
                                  high=deck / hand)
        self.skips = lay.add("skips", n, f"turns each seat is still to lose ({seats})", high=_INF)
        self.stock = lay.add("stock", 1, "cards in the stockpile, over the cards of the deck")
        self.penalties = lay.add("round_penalties", n,
                                 f"penalty points each seat took this round ({seats}), over 10",
                                 low=-_INF, high=_INF)
        self.totals = lay.add("totals", n, f"each seat's running total ({seats}), over 100",
                              low=-_INF, high=_INF)
        self.round = lay.add("round", 1, "the round being played, over the rounds in the game")
        self.layout = lay
        self.designs = designs
        self.deck = deck
        self.hand_size = hand
        self.card_of = np.array(rules.card_of, np.intp)
        self.per_copy = (1.0 / np.bincount(self.card_of, minlength=designs)).astype(np.float32)


_TABLES: dict[int, tuple[Rules, _Tables]] = {}


def _tables(rules: Rules) -> _Tables:
    # Keyed by the rules object itself: hashing a deck's rules on every step would cost more
    # than the encoding.
    entry = _TABLES.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_TABLES) > 64:
            _TABLES.clear()
        entry = _TABLES[id(rules)] = (rules, _Tables(rules))
    return entry[1]


def _pids(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class BaebaeObservation:
    """BAEBAE's encoder: see :mod:`cardroom.games.tensor` for the five methods."""

    def size(self, rules: Rules) -> int:
        return _tables(rules).layout.size

    def num_actions(self, rules: Rules) -> int:
        return ActionSpace(len(rules.cards), rules.players, rules.max_options).size

    def slices(self, rules: Rules) -> list[Slice]:
        return list(_tables(rules).layout.slices)

    def bounds(self, rules: Rules) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        return _tables(rules).layout.bounds()

    def encode(self, state: Any, seat: int, out: npt.NDArray[np.float32]) -> None:
        assert isinstance(state, BaebaeState)
        rules = state.rules
        at = _tables(rules)
        n = state.n
        designs = at.designs
        card_of = at.card_of
        out[at.hand:at.hand + designs] = np.bincount(
            card_of[_pids(state.hands[seat])], minlength=designs) * at.per_copy
        out[at.discard:at.discard + designs] = np.bincount(
            card_of[state.discard], minlength=designs) * at.per_copy
        base = at.counts
        bits = 1 << (at.top - base + rules.card_of[state.discard[-1]])
        turn = state.turn
        if state.drawn is not None and turn == seat:
            bits |= 1 << (at.drawn - base + rules.card_of[state.drawn])
        decision = state.pending
        if decision is not None and decision.seat == seat:
            bits |= 1 << (at.pending_card - base + rules.card_of[decision.card])
            bits |= 1 << (at.decision - base + KINDS.index(decision.kind))
            if decision.kind == "select":
                bits |= 1 << (at.purpose - base + PURPOSES.index(decision.purpose))
                bits |= decision.may_stop << (at.may_stop - base)
        bits |= 1 << (at.suit - base + state.suit)
        bits |= state.declared << (at.declared - base)
        bits |= (state.direction == 1) << (at.direction - base)
        phase = _PHASES.get(state.phase)
        if phase is not None:
            bits |= 1 << (at.phase - base + phase)
        if turn is not None:
            bits |= 1 << (at.to_act - base + (turn - seat) % n)
        put_bits(out[base:], bits, at.bits)
        order = [(seat + k) % n for k in range(n)]
        hand = at.hand_size
        out[at.hand_sizes:] = [
            *(state.hands[s].bit_count() / hand for s in order),
            *(state.skips[s] for s in order),
            len(state.stock) / at.deck,
            *(state.round_penalties[s] / 10 for s in order),
            *(state.totals[s] / 100 for s in order),
            state.round_no / rules.rounds,
        ]


encoder = BaebaeObservation()
"""The encoder BAEBAE's spec names."""
