"""How much skill matters: a ladder of budgets, each rung against the one below, on duplicate deals.

The rungs are ``random``, ``heuristic``, ISMCTS at doubling iterations (``ismcts:iterations=B``,
``2B``, ``4B``, ...) and then every agent of ``EXTRA_RUNGS`` the registry has (the learned
agent, when it is registered). Each rung plays the one below it on the same duplicate deals
(:func:`cardroom.sim.evaluate.evaluate_pairs`), and for each step the report gives the share of
deals the upper rung did better on (its ``score``: 0.5 is no better), the paired difference of
points, and the upper rung's seat-games won.

The trend is fitted over the ISMCTS steps (each a doubling of the budget): a least-squares line
of the score against the doubling's number (1 for the first doubling). Its slope says how fast
the return of more search falls; where the line meets 0.5 is the estimated number of doublings
after which one more stops paying (``pays_until``; none if the slope is not negative). The
slope has a percentile bootstrap interval over deals (``slope_interval``, with two doublings or
more): with few deals and few doublings it is wide, and the line is a rough guide. The
``range`` is the points between the bottom rung and the top one, the sum of the steps' paired
differences (the same deals: a chain of paired differences), with a bootstrap interval over
deals: how many points a hand skill is worth in this game, with this deck and these rules.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.agents import AGENTS
from cardroom.engine import DeckRules, Rules
from cardroom.sim.evaluate import BOOTSTRAP, Evaluation, evaluate_pairs, games_of, quantile
from cardroom.sim.stats import Estimate

__all__ = ["EXTRA_RUNGS", "skill_rungs", "run_skill", "skill_depth", "Trend", "games_of_skill"]

EXTRA_RUNGS: tuple[str, ...] = ("learned",)
"""Agents put above the ISMCTS rungs when the registry has them."""


def skill_rungs(base: int = 25, doublings: int = 3) -> list[str]:
    """``random``, ``heuristic``, ISMCTS at ``base`` iterations doubled ``doublings`` times, then
    the registered agents of ``EXTRA_RUNGS``.

    >>> skill_rungs(10, 2)[:5]
    ['random', 'heuristic', 'ismcts:iterations=10', 'ismcts:iterations=20', 'ismcts:iterations=40']
    """
    if base < 1 or doublings < 0:
        raise ValueError(
            f"the ISMCTS rungs need a base of 1 iteration or more and 0 doublings or more, "
            f"not {base} and {doublings}"
        )
    rungs = ["random", "heuristic", *(f"ismcts:iterations={base * 2**k}" for k in range(doublings + 1))]
    return rungs + [name for name in EXTRA_RUNGS if name in AGENTS]


@dataclass(frozen=True)
class Trend:
    """The least-squares line ``score = intercept + slope * doubling`` over the ISMCTS steps."""

    intercept: float
    slope: float
    steps: int

    @property
    def pays_until(self) -> float | None:
        """The doubling at which the line meets 0.5 (``None``: it does not fall)."""
        if self.slope >= 0 or math.isnan(self.slope):
            return None
        return (0.5 - self.intercept) / self.slope

    def to_dict(self) -> dict[str, Any]:
        def num(x: float | None) -> float | None:
            return None if x is None or math.isnan(x) else round(x, 4)

        return {
            "intercept": num(self.intercept),
            "slope": num(self.slope),
            "steps": self.steps,
            "pays_until": num(self.pays_until),
        }


def fit_trend(scores: Sequence[float]) -> Trend:
    """The line through ``scores`` at doublings 1, 2, ... (one point: a flat line).

    >>> fit_trend([0.8, 0.7, 0.6]).slope
    -0.1
    """
    n = len(scores)
    if n == 0:
        return Trend(math.nan, math.nan, 0)
    xs = list(range(1, n + 1))
    mx, my = sum(xs) / n, sum(scores) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, scores, strict=True)) / sxx if sxx else 0.0
    return Trend(round(my - slope * mx, 12), round(slope, 12), n)


def games_of_skill(rules: Rules, rungs: Sequence[str], deals: int) -> int:
    return games_of(rules, list(zip(rungs[1:], rungs, strict=False)), deals)


def run_skill(
    rules: Rules,
    rungs: Sequence[str],
    deals: int,
    seed: int,
    *,
    workers: int = 1,
    bootstrap: int = BOOTSTRAP,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play each rung against the one below and report (see the module)."""
    if len(rungs) < 2:
        raise ValueError("skill needs two rungs or more")
    pairs = list(zip(rungs[1:], rungs, strict=False))
    evaluation = evaluate_pairs(
        rules, pairs, deals, seed, workers=workers, bootstrap=bootstrap, progress=progress
    )
    report = skill_depth(evaluation, bootstrap)
    report["deck"] = rules.deck_record() if isinstance(rules, DeckRules) else None
    return report


def bounds(draws: list[float]) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles of bootstrap draws (``nan`` without any)."""
    ordered = sorted(draws)
    return (quantile(ordered, 0.025), quantile(ordered, 0.975)) if ordered else (math.nan, math.nan)


def skill_depth(evaluation: Evaluation, bootstrap: int = BOOTSTRAP) -> dict[str, Any]:
    """The report of an evaluation whose pairings are the steps of a ladder, bottom first."""
    steps = []
    for p in evaluation.pairings:
        steps.append(
            {
                "rung": p.agent,
                "below": p.versus,
                "score": p.score.to_dict(),
                "difference": p.difference.to_dict(),
                "win_rate": p.win_rate.to_dict(),
                "below_win_rate": p.versus_win_rate.to_dict(),
                "points": p.agent_points.to_dict(),
                "below_points": p.versus_points.to_dict(),
                "elo": p.elo.to_dict(),
                "games": p.games,
                "seconds": round(p.seconds, 3),
            }
        )
    doublings = [
        p for p in evaluation.pairings if p.agent.startswith("ismcts:") and p.versus.startswith("ismcts:")
    ]
    n = evaluation.deals
    total = [sum(p.differences[d] for p in evaluation.pairings) for d in range(n)]
    rng = random.Random(evaluation.seed)
    means, slopes = [], []
    for _ in range(bootstrap):  # the same deals drawn again for the range and for every doubling
        drawn = [rng.randrange(n) for _ in range(n)]
        means.append(sum(total[d] for d in drawn) / n)
        if len(doublings) > 1:
            slopes.append(fit_trend([sum(p.outcomes[d] for d in drawn) / n for p in doublings]).slope)
    value = sum(total) / n
    spread = Estimate(value, *bounds(means), n)
    trend = fit_trend([p.score.value for p in doublings])
    trend_shown = trend.to_dict() | {
        "slope_interval": [None if math.isnan(x) else round(x, 4) for x in bounds(slopes)]
    }
    return {
        "game": evaluation.game,
        "rules": evaluation.rules,
        "deals": n,
        "seed": evaluation.seed,
        "unit": evaluation.unit,
        "seconds": round(evaluation.seconds, 3),
        "rungs": [evaluation.pairings[0].versus, *(p.agent for p in evaluation.pairings)],
        "steps": steps,
        "trend": trend_shown,
        "range": {
            "top": evaluation.pairings[-1].agent,
            "bottom": evaluation.pairings[0].versus,
            "difference": spread.to_dict(),
        },
    }
