"""A Baha player of plain rules of thumb, reading only its seat's view.

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
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardroom.cards import colour_of, parse_baha_card, value_of
from cardroom.engine import Action, State
from cardroom.games.baha.state import PASS_BASE

__all__ = ["BahaHeuristic"]

MOON_SIGNAL = 16
"""Horns one player has taken, with nobody else having any, before the others fear a moon."""


class BahaHeuristic:
    """The rules of thumb above; ``seed`` only breaks ties."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, state: State, seat: int) -> Action:
        view = state.view(seat)
        legal = view["legal_actions"] or state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        hand = [parse_baha_card(t) for t in view["hand"]]
        if view["phase"] == "pass":
            return PASS_BASE + self._pass_card(view, hand, [a - PASS_BASE for a in legal])
        return self._play_card(view, hand, legal)

    # -- passing -----------------------------------------------------------------------

    def _pass_card(self, view: dict[str, Any], hand: list[int], choices: list[int]) -> int:
        rules = view["rules"]
        if rules["moon"] and _moon_hand(hand):
            return min(choices, key=lambda c: (value_of(c), colour_of(c)))
        counts = [sum(1 for c in hand if colour_of(c) == k) for k in range(4)]

        def danger(card: int) -> tuple[float, int]:
            score = value_of(card) + 4 * _horns(card, rules)
            if counts[colour_of(card)] <= 3:
                score += 6  # helps make a void
            return score, card

        return max(choices, key=danger)

    # -- playing -----------------------------------------------------------------------

    def _play_card(self, view: dict[str, Any], hand: list[int], legal: Sequence[int]) -> int:
        rules = view["rules"]
        seat = view["seat"]
        trick = [(t["p"], parse_baha_card(t["card"])) for t in view["trick"]]
        shooter = _moon_threat(view)
        mooning = shooter == seat and rules["moon"]
        if not trick:
            return self._lead(view, hand, legal, mooning)
        led = colour_of(trick[0][1])
        winner_seat, top = max(
            ((p, c) for p, c in trick if colour_of(c) == led), key=lambda pc: value_of(pc[1])
        )
        last = len(trick) == view["players"] - 1
        trick_horns = sum(_horns(c, rules) for _, c in trick)
        following = [c for c in legal if colour_of(c) == led]
        if following:
            under = [c for c in following if value_of(c) < value_of(top)]
            over = [c for c in following if value_of(c) > value_of(top)]
            if mooning and over:
                return max(over, key=value_of)
            if shooter is not None and shooter != seat and winner_seat == shooter and over and (
                trick_horns or last
            ):
                return min(over, key=value_of)  # stop the moon: take this one
            if under:
                return max(under, key=value_of)
            if last:
                return max(following, key=value_of)  # the trick is ours anyway
            return min(following, key=value_of)
        # void in the led colour
        if mooning:
            return min(legal, key=lambda c: (_horns(c, rules), value_of(c)))
        if shooter is not None and shooter != seat and winner_seat == shooter:
            safe = [c for c in legal if not _horns(c, rules)]
            if safe:
                return max(safe, key=value_of)
        return max(legal, key=lambda c: (_horns(c, rules), value_of(c)))

    def _lead(self, view: dict[str, Any], hand: list[int], legal: Sequence[int], mooning: bool) -> int:
        if mooning:
            return max(legal, key=value_of)
        played = {parse_baha_card(t) for t in view["played"]}
        mine = set(hand)

        def safety(card: int) -> tuple[int, int, float]:
            colour = colour_of(card)
            higher_out = sum(
                1 for v in range(value_of(card) + 1, 14)
                if (c := colour * 13 + v - 1) not in played and c not in mine
            )
            return (-higher_out, value_of(card), self.rng.random())

        return min(legal, key=safety)


def _horns(card: int, rules: dict[str, Any]) -> int:
    value = value_of(card)
    if value < 9:
        return 0
    return value if rules["scoring"] == "face" else value - 8


def _moon_hand(hand: list[int]) -> bool:
    """Enough high cards to hope to take every horned card."""
    high = sum(1 for c in hand if value_of(c) >= 11)
    return high >= 8 and len(hand) >= 12


def _moon_threat(view: dict[str, Any]) -> int | None:
    """The seat that has taken every horn shown this hand, if it has taken many."""
    horns = view["horns_shown"]
    takers = [s for s, h in enumerate(horns) if h]
    if len(takers) == 1 and horns[takers[0]] >= MOON_SIGNAL:
        return takers[0]
    return None
