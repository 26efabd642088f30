"""Bounds on one BAEBAE round, for frameworks that declare a game's length and utilities."""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.engine import Rules
from cardroom.games import DealLimits
from cardroom.games.baebae.effects import Step
from cardroom.games.baebae.rules import Rules as BaebaeRules

__all__ = ["deal_limits"]


def _decisions(steps: Sequence[Step], players: int) -> int:
    """The most decisions one run of ``steps`` can ask for: a target, an option or a suit per
    step, and a card selected ``count`` times for every player it reaches."""
    return sum(
        2 + step.count * players
        + max((_decisions(o.effects, players) for o in step.options), default=0)
        + max(_decisions(step.heads, players), _decisions(step.tails, players))
        for step in steps
    )


def _penalty(steps: Sequence[Step]) -> int:
    """The most penalty points one run of ``steps`` gives any one seat."""
    return sum(
        abs(step.points)
        + max((_penalty(o.effects) for o in step.options), default=0)
        + max(_penalty(step.heads), _penalty(step.tails))
        for step in steps
    )


def deal_limits(rules: Rules) -> DealLimits:
    """A round has at most ``turn_limit + 1`` turns (the guard ends it after that many); a turn
    is a play or a draw, a play or pass after the draw, and the played card's action (an
    optional action's yes or no, then its steps); the round's starter may run one more action.
    A seat's penalty is what its hand holds (at most every card's) and what penalty steps gave
    it; ``returns()`` counts in tens of points, and a seat's moves by at most twice its own
    change (the table's mean moves too).

    >>> limits = deal_limits(BaebaeRules(players=4))
    >>> limits.actions > 2000 and limits.returns > 0
    True
    """
    assert isinstance(rules, BaebaeRules)
    players = rules.players
    action = max(1 + _decisions(card.effects, players) for card in rules.cards)
    turns = rules.turn_limit + 1
    hand = sum(abs(rules.penalties[d]) for d in rules.card_of)
    steps = max(_penalty(card.effects) for card in rules.cards)
    return DealLimits(
        actions=turns * (2 + action) + action,
        returns=2 * (hand + (turns + 1) * steps) / 10,
    )
