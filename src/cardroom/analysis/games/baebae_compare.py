"""BAEBAE's comparison of variants in ``cardroom compare``: card by card, what each design did a
game in each run (plays, actions run, what its actions did) and its held impact, the variant
against the first run on the same seeds; the decks' differences design by design."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import polars as pl

from cardroom.analysis.folder import Results
from cardroom.analysis.games.baebae_designs import STEPS, deck_of, design_map, unknown_deck
from cardroom.analysis.impact import impact_rows, seat_units
from cardroom.analysis.report import Column, Plot, Section, Table
from cardroom.analysis.stats import Difference, holm, mean_moments, paired_moments, welch_moments
from cardroom.games.baebae.deck import CardDef

__all__ = ["compare_sections"]

_COUNTS = (("plays", "cards played"), ("ran", "actions run"), *STEPS)
"""What the per-card comparison counts a game for each design: its plays, its actions run, and
what its actions did."""

_COMPARE_ABOUT = (
    "Per card: for each design, what it did a game (plays, actions run, cards drawn by force, turns "
    "skipped...) in the first run and in the variant, and the variant minus the first run, taken game by "
    "game on the same seeds (paired t 95% interval; Welch's when the seeds differ). Held: the card's "
    "per-card impact (round penalty of a seat whose starting hand held it, against one whose did not) in "
    "each run, and its change (the two impacts' intervals combined as independent: wider than paired). "
    "Rows that cannot differ (0 in every game of every variant) are left out. Significant: an interval "
    "excludes 0; Holm: still significant after Holm's adjustment over every figure of the table."
)


def _seed_sets(runs: Sequence[Results]) -> list[list[int]]:
    return [sorted(run.games["seed"].to_list()) for run in runs]


def _per_seed(run: Results) -> pl.DataFrame | None:
    """Per seed and design: plays, actions run, and each step count (zeros left out)."""
    cards = run.table("cards")
    if cards is None:
        return None
    columns = [pl.len().cast(pl.Int64).alias("plays")]
    if "action_ran" in cards.columns:
        columns.append(pl.col("action_ran").cast(pl.Int64).sum().alias("ran"))
    columns += [pl.col(name).cast(pl.Int64).sum().alias(name) for name, _ in STEPS if name in cards.columns]
    return cards.group_by("seed", "design").agg(columns)  # the cards table keeps each game's seed


def _per_game(frame: pl.DataFrame) -> pl.DataFrame:
    """Per seed, every design's counts summed (keyed ``all``)."""
    return (
        frame.group_by("seed")
        .agg(pl.exclude("seed", "design").sum())
        .with_columns(pl.lit("all").alias("all"))
    )


def _moments(frame: pl.DataFrame, keys: list[str], values: list[str]) -> dict[tuple[Any, ...], list[float]]:
    """Per key, each value's sum and sum of squares (in one pass): ``[s1, s2, s1, s2, ...]``."""
    aggregations = []
    for value in values:
        column = pl.col(value).cast(pl.Float64)
        aggregations += [column.sum().alias(f"{value}_s1"), (column**2).sum().alias(f"{value}_s2")]
    sums = frame.group_by(keys).agg(aggregations)
    width = len(keys)
    return {tuple(row[:width]): [float(x) for x in row[width:]] for row in sums.iter_rows()}


def _count_differences(
    base: pl.DataFrame, other: pl.DataFrame, keys: list[str], values: list[str], seeds: Sequence[list[int]]
) -> dict[tuple[tuple[Any, ...], str], tuple[Any, Any, Difference]]:
    """For every key and value: the first run's mean a game, the variant's, and their
    difference, paired on the seeds when both runs played the same ones (a missing row is 0)."""
    n1, n2 = len(seeds[0]), len(seeds[1])
    paired = seeds[0] == seeds[1]
    values = [v for v in values if v in base.columns or v in other.columns]
    base = base.with_columns(pl.lit(0).alias(v) for v in values if v not in base.columns)
    other = other.with_columns(pl.lit(0).alias(v) for v in values if v not in other.columns)
    b, v = _moments(base, keys, values), _moments(other, keys, values)
    d: dict[tuple[Any, ...], list[float]] = {}
    if paired:
        joined = base.join(other, on=["seed", *keys], how="full", coalesce=True, suffix="_v").fill_null(0)
        differences = joined.select(
            *keys, *((pl.col(f"{value}_v") - pl.col(value)).alias(value) for value in values)
        )
        d = _moments(differences, keys, values)
    out: dict[tuple[tuple[Any, ...], str], tuple[Any, Any, Difference]] = {}
    zeros = [0.0] * (2 * len(values))
    for key in dict.fromkeys([*b, *v]):
        for k, value in enumerate(values):
            s1, s2 = b.get(key, zeros)[2 * k : 2 * k + 2]
            t1, t2 = v.get(key, zeros)[2 * k : 2 * k + 2]
            if paired:
                difference = paired_moments(n1, *d.get(key, zeros)[2 * k : 2 * k + 2])
            else:
                m1, m2 = s1 / n1, t1 / n2
                difference = welch_moments(
                    n2,
                    m2,
                    max(t2 - n2 * m2 * m2, 0.0) / max(n2 - 1, 1),
                    n1,
                    m1,
                    max(s2 - n1 * m1 * m1, 0.0) / max(n1 - 1, 1),
                )
            out[(key, value)] = (
                mean_moments(n1, s1, s2).to_dict(),
                mean_moments(n2, t1, t2).to_dict(),
                difference,
            )
    return out


def _independent(a: dict[str, Any] | None, b: dict[str, Any] | None) -> dict[str, Any] | None:
    """``b - a`` for two estimates with 95% intervals, their errors combined as independent."""
    if not a or not b or None in (a.get("value"), b.get("value"), a.get("low"), b.get("low")):
        return None
    z = 1.959963984540054
    se = math.hypot((a["high"] - a["low"]) / (2 * z), (b["high"] - b["low"]) / (2 * z))
    value = b["value"] - a["value"]
    p = math.erfc(abs(value) / se / math.sqrt(2)) if se > 0 else (0.0 if value else 1.0)
    low, high = value - z * se, value + z * se
    return {"value": value, "low": low, "high": high, "p": p, "significant": low > 0 or high < 0}


def _held(run: Results) -> dict[str, dict[str, Any]]:
    hands = run.table("hands")
    if hands is None:
        return {}
    return {row["design"]: row["points"] for row in impact_rows(seat_units(run), hands, "design")}


def _deck_diff_table(runs: Sequence[Results], labels: Sequence[str]) -> Table | None:
    from cardroom.games.baebae.deck_diff import deck_diff

    decks = [deck_of(run) for run in runs]
    if decks[0] is None:
        return None
    rows = []
    for label, deck in zip(labels[1:], decks[1:], strict=True):
        if deck is None:
            rows.append(
                {
                    "variant": label,
                    "change": "the variant's deck is unknown here (" + unknown_deck(runs[0]) + ")",
                }
            )
            continue
        changes = deck_diff(decks[0], deck)
        rows += [{"variant": label, "change": change} for change in changes] or [
            {"variant": label, "change": "the same cards as the first run"}
        ]
    return Table(
        "deck_diff",
        f"What changed in each deck from {labels[0]}'s",
        [Column("variant", "Variant", terminal=len(runs) > 2), Column("change", "Change")],
        rows,
    )


def _effect_words(
    label: str, difference: dict[str, Any], base: dict[str, Any], variant: dict[str, Any]
) -> str:
    d = difference

    def n(x: Any) -> str:
        return f"{x:.2f}" if x is not None else "-"

    return (
        f"{label} {d['value']:+.2f} a game [{n(d['low'])}, {n(d['high'])}] "
        f"({n(base['value'])} -> {n(variant['value'])})"
    )


def compare_sections(runs: Sequence[Results], labels: Sequence[str], *,
                     versions: bool = False) -> tuple[list[str], list[Section]]:
    """BAEBAE's part of ``cardroom compare``: the deck diff, the direct effects (what the
    actions did a game, overall and per card) first, then per card; and warnings (two variants'
    decks of one name, unless ``versions``: versions of one deck share its name)."""
    warnings = []
    decks = [run.manifest.get("deck") for run in runs]
    by_name: dict[str, set[str]] = {}
    for deck in decks:
        if isinstance(deck, dict):
            by_name.setdefault(str(deck.get("name")), set()).add(str(deck.get("digest")))
    for name, digests in by_name.items():
        if len(digests) > 1 and not versions:
            warnings.append(
                f"{len(digests)} variants' decks share the name {name!r} but not their cards (their digests "
                "differ): give each its own name (cardroom deck new NAME --from DECK writes a renamed copy)."
            )
    frames = [_per_seed(run) for run in runs]
    seeds = _seed_sets(runs)
    designs: dict[str, CardDef] = {}
    for run in reversed(runs):  # the first run's designs win where two runs name one alike
        designs |= design_map(deck_of(run))
    effects_rows: list[dict[str, Any]] = []
    card_tables: list[Table] = []
    plots: list[Plot] = []
    words = dict(_COUNTS)
    base_frame = frames[0]
    held_base = _held(runs[0])
    for label, run, frame, run_seeds in zip(labels[1:], runs[1:], frames[1:], seeds[1:], strict=True):
        if base_frame is None or frame is None:
            continue
        pair = [seeds[0], run_seeds]
        totals = _count_differences(
            _per_game(base_frame), _per_game(frame), ["all"], [k for k, _ in _COUNTS], pair
        )
        per_card = _count_differences(base_frame, frame, ["design"], [k for k, _ in _COUNTS], pair)
        held_variant = _held(run)
        rows: list[dict[str, Any]] = []
        for (key, value), (b, v, d) in sorted(per_card.items(), key=lambda x: (x[0][0][0], _order(x[0][1]))):
            if b["value"] == 0 and v["value"] == 0:
                continue  # 0 in every game of both runs: it cannot differ
            design = str(key[0])
            card = designs.get(design)
            rows.append(
                {
                    "card": card.key if card else "",
                    "design": design,
                    "figure": words[value],
                    "key": value,
                    "base": b,
                    "variant": v,
                    "difference": d.to_dict(),
                    "significant": d.significant,
                }
            )
        for design in sorted({r["design"] for r in rows}):
            change = _independent(held_base.get(design), held_variant.get(design))
            if change is not None:
                card = designs.get(design)
                rows.append(
                    {
                        "card": card.key if card else "",
                        "design": design,
                        "figure": "penalty diff, held",
                        "key": "held",
                        "base": held_base.get(design),
                        "variant": held_variant.get(design),
                        "difference": change,
                        "significant": change["significant"],
                    }
                )
        adjusted = holm(
            [r["difference"]["p"] if r["difference"].get("p") is not None else math.nan for r in rows]
        )
        for row, p in zip(rows, adjusted, strict=True):
            row["holm"] = not math.isnan(p) and p < 0.05
        # The direct effects: what changed most surely, the game's totals first.
        kept = holm([bv[2].p for bv in totals.values()])
        ranked = sorted(
            (
                (k, bv)
                for (k, bv), p in zip(totals.items(), kept, strict=True)
                if not math.isnan(p) and p < 0.05
            ),
            key=lambda x: -_surety(x[1][2].to_dict()),
        )
        for (_, value), (b, v, d) in ranked:
            effects_rows.append(
                {
                    "variant": label,
                    "effect": _effect_words(words[value], d.to_dict(), b, v),
                    "difference": d.to_dict(),
                    "holm": True,
                }
            )
        surest = sorted(
            (r for r in rows if r["holm"] and r["key"] != "held"),
            key=lambda r: -_surety(r["difference"]),
        )
        for r in surest[:8]:
            effects_rows.append(
                {
                    "variant": label,
                    "effect": _effect_words(
                        f"{r['card']} {r['design']}: {r['figure']}".strip(),
                        r["difference"],
                        r["base"],
                        r["variant"],
                    ),
                    "difference": r["difference"],
                    "holm": True,
                }
            )
        rows.sort(key=lambda r: (not r["holm"], not r["significant"], -_surety(r["difference"])))
        card_tables.append(
            Table(
                f"cards_{len(card_tables) + 1}",
                f"{label} minus {labels[0]}, card by card",
                [
                    Column("card", "Card"),
                    Column("design", "Design", terminal=False),
                    Column("figure", "Figure"),
                    Column("base", labels[0], 2, terminal=False),
                    Column("variant", label, 2, terminal=False),
                    Column("difference", "Difference [95%]", 2),
                    Column("significant", "Significant"),
                    Column("holm", "Holm"),
                ],
                rows,
                note="Per game; held: the per-card impact on a round's penalty. Rows 0 in every game of both "
                "runs left out.",
                flag="holm",
            )
        )
        shown = [r for r in rows if r["holm"] and r["key"] != "held"][:30]
        if shown:
            plots.append(
                Plot(
                    f"cards_{len(card_tables)}",
                    f"{label} minus {labels[0]}: the surest per-card changes a game (95% intervals)",
                    "bar",
                    {
                        "labels": [f"{r['card']} {r['key']}" for r in shown],
                        "values": [r["difference"]["value"] for r in shown],
                        "low": [r["difference"]["low"] for r in shown],
                        "high": [r["difference"]["high"] for r in shown],
                        "reference": 0.0,
                    },
                    xlabel="card and figure",
                    ylabel="difference a game",
                )
            )
        steps = [(k, bv) for k, bv in totals.items() if not (bv[0]["value"] == 0 and bv[1]["value"] == 0)]
        if steps:
            plots.append(
                Plot(
                    f"steps_{len(card_tables)}",
                    f"{label} minus {labels[0]}: what the actions did a game (95% intervals)",
                    "bar",
                    {
                        "labels": [words[k[1]] for k, _ in steps],
                        "values": [bv[2].value for _, bv in steps],
                        "low": [bv[2].low for _, bv in steps],
                        "high": [bv[2].high for _, bv in steps],
                        "reference": 0.0,
                    },
                    xlabel="step",
                    ylabel="difference a game",
                )
            )
    sections = []
    diff = _deck_diff_table(runs, labels)
    effects = Table(
        "direct_effects",
        "Direct effects: what the variants' actions did differently a game",
        [
            Column("variant", "Variant", terminal=len(runs) > 2),
            Column("effect", "Effect [95%] (first run -> variant)"),
        ],
        effects_rows
        or [{"variant": "", "effect": "no difference in what the actions did survives Holm's adjustment"}],
    )
    sections.append(
        Section(
            "direct_effects",
            "Direct effects",
            [
                "What the cards' actions did a game, in all and per card, that differs between the first "
                "run and a variant beyond chance (paired on the seeds where the runs share them, Welch's "
                "otherwise; Holm's adjustment over the totals, and over every per-card figure), the surest "
                "first."
            ],
            [effects, *([diff] if diff is not None else [])],
            [],
            {"effects": [r["effect"] for r in effects_rows],
             "effects_by_variant": {label: [r["effect"] for r in effects_rows if r["variant"] == label]
                                    for label in labels[1:]}},
        )
    )
    if card_tables:
        sections.append(Section("cards_compare", "Card by card", [_COMPARE_ABOUT], card_tables, plots))
    return warnings, sections


def _surety(difference: dict[str, Any]) -> float:
    """How many interval widths a difference lies from 0: the surest first."""
    value, low, high = difference.get("value"), difference.get("low"), difference.get("high")
    if value is None or low is None or high is None:
        return 0.0
    return float(abs(value) / max(high - low, 1e-9))


def _order(value: str) -> int:
    keys = [k for k, _ in _COUNTS] + ["held"]
    return keys.index(value) if value in keys else len(keys)

