"""Baha's observation for learning environments: what one seat may know, as a float array.

Built from the seat's own knowledge only (RULINGS B11): its hand, its picks, passes and
taken cards, and what everyone saw (cards played, the trick, horns shown, voids, totals).
Per-seat slices start with the observing seat and go on in seat order. The layout is listed
by :meth:`BahaObservation.slices` and in docs/research.md.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from cardroom.games.baha.actions import NUM_ACTIONS, Phase
from cardroom.games.baha.cards import BAHA_DECK, VALUES
from cardroom.games.baha.native import NativeBahaState
from cardroom.games.baha.rules import Rules
from cardroom.games.baha.state import BahaState
from cardroom.games.baha.views import horns_shown
from cardroom.games.tensor import Layout, Slice, put_bits, put_floats
from cardroom.native import core

__all__ = ["BahaObservation", "encoder"]

CARDS = len(BAHA_DECK)
_PASS_SLOT = {1: 0, -1: 1, 0: 2}
"""Where each pass offset (right, left, none) sits in the pass-direction one-hot."""


class _Offsets:
    """Where each slice of the layout for ``n`` players starts."""

    def __init__(self, n: int) -> None:
        lay = Layout()
        seats = f"{n} seats from this one"
        self.hand = lay.add("hand", CARDS, "1 for each card this seat holds")
        self.picks = lay.add("picks", CARDS, "1 for each card this seat has chosen to pass (not yet given)")
        self.passed = lay.add("passed", CARDS, "1 for each card this seat gave in this hand's pass")
        self.received = lay.add("received", CARDS, "1 for each card this seat was given in this hand's pass")
        self.played = lay.add("played", CARDS, "1 for each card played this hand, the trick's included")
        self.taken = lay.add("taken", CARDS,
                             "1 for each card this seat has taken this hand (its face-down ones too)")
        self.trick = lay.add("trick", n * CARDS,
                             f"the trick so far: 52 per seat ({seats}), 1 for the card it played")
        self.voids = lay.add("voids", n * 4,
                             f"colours (P R T O) each seat is known to lack, 4 per seat ({seats})")
        self.pass_direction = lay.add("pass_direction", 3, "this hand's pass: right, left, none (one-hot)")
        self.phase = lay.add("phase", 2, "passing, playing (one-hot; both 0 once the game is over)")
        self.to_act = lay.add("to_act", n, f"the seat to act ({seats}, one-hot)")
        self.leader = lay.add("leader", n, f"the seat that leads the trick ({seats}, one-hot)")
        self.led = lay.add("led", 4, "the colour led in this trick (P R T O one-hot; 0 before the lead)")
        self.bits = lay.size
        self.horns = lay.add("horns_shown", n,
                             f"points each seat took face up this hand ({seats}), over one hand's points")
        # Not bounded by 1: hands go on past the target while the lowest total is tied.
        self.totals = lay.add("totals", n,
                              f"each seat's running total ({seats}), over target plus one hand's points",
                              high=float("inf"))
        self.hand_sizes = lay.add("hand_sizes", n, f"cards in each seat's hand ({seats}), over a full hand")
        self.tricks = lay.add("tricks_done", 1, "tricks finished this hand, over the tricks in a hand")
        self.leftover = lay.add("leftover", 1, "face-down cards waiting for the first trick's taker, over 4")
        self.draw_pile = lay.add("draw_pile", 1, "cards in the draw pile, over 52")
        self.layout = lay
        self.orders = [tuple((seat + k) % n for k in range(n)) for seat in range(n)]
        """For each observing seat, the seats in the order of the per-seat slices."""


@lru_cache(maxsize=16)
def _offsets(n: int) -> _Offsets:
    return _Offsets(n)


class BahaObservation:
    """Baha's encoder: see :mod:`cardroom.games.tensor` for the five methods."""

    private = frozenset({"hand", "picks", "passed", "received", "taken"})
    """The seat's own secrets (``taken`` holds its face-down cards): the rest is public."""

    def size(self, rules: Rules) -> int:
        return _offsets(rules.players).layout.size

    def num_actions(self, rules: Rules) -> int:
        return NUM_ACTIONS

    def slices(self, rules: Rules) -> list[Slice]:
        return list(_offsets(rules.players).layout.slices)

    def bounds(self, rules: Rules) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        return _offsets(rules.players).layout.bounds()

    def encode(self, state: Any, seat: int, out: npt.NDArray[np.float32]) -> None:
        assert isinstance(state, BahaState | NativeBahaState)
        if isinstance(state, NativeBahaState) and out.dtype == np.float32 and out.flags.c_contiguous:
            # The C++ encoder (native/cardroom/baha_vector.hpp): the same array, bit for bit
            # (tests/native/test_vector_native.py), several times faster.
            core().baha_observe(state, seat, out)
            return
        n = state.n
        at = _offsets(n)
        rules = state.rules
        order = at.orders[seat]
        hands = state.hands
        taken = state.taken
        bits = (
            hands[seat] << at.hand
            | state.picks[seat] << at.picks
            | state.passed[seat] << at.passed
            | state.received[seat] << at.received
            | state.played << at.played
            | taken[seat] << at.taken
        )
        leader = state.leader
        trick = state.trick
        for i, card in enumerate(trick):
            bits |= 1 << (at.trick + (leader + i - seat) % n * CARDS + card)
        voids = state.voids
        for k, s in enumerate(order):
            bits |= voids[s] << (at.voids + 4 * k)
        bits |= 1 << (at.pass_direction + _PASS_SLOT[state.pass_offset])
        phase = state.phase
        if phase is not Phase.OVER:
            bits |= 1 << (at.phase + (phase is Phase.PLAY))
            bits |= 1 << (at.leader + (leader - seat) % n)
        turn = state.turn
        if turn is not None:
            bits |= 1 << (at.to_act + (turn - seat) % n)
        if trick:
            bits |= 1 << (at.led + trick[0] // VALUES)
        put_bits(out, bits, at.bits)
        horns = horns_shown(state) if isinstance(state, BahaState) else state.horns_shown()
        per_hand = rules.points_per_hand
        top = rules.target + per_hand
        size = rules.hand_size
        totals = state.totals
        scalars = [horns[s] / per_hand for s in order]
        scalars += [totals[s] / top for s in order]
        scalars += [hands[s].bit_count() / size for s in order]
        scalars += [state.tricks_done / (CARDS // n), state.leftover.bit_count() / 4,
                    len(state.draw_pile) / CARDS]
        put_floats(out, at.bits, scalars)


encoder = BahaObservation()
"""The encoder Baha's spec names."""
