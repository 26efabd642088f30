"""Figures summed part by part: what lets ``cardroom analyze`` read a folder of any size a part
at a time (:meth:`cardroom.analysis.folder.Folder.parts`) and still give every figure exactly.

Every figure of a report is made from sums: counts, sums of values and of their squares
(means, variances, Welch and t intervals), and counts of each value (a median, a minimum, a
histogram: a game's figures are whole numbers or a few shares, so the distinct values are few).
A :class:`Tally` holds such sums as small polars frames, one row per key, and adds each part's
to them.

>>> tally = Tally()
>>> tally.add("plays", pl.DataFrame({"card": ["A", "B"], "n": [1, 2]}), ["card"])
>>> tally.add("plays", pl.DataFrame({"card": ["B"], "n": [3]}), ["card"])
>>> tally.get("plays").rows()
[('A', 1), ('B', 5)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl
from scipy import stats as scipy_stats

from cardroom.sim.stats import Estimate

__all__ = ["Counts", "Tally", "value_counts"]


class Tally:
    """Named frames of sums: key columns, and columns summed when parts are added."""

    def __init__(self) -> None:
        self._frames: dict[str, pl.DataFrame] = {}
        self._keys: dict[str, list[str]] = {}

    def add(self, name: str, frame: pl.DataFrame, keys: Sequence[str]) -> None:
        """Add a part's sums to ``name``'s: rows of the same keys are summed, a column a part
        lacks counts 0 (integers are summed as 64-bit, booleans as counts)."""
        keys = list(keys)
        summed = [c for c in frame.columns if c not in keys]
        frame = frame.with_columns(
            pl.col(c).cast(pl.Float64 if frame[c].dtype.is_float() else pl.Int64) for c in summed
        )
        have = self._frames.get(name)
        if have is not None:
            frame = pl.concat([have, frame], how="diagonal_relaxed")
        self._keys[name] = keys
        self._frames[name] = frame.group_by(keys).agg(pl.exclude(keys).sum()).sort(keys, nulls_last=True)

    def get(self, name: str) -> pl.DataFrame | None:
        """The sums of ``name`` by key, in key order; ``None`` when no part added any."""
        return self._frames.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._frames

    def counts(self, metric: str) -> Counts:
        """The counts of each value of ``metric`` in the ``values`` frame (see
        :func:`value_counts`)."""
        values = self._frames.get("values")
        if values is None:
            return Counts((), ())
        rows = values.filter(pl.col("metric") == metric).sort("value")
        return Counts(tuple(rows["value"].to_list()), tuple(int(c) for c in rows["count"].to_list()))


def value_counts(metric: str, values: pl.Series) -> pl.DataFrame:
    """A ``values`` frame of a part: ``metric``, ``value``, ``count`` (nulls and NaN left out)."""
    column = values.cast(pl.Float64).drop_nulls().drop_nans()
    return (
        column.alias("value")
        .to_frame()
        .group_by("value")
        .len("count")
        .with_columns(pl.lit(metric).alias("metric"))
        .select("metric", "value", "count")
    )


@dataclass(frozen=True)
class Counts:
    """A sample given as its distinct values (ascending) and how often each was seen."""

    values: tuple[float, ...]
    counts: tuple[int, ...]

    @property
    def n(self) -> int:
        return sum(self.counts)

    @property
    def total(self) -> float:
        return float(sum(v * c for v, c in zip(self.values, self.counts, strict=True)))

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else math.nan

    @property
    def variance(self) -> float:
        """The sample variance (n - 1), from the deviations about the mean (no cancellation)."""
        n = self.n
        if n < 2:
            return math.nan
        mean = self.mean
        return sum(c * (v - mean) ** 2 for v, c in zip(self.values, self.counts, strict=True)) / (n - 1)

    def estimate(self) -> Estimate:
        """The mean with its Student t 95% interval, as :func:`cardroom.analysis.stats.mean_t`
        gives it for the sample written out."""
        n = self.n
        if n == 0:
            return Estimate(math.nan, math.nan, math.nan, 0)
        mean = self.mean
        if n < 2:
            return Estimate(mean, math.nan, math.nan, n)
        half = float(scipy_stats.t.ppf(0.975, n - 1)) * math.sqrt(self.variance) / math.sqrt(n)
        return Estimate(mean, mean - half, mean + half, n)

    @property
    def low(self) -> float | None:
        return self.values[0] if self.values else None

    @property
    def high(self) -> float | None:
        return self.values[-1] if self.values else None

    @property
    def median(self) -> float | None:
        """The middle value (the mean of the two middle ones for an even count)."""
        n = self.n
        if not n:
            return None
        return (self._at((n - 1) // 2) + self._at(n // 2)) / 2

    def _at(self, rank: int) -> float:
        """The value at ``rank`` (from 0) of the sample sorted."""
        seen = 0
        for value, count in zip(self.values, self.counts, strict=True):
            seen += count
            if rank < seen:
                return value
        raise IndexError(rank)
