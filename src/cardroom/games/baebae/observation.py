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

from cardroom.cards import bits_of
from cardroom.games.baebae.actions import ActionSpace
from cardroom.games.baebae.effects import SUITS
from cardroom.games.baebae.interpreter import Phase
from cardroom.games.baebae.native import NativeBaebaeState
from cardroom.games.baebae.rules import Rules
from cardroom.games.baebae.state import BaebaeState
from cardroom.games.tensor import Layout, PerRules, Slice, put_bits, put_floats
from cardroom.native import core

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
        """How many one-hot entries follow the counts."""
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
        copies = [0] * designs
        for design in rules.card_of:
            copies[design] += 1
        self.per_copy = [1.0 / c for c in copies]
        self.orders = [tuple((seat + k) % n for k in range(n)) for seat in range(n)]
        """For each observing seat, the seats in the order of the per-seat slices."""


_tables = PerRules(_Tables).get




class BaebaeObservation:
    """BAEBAE's encoder: see :mod:`cardroom.games.tensor` for the five methods."""

    private = frozenset({"hand", "drawn", "pending_card", "decision", "purpose", "may_stop"})
    """The seat's own secrets (its cards, the card it drew, its pending decision): the rest is
    public."""

    def size(self, rules: Rules) -> int:
        return _tables(rules).layout.size

    def num_actions(self, rules: Rules) -> int:
        return ActionSpace(len(rules.cards), rules.players, rules.max_options).size

    def slices(self, rules: Rules) -> list[Slice]:
        return list(_tables(rules).layout.slices)

    def bounds(self, rules: Rules) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        return _tables(rules).layout.bounds()

    def encode(self, state: Any, seat: int, out: npt.NDArray[np.float32]) -> None:
        assert isinstance(state, BaebaeState | NativeBaebaeState)  # the same fields on either engine
        if isinstance(state, NativeBaebaeState) and out.dtype == np.float32 and out.flags.c_contiguous:
            # The C++ encoder (native/cardroom/baebae_vector.hpp): the same array, bit for bit
            # (tests/native/test_vector_native.py), without reading the position into Python.
            core().baebae_observe(state, seat, out)
            return
        rules = state.rules
        at = _tables(rules)
        n = state.n
        card_of = rules.card_of
        # The one-hot entries, each at its place in the array, packed in one int.
        bits = 1 << (at.top + card_of[state.discard[-1]])
        turn = state.turn
        if state.drawn is not None and turn == seat:
            bits |= 1 << (at.drawn + card_of[state.drawn])
        decision = state.pending
        if decision is not None and decision.seat == seat:
            bits |= 1 << (at.pending_card + card_of[decision.card])
            bits |= 1 << (at.decision + KINDS.index(decision.kind))
            if decision.kind == "select":
                bits |= 1 << (at.purpose + PURPOSES.index(decision.purpose))
                bits |= decision.may_stop << at.may_stop
        bits |= 1 << (at.suit + state.suit)
        bits |= state.declared << at.declared
        bits |= (state.direction == 1) << at.direction
        phase = _PHASES.get(state.phase)
        if phase is not None:
            bits |= 1 << (at.phase + phase)
        if turn is not None:
            bits |= 1 << (at.to_act + (turn - seat) % n)
        hand = state.hands[seat]
        if rules.one_copy:
            # One card per design: a card is its design, and every count is 0 or 1.
            discard = 0
            for pid in state.discard:
                discard |= 1 << pid
            put_bits(out, bits | hand << at.hand | discard << at.discard, at.counts + at.bits)
        else:
            designs = at.designs
            per_copy = at.per_copy
            counts = [0.0] * (2 * designs)
            for pid in bits_of(hand):
                design = card_of[pid]
                counts[design] += per_copy[design]
            for pid in state.discard:
                design = card_of[pid]
                counts[designs + design] += per_copy[design]
            put_floats(out, at.hand, counts)
            put_bits(out[at.counts:], bits >> at.counts, at.bits)
        order = at.orders[seat]
        hands = state.hands
        skips = state.skips
        penalties = state.round_penalties
        totals = state.totals
        size = at.hand_size
        scalars = [hands[s].bit_count() / size for s in order]
        scalars += [skips[s] for s in order]
        scalars.append(len(state.stock) / at.deck)
        scalars += [penalties[s] / 10 for s in order]
        scalars += [totals[s] / 100 for s in order]
        scalars.append(state.round_no / rules.rounds)
        put_floats(out, at.hand_sizes, scalars)


encoder = BaebaeObservation()
"""The encoder BAEBAE's spec names."""
