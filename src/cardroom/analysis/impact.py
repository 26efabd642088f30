"""Who held or played something against who did not: the difference in a deal's points and in
win rate, with Welch intervals, Holm-adjusted flags, for every key (a card, a type, a mark).

A unit is one seat in one deal: its points in that deal and its share of the game's win
(1/k for a first place shared by k). Units of one game are not independent (the same game's
win counts in each of its deals), so the intervals are a guide, a little narrower than exact.
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from cardroom.analysis.folder import Results
from cardroom.analysis.stats import holm, welch_moments

__all__ = ["impact_rows", "impact_rows_of", "impact_sums", "seat_units", "unit_sums"]

UNIT = ["game_index", "deal", "seat"]


def seat_units(results: Results) -> pl.DataFrame:
    """One row per seat per deal: ``game_index``, ``deal``, ``seat``, ``points``, ``win``."""
    deals = results.deals.select("game_index", "deal", "points")
    units = deals.with_columns(pl.int_ranges(pl.col("points").list.len()).alias("seat")).explode(
        ["points", "seat"]
    )
    games = results.games.select("game_index", "winners").with_columns(
        (1.0 / pl.col("winners").list.len()).alias("share")
    )
    wins = games.explode("winners").select(
        "game_index", pl.col("winners").cast(pl.Int64).alias("seat"), pl.col("share").alias("win")
    )
    units = units.with_columns(pl.col("seat").cast(pl.Int64), pl.col("points").cast(pl.Float64))
    return units.join(wins, on=["game_index", "seat"], how="left").with_columns(pl.col("win").fill_null(0.0))


def _aggregations() -> list[pl.Expr]:
    return [
        pl.len().alias("n"),
        pl.col("points").sum().alias("p1"),
        (pl.col("points") ** 2).sum().alias("p2"),
        pl.col("win").sum().alias("w1"),
        (pl.col("win") ** 2).sum().alias("w2"),
    ]


def _mean_var(n: int, s1: float, s2: float) -> tuple[float, float]:
    if n == 0:
        return math.nan, math.nan
    mean = s1 / n
    return mean, (s2 - n * mean * mean) / (n - 1) if n > 1 else math.nan


def impact_sums(units: pl.DataFrame, members: pl.DataFrame, key: str) -> pl.DataFrame:
    """Per value of ``members[key]``, the sums of the units that have it (``members`` rows name
    units by ``game_index``, ``deal``, ``seat``): ``n``, ``p1``, ``p2`` (points, squared),
    ``w1``, ``w2`` (win share, squared). Sums of parts add up to the whole's."""
    # One lazy query: polars then never holds the joined rows whole (half the peak memory);
    # the unit's three columns packed into one integer make the unique and the join ~3x faster.
    held = (
        members.lazy().select(_unit_id(), pl.col(key)).unique()
        .join(units.lazy().with_columns(_unit_id()), on="unit", how="inner")
    )
    return held.group_by(key).agg(_aggregations()).sort(key).collect()


def _unit_id() -> pl.Expr:
    """A unit as one integer: game index, deal (below 2^16) and seat (below 2^8), packed."""
    return ((pl.col("game_index").cast(pl.Int64) * 65536 + pl.col("deal").cast(pl.Int64)) * 256
            + pl.col("seat").cast(pl.Int64)).alias("unit")


def unit_sums(units: pl.DataFrame) -> pl.DataFrame:
    """The same sums over every unit: one row."""
    return units.select(_aggregations())


def impact_rows(units: pl.DataFrame, members: pl.DataFrame, key: str) -> list[dict[str, Any]]:
    """Per value of ``members[key]``: the units that have it against the units that do not
    (:func:`impact_rows_of` the sums of :func:`impact_sums` and :func:`unit_sums`)."""
    return impact_rows_of(impact_sums(units, members, key), unit_sums(units), key)


def impact_rows_of(per_key: pl.DataFrame, units: pl.DataFrame, key: str) -> list[dict[str, Any]]:
    """Per value of ``per_key[key]`` (sums of :func:`impact_sums`, in key order), given the sums
    over every unit (``units``, :func:`unit_sums`): the units that have it against the others.

    Each row: ``key``, ``units`` (how many have it), ``points`` and ``win`` differences (with
    ``low``, ``high``, ``p``), ``outlier`` (an interval excludes 0) and ``holm`` (the same after
    Holm's adjustment over every key and both figures).
    """
    total = units.row(0, named=True)
    rows = []
    for row in per_key.iter_rows(named=True):
        n1 = int(row["n"])
        n2 = int(total["n"]) - n1
        differences = {}
        for figure, s1, s2 in (("points", "p1", "p2"), ("win", "w1", "w2")):
            m1, v1 = _mean_var(n1, row[s1], row[s2])
            m2, v2 = _mean_var(n2, total[s1] - row[s1], total[s2] - row[s2])
            differences[figure] = welch_moments(n1, m1, v1, n2, m2, v2)
        rows.append(
            {
                key: row[key],
                "units": n1,
                "points": differences["points"].to_dict(),
                "win": differences["win"].to_dict(),
                "outlier": differences["points"].significant or differences["win"].significant,
            }
        )
    adjusted = holm(
        [r[f]["p"] if r[f]["p"] is not None else math.nan for r in rows for f in ("points", "win")]
    )
    for i, row in enumerate(rows):
        pair = adjusted[2 * i : 2 * i + 2]
        row["holm"] = any(p < 0.05 for p in pair if not math.isnan(p))
    return rows
