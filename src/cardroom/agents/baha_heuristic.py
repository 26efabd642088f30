"""A Baha player of plain rules of thumb, reading only what its seat may know.

Passing
  1. With a hand that can take every horned card (many high cards), keep them: pass the
     lowest cards and try the moon.
  2. Otherwise pass the most dangerous cards: high values, horns, and the last cards of a
     short colour (a void lets you throw horns later).

Playing
  3. Leading: lead the lowest card of the colour in which the others hold the most higher
     cards (somebody else will take the trick).
  4. Following: play the highest card that stays under the trick's winning card; if every
     card would win, and the trick is taken anyway, take it with the highest.
  5. Void in the led colour: throw the most dangerous card (most horns, then highest).
  6. Someone is shooting the moon (has taken every horn played, and many): take a trick
     with horns in it if possible, and never throw horns onto their trick.
  7. Shooting the moon oneself: win every trick with horns in it, lead high.

It reads its seat's :meth:`~cardroom.games.baha.BahaState.observation` (the view as ints)
and the legal actions, nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.agents.base import StreamSeeded
from cardroom.engine import Action, State
from cardroom.games.baha.cards import BAHA_DECK, cards_of, colour_of, value_of
from cardroom.games.baha.native import NativeBahaState
from cardroom.games.baha.rules import Rules
from cardroom.games.baha.state import PASS_BASE, BahaState, Observation, Phase

__all__ = ["BahaHeuristic"]

MOON_SIGNAL = 16
"""Horns one player has taken, with nobody else having any, before the others fear a moon."""

_VALUE = tuple(value_of(c) for c in BAHA_DECK)
_COLOUR = tuple(colour_of(c) for c in BAHA_DECK)


class BahaHeuristic(StreamSeeded):
    """The rules of thumb above; ``seed`` only breaks ties."""

    name = "heuristic"

    def act(self, state: State, seat: int) -> Action:
        self.follow(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        assert isinstance(state, BahaState | NativeBahaState), "the Baha heuristic plays Baha only"
        seen = state.observation(seat)
        if seen.phase is Phase.PASS:
            return PASS_BASE + self._pass_card(seen, [a - PASS_BASE for a in legal])
        return self._play_card(seen, legal)

    # -- passing -----------------------------------------------------------------------

    def _pass_card(self, seen: Observation, choices: list[int]) -> int:
        rules = seen.rules
        hand = cards_of(seen.hand)
        if rules.moon and _moon_hand(hand):
            return min(choices, key=lambda c: (_VALUE[c], _COLOUR[c]))
        counts = [sum(1 for c in hand if _COLOUR[c] == k) for k in range(4)]
        points = rules.points

        def danger(card: int) -> tuple[float, int]:
            score = _VALUE[card] + 4 * points[card]
            if counts[_COLOUR[card]] <= 3:
                score += 6  # helps make a void
            return score, card

        return max(choices, key=danger)

    # -- playing -----------------------------------------------------------------------

    def _play_card(self, seen: Observation, legal: Sequence[int]) -> int:
        rules: Rules = seen.rules
        points = rules.points
        seat = seen.seat
        trick = seen.trick
        shooter = _moon_threat(seen.horns_shown)
        mooning = shooter == seat and rules.moon
        if not trick:
            return self._lead(seen, legal, mooning)
        led = _COLOUR[trick[0][1]]
        winner_seat, top = max(((p, c) for p, c in trick if _COLOUR[c] == led), key=lambda pc: pc[1])
        last = len(trick) == rules.players - 1
        trick_horns = sum(points[c] for _, c in trick)
        following = [c for c in legal if _COLOUR[c] == led]
        if following:
            under = [c for c in following if c < top]
            over = [c for c in following if c > top]
            if mooning and over:
                return max(over)
            if shooter is not None and shooter != seat and winner_seat == shooter and over and (
                trick_horns or last
            ):
                return min(over)  # stop the moon: take this one
            if under:
                return max(under)
            if last:
                return max(following)  # the trick is ours anyway
            return min(following)
        # void in the led colour
        if mooning:
            return min(legal, key=lambda c: (points[c], _VALUE[c]))
        if shooter is not None and shooter != seat and winner_seat == shooter:
            safe = [c for c in legal if not points[c]]
            if safe:
                return max(safe, key=lambda c: _VALUE[c])
        return max(legal, key=lambda c: (points[c], _VALUE[c]))

    def _lead(self, seen: Observation, legal: Sequence[int], mooning: bool) -> int:
        if mooning:
            return max(legal, key=lambda c: _VALUE[c])
        known = seen.played | seen.hand

        def safety(card: int) -> tuple[int, int, float]:
            # cards of the same colour above this one that the others may still hold
            higher = ((1 << (_COLOUR[card] * 13 + 13)) - 1) & ~((1 << (card + 1)) - 1)
            higher_out = (higher & ~known).bit_count()
            return (-higher_out, _VALUE[card], self.rng.random())

        return min(legal, key=safety)


def _moon_hand(hand: list[int]) -> bool:
    """Enough high cards to hope to take every horned card."""
    high = sum(1 for c in hand if _VALUE[c] >= 11)
    return high >= 8 and len(hand) >= 12


def _moon_threat(horns: tuple[int, ...]) -> int | None:
    """The seat that has taken every horn shown this hand, if it has taken many."""
    takers = [s for s, h in enumerate(horns) if h]
    if len(takers) == 1 and horns[takers[0]] >= MOON_SIGNAL:
        return takers[0]
    return None
