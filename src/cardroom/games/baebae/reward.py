"""What a BAEBAE search rewards: the ``ismcts`` agent's ``reward`` option.

``points`` (the default, :meth:`BaebaeState.returns`): each total's distance below the table's
mean, in tens. It minimises the expected penalty, which is not the same as winning the game: a
round lost by 2 points and a round lost by 20 differ by ten times as much, though both lose.
``win`` (:func:`win_returns`): each seat's share of the game's win, less ``1/n`` so the table's
mean is 0. Once the game is over the share is exact (1 for the lowest total, equal lowest
totals split it); in an earlier round it stands in for the chance of winning from the totals
so far: a softmax of minus each total over ``temperature * sqrt(rounds still to score)``
penalty points, so a lead counts for less the more rounds remain.
``native/cardroom/baebae_reward.hpp`` computes the same, number for number.

>>> [round(r, 3) for r in win_returns([10, 10, 30, 40], rounds_left=0, temperature=8)]
[0.25, 0.25, -0.25, -0.25]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["win_returns", "rounds_left"]


def win_returns(totals: Sequence[int], rounds_left: int, temperature: float) -> list[float]:
    """Each seat's share of the win from ``totals`` less ``1/n`` (see the module);
    ``rounds_left``: the rounds whose penalties are not yet in ``totals``, 0 once the game is over."""
    n = len(totals)
    best = min(totals)
    if rounds_left <= 0:
        shares = [1.0 if t == best else 0.0 for t in totals]
    else:
        scale = temperature * math.sqrt(rounds_left)
        shares = [math.exp(-(t - best) / scale) for t in totals]
    whole = sum(shares)
    return [share / whole - 1.0 / n for share in shares]


def rounds_left(rounds: int, round_no: int, over: bool) -> int:
    """The rounds not yet scored: none once the game is over, else the current one (finished or
    cut short by the search, it is not yet in the totals) and those after it."""
    return 0 if over else rounds - round_no + 1
