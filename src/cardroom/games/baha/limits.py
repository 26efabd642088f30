"""Bounds on one Baha hand, for frameworks that declare a game's length and utilities."""

from __future__ import annotations

from cardroom.engine import Rules
from cardroom.games import DealLimits
from cardroom.games.baha.cards import BAHA_DECK
from cardroom.games.baha.rules import PASS_COUNT
from cardroom.games.baha.rules import Rules as BahaRules

__all__ = ["deal_limits"]


def deal_limits(rules: Rules) -> DealLimits:
    """A hand is at most three pass picks a seat and one play per card of the deck (draws
    from the draw pile are dealt, not chosen). A seat's total grows by 0 to one hand's points
    (a moon gives the others exactly that), and ``returns()`` counts in those units, so it
    moves by at most 1 a hand.

    >>> deal_limits(BahaRules(players=4))
    DealLimits(actions=64, returns=1.0)
    """
    assert isinstance(rules, BahaRules)
    passes = PASS_COUNT * rules.players if rules.passing else 0
    return DealLimits(actions=passes + len(BAHA_DECK), returns=1.0)
