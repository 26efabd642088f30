"""Estimates with 95% confidence intervals: means (normal approximation) and rates (Wilson)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["Estimate", "mean_ci", "wilson", "Z95"]

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A value with its 95% interval and the number of samples behind it."""

    value: float
    low: float
    high: float
    n: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: an undefined bound (too few samples) is ``None``."""
        return {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in asdict(self).items()}

    def __str__(self) -> str:
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}]"


def mean_ci(samples: Sequence[float]) -> Estimate:
    """Mean with a normal-approximation 95% interval (``nan`` bounds for fewer than 2 samples).

    >>> mean_ci([1.0, 2.0, 3.0]).value
    2.0
    """
    n = len(samples)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = sum(samples) / n
    if n < 2:
        return Estimate(mean, math.nan, math.nan, n)
    var = sum((x - mean) ** 2 for x in samples) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


def wilson(successes: float, trials: int) -> Estimate:
    """A rate with its Wilson score 95% interval (sound near 0 and 1 and for few trials).

    >>> round(wilson(50, 100).low, 3)
    0.404
    """
    if trials == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = successes / trials
    z2 = Z95 * Z95
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), trials)
