"""Intervals and tests for the designer's figures: t intervals of means, Welch and paired
differences, Wilson rates, and Holm's adjustment for many comparisons at once."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as scipy_stats

from cardroom.sim.stats import Estimate, wilson

__all__ = [
    "Difference", "holm", "mean_moments", "mean_t", "paired_difference", "paired_moments", "seat_advantage",
    "welch_difference", "welch_moments", "wilson",
]


def seat_advantage(shares: Sequence[float], games: int) -> tuple[int, Estimate]:
    """The seat whose win share (``shares[seat]`` wins of ``games``, a shared first a fraction)
    is farthest from the fair share, and that distance, its interval the Wilson bounds of the
    seat's rate shifted alike (from 0 when the rate's interval holds the fair share).

    >>> seat, distance = seat_advantage([60, 20, 20], 100)
    >>> seat, round(distance.value, 3), distance.low > 0
    (0, 0.267, True)
    """
    fair = 1 / len(shares)
    seat = max(range(len(shares)), key=lambda s: abs(shares[s] / games - fair))
    rate = wilson(shares[seat], games)
    near = 0.0 if rate.low <= fair <= rate.high else min(abs(rate.low - fair), abs(rate.high - fair))
    far = max(abs(rate.low - fair), abs(rate.high - fair))
    return seat, Estimate(abs(rate.value - fair), near, far, games)


def mean_t(samples: Sequence[float]) -> Estimate:
    """A mean with its Student t 95% interval (``nan`` bounds below 2 samples).

    >>> round(mean_t([1.0, 2.0, 3.0]).high, 3)
    4.484
    """
    values = np.asarray(samples, dtype=float)
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = float(values.mean())
    if n < 2:
        return Estimate(mean, math.nan, math.nan, n)
    half = float(scipy_stats.t.ppf(0.975, n - 1)) * float(values.std(ddof=1)) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n)


@dataclass(frozen=True)
class Difference:
    """``a - b`` with its 95% interval and the two-sided p-value of "no difference"."""

    value: float
    low: float
    high: float
    p: float
    n: int
    paired: bool

    @property
    def significant(self) -> bool:
        """Whether the interval excludes 0."""
        return not math.isnan(self.low) and (self.low > 0 or self.high < 0)

    def to_dict(self) -> dict[str, float | int | bool | None]:
        def clean(x: float) -> float | None:
            return None if math.isnan(x) else x

        return {
            "value": clean(self.value),
            "low": clean(self.low),
            "high": clean(self.high),
            "p": clean(self.p),
            "n": self.n,
            "paired": self.paired,
            "significant": self.significant,
        }


_UNDEFINED = math.nan


def paired_difference(a: Sequence[float], b: Sequence[float]) -> Difference:
    """The mean of per-pair differences ``a[i] - b[i]`` (the same seed in both), t interval.

    >>> d = paired_difference([3.0, 4.0, 5.0], [1.0, 2.0, 3.0])
    >>> d.value, d.low, d.high
    (2.0, 2.0, 2.0)
    """
    diffs = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    n = len(diffs)
    if n == 0:
        return Difference(_UNDEFINED, _UNDEFINED, _UNDEFINED, _UNDEFINED, 0, True)
    mean = float(diffs.mean())
    if n < 2:
        return Difference(mean, _UNDEFINED, _UNDEFINED, _UNDEFINED, n, True)
    sd = float(diffs.std(ddof=1))
    if sd == 0:
        # Every pair differs by the same amount: the interval is that point, and it is no chance.
        return Difference(mean, mean, mean, 1.0 if mean == 0 else 0.0, n, True)
    se = sd / math.sqrt(n)
    t = float(scipy_stats.t.ppf(0.975, n - 1))
    p = float(2 * scipy_stats.t.sf(abs(mean / se), n - 1))
    return Difference(mean, mean - t * se, mean + t * se, p, n, True)


def mean_moments(n: int, s1: float, s2: float) -> Estimate:
    """A mean with its Student t 95% interval from the sample's size, sum and sum of squares
    (a table's sums, zeros included by ``n``).

    >>> round(mean_moments(3, 6.0, 14.0).high, 3)
    4.484
    """
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = s1 / n
    if n < 2:
        return Estimate(mean, math.nan, math.nan, n)
    var = max(s2 - n * mean * mean, 0.0) / (n - 1)
    half = float(scipy_stats.t.ppf(0.975, n - 1)) * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


def paired_moments(n: int, s1: float, s2: float) -> Difference:
    """:func:`paired_difference` from the pairs' count and the sum and sum of squares of their
    differences (pairs that differ by 0 counted in ``n`` only).

    >>> d = paired_moments(3, 6.0, 12.0)  # the differences 2, 2, 2
    >>> d.value, d.low, d.high
    (2.0, 2.0, 2.0)
    """
    if n == 0:
        return Difference(_UNDEFINED, _UNDEFINED, _UNDEFINED, _UNDEFINED, 0, True)
    mean = s1 / n
    if n < 2:
        return Difference(mean, _UNDEFINED, _UNDEFINED, _UNDEFINED, n, True)
    var = max(s2 - n * mean * mean, 0.0) / (n - 1)
    # Rounding leaves a hair of variance where every pair differs alike: that is none.
    if var <= 1e-12 * max(1.0, mean * mean):
        return Difference(mean, mean, mean, 1.0 if mean == 0 else 0.0, n, True)
    se = math.sqrt(var / n)
    t = float(scipy_stats.t.ppf(0.975, n - 1))
    p = float(2 * scipy_stats.t.sf(abs(mean / se), n - 1))
    return Difference(mean, mean - t * se, mean + t * se, p, n, True)


def welch_difference(a: Sequence[float], b: Sequence[float]) -> Difference:
    """``mean(a) - mean(b)`` for independent samples: Welch's t interval (unequal variances).

    >>> round(welch_difference([5.0, 6.0, 7.0], [1.0, 2.0, 3.0]).value, 1)
    4.0
    """
    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    return welch_moments(
        len(x),
        float(x.mean()) if len(x) else math.nan,
        float(x.var(ddof=1)) if len(x) > 1 else math.nan,
        len(y),
        float(y.mean()) if len(y) else math.nan,
        float(y.var(ddof=1)) if len(y) > 1 else math.nan,
    )


def welch_moments(n1: int, mean1: float, var1: float, n2: int, mean2: float, var2: float) -> Difference:
    """Welch's interval of ``mean1 - mean2`` from each sample's size, mean and variance
    (``ddof=1``), so that large tables are summed by the database, not in Python."""
    n = n1 + n2
    if n1 == 0 or n2 == 0:
        return Difference(_UNDEFINED, _UNDEFINED, _UNDEFINED, _UNDEFINED, n, False)
    mean = mean1 - mean2
    if n1 < 2 or n2 < 2:
        return Difference(mean, _UNDEFINED, _UNDEFINED, _UNDEFINED, n, False)
    vx = max(var1, 0.0) / n1
    vy = max(var2, 0.0) / n2
    if vx + vy == 0:
        return Difference(mean, mean, mean, 1.0 if mean == 0 else 0.0, n, False)
    se = math.sqrt(vx + vy)
    df = (vx + vy) ** 2 / (vx * vx / (n1 - 1) + vy * vy / (n2 - 1))
    t = float(scipy_stats.t.ppf(0.975, df))
    p = float(2 * scipy_stats.t.sf(abs(mean / se), df))
    return Difference(mean, mean - t * se, mean + t * se, p, n, False)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment: an adjusted p below 0.05 keeps the family's chance of any
    false alarm under 5% however many comparisons were made (``nan`` stays ``nan``).

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    known = sorted((p, i) for i, p in enumerate(p_values) if not math.isnan(p))
    adjusted = [math.nan] * len(p_values)
    running = 0.0
    m = len(known)
    for rank, (p, i) in enumerate(known):
        running = max(running, min(1.0, (m - rank) * p))
        adjusted[i] = round(running, 12)
    return adjusted
