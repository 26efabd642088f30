"""Variants side by side: every per-game metric of two or more runs of one game, the
differences from the first run with 95% intervals, paired on seeds where the runs share them.

Where every seed of one run is a seed of the other (``compare`` plays variants on the same
seeds), game i of each plays the same seed (the same deal of cards when the variants deal
alike; another deck or hand size deals differently from the same seed), so the difference is
taken seed by seed (a paired t interval), which cancels much of the luck of the deal.
Otherwise the runs are independent samples (Welch's t interval).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Sequence
from typing import Any

import polars as pl

from cardroom.analysis.figures import game_frame, metric_names, rules_words, seed_text
from cardroom.analysis.folder import Results, ResultsError
from cardroom.analysis.report import Column, Plot, Report, Section, Table
from cardroom.analysis.stats import (
    Difference,
    holm,
    mean_t,
    paired_difference,
    seat_advantage,
    welch_difference,
)
from cardroom.analysis.verdict import POOLED, SEATS, compare_verdict, tune_hints
from cardroom.analysis.verdict import with_effects as _with_effects
from cardroom.sim.stats import Z95

__all__ = ["check_same_game", "compare_runs", "sweep_report"]

ABOUT = [
    "Every metric is a per-game figure: each seat's win share (a first place shared by k counts 1/k) and "
    "final total, the game's length in deals and decisions, whether first place was shared, the margin "
    "between first and second, the lead changes, and the game's own counts.",
    "Difference: the variant minus the first run. Where both runs played the same seeds, the difference is "
    "taken seed by seed (paired t 95% interval); otherwise Welch's t 95% interval. Significant: the interval "
    "excludes 0. Holm: still significant after Holm's adjustment over every metric of the comparison "
    "(about 1 in 20 unadjusted flags appears by chance alone).",
]


def check_same_game(runs: Sequence[Results], *, players: bool = True) -> None:
    """Refuse, in words, runs of different games or (with ``players``) numbers of players."""
    first = runs[0]
    for run in runs[1:]:
        if run.game != first.game:
            raise ResultsError(
                f"{first.path} holds {first.spec.title} results and {run.path} "
                f"{run.spec.title} results: compare runs of one game"
            )
        if players and run.players != first.players:
            raise ResultsError(
                f"{first.path} has {first.players} players and {run.path} {run.players}: "
                "compare runs with the same number of players"
            )


def _difference(base: pl.DataFrame, other: pl.DataFrame, metric: str) -> Difference:
    seeds = set(base["seed"].to_list())
    if base.height == other.height and seeds == set(other["seed"].to_list()) and len(seeds) == base.height:
        joined = base.select("seed", metric).join(other.select("seed", metric), on="seed", suffix="_other")
        return paired_difference(joined[f"{metric}_other"].to_list(), joined[metric].to_list())
    return welch_difference(other[metric].to_list(), base[metric].to_list())


def _facts(runs: Sequence[Results], labels: Sequence[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """Each variant's games and seeds, its rules (a deck by name and digest) and its agents: a
    report forwarded alone says what was played."""
    spec = runs[0].spec
    facts = [("game", spec.title)]
    for label, run in zip(labels, runs, strict=True):
        facts.append(
            (
                label,
                f"{run.games.height} games, seeds {seed_text(run.games['seed'].to_list())}; "
                f"rules {rules_words(run)}; agents {', '.join(run.agents)}",
            )
        )
    warnings = []
    if any(a.partition(":")[0] == "random" for run in runs for a in run.agents):
        warnings.append(
            "Random agents played: random play says little about a card's or a rule's effect "
            "(use --agents heuristic, or a search bot)."
        )
    return facts, warnings


def _game_compare(
    runs: Sequence[Results], labels: Sequence[str], versions: bool = False
) -> tuple[list[str], list[Section]]:
    """The game's own comparison: ``compare_sections(runs, labels, *, versions)`` beside its
    analysis function (the spec's ``analysis`` module), when it has one; ``versions``: the runs
    play versions of one deck (see :func:`compare_runs`). A section's figure
    ``effects_by_variant`` (each label's direct effects, surest first) joins the verdict."""
    spec = runs[0].spec
    if spec.analysis is None:
        return [], []
    module = importlib.import_module(spec.analysis.partition(":")[0])
    own = getattr(module, "compare_sections", None)
    if own is None:
        return [], []
    warnings, sections = own(runs, labels, versions=versions)
    return list(warnings), list(sections)


def _constant(frames: Sequence[pl.DataFrame], metric: str) -> float | None:
    """The one value ``metric`` takes in every game of every run, or ``None``."""
    values = {v for f in frames for v in f[metric].unique().to_list()}
    return float(next(iter(values))) if len(values) == 1 and None not in values else None


def _game_metrics(
    runs: Sequence[Results], frames: Sequence[pl.DataFrame]
) -> tuple[dict[str, str], list[str]]:
    """The metrics every run has, by name; with different numbers of players (a sweep of
    ``players``), the game's own only: a seat of two players is not a seat of six."""
    names = metric_names(runs[0])
    per_seat = len({run.players for run in runs}) == 1
    shared = [m for m in names if all(m in f.columns for f in frames) and (per_seat or "_seat" not in m)]
    return names, shared


SEATS_LEFT_OUT = ("The runs seat different numbers of players, so the per-seat figures (win rate and "
                  "points of each seat) are left out; each run's own are in cardroom analyze of its folder.")


def _pooled(frames: list[pl.DataFrame], names: dict[str, str], shared: list[str],
            points: str) -> list[pl.DataFrame]:
    """Each frame with :data:`POOLED`, placed after the seats' totals (when every run has them)."""
    seats = [m for m in shared if m.startswith("points_seat")]
    if not seats:
        return frames
    names[POOLED] = f"{points} a game, all seats pooled"
    shared.insert(shared.index(seats[-1]) + 1, POOLED)
    return [f.with_columns(pl.mean_horizontal(*seats).alias(POOLED)) for f in frames]


def _seat_advantage(frame: pl.DataFrame) -> dict[str, Any] | None:
    """The farthest seat's distance from the fair win share (:func:`seat_advantage`, the
    figure ``cardroom tune``'s ``seats`` target searches)."""
    seats = [c for c in frame.columns if c.startswith("win_seat")]
    if len(seats) < 2 or frame.height == 0:
        return None
    seat, distance = seat_advantage([float(frame[c].sum()) for c in seats], frame.height)
    return {"value": distance.value, "low": distance.low, "high": distance.high,
            "seat": int(seats[seat].removeprefix("win_seat"))}


def _independent(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """``b - a`` of two estimates with 95% intervals, their errors taken as independent."""
    z = Z95
    se = math.hypot((a["high"] - a["low"]) / (2 * z), (b["high"] - b["low"]) / (2 * z))
    value = b["value"] - a["value"]
    p = math.erfc(abs(value) / se / math.sqrt(2)) if se > 0 else (0.0 if value else 1.0)
    low, high = value - z * se, value + z * se
    return {"value": value, "low": low, "high": high, "p": p, "paired": False,
            "significant": low > 0 or high < 0}


def compare_runs(
    runs: Sequence[Results], labels: Sequence[str] | None = None, *, same_players: bool = True,
    versions: bool = False, decks: Sequence[str | None] | None = None,
) -> Report:
    """The report of ``cardroom compare``: a verdict, then one table per variant against the
    first. Runs of different numbers of players are refused unless ``same_players`` is false (a
    sweep of ``players``), which compares the game's own metrics only. ``versions``: the runs
    play versions of one deck (the studio's), which share its name as they should. ``decks``:
    each run's deck as ``cardroom tune --deck`` would take it, for the commands the verdict
    suggests (by default the run's project deck, or ``DECK.toml``)."""
    if len(runs) < 2:
        raise ResultsError("compare needs two or more runs")
    check_same_game(runs, players=same_players)
    labels = list(labels or [run.label for run in runs])
    spec = runs[0].spec
    frames = [game_frame(run) for run in runs]
    names, shared = _game_metrics(runs, frames)
    frames = _pooled(frames, names, shared, spec.points)
    constant = {m: value for m in shared if (value := _constant(frames, m)) is not None}
    shared = [m for m in shared if m not in constant]
    tables = []
    plots = []
    verdict: list[str] = []
    hints: dict[str, list[str]] = {}
    significant: dict[str, list[str]] = {}
    advantage = [_seat_advantage(f) for f in frames] if same_players else [None] * len(frames)
    for label, frame, run_advantage in zip(labels[1:], frames[1:], advantage[1:], strict=True):
        rows: list[dict[str, Any]] = []
        for metric in shared:
            difference = _difference(frames[0], frame, metric)
            rows.append(
                {
                    "metric": names[metric],
                    "key": metric,
                    "base": mean_t(frames[0][metric].to_list()).to_dict(),
                    "variant": mean_t(frame[metric].to_list()).to_dict(),
                    "difference": difference.to_dict(),
                    "paired": difference.paired,
                    "significant": difference.significant,
                }
            )
            if metric == POOLED and advantage[0] is not None and run_advantage is not None:
                moved = _independent(advantage[0], run_advantage)
                rows.append({"metric": "seat advantage (the farthest seat from a fair win share)",
                             "key": SEATS, "base": advantage[0], "variant": run_advantage,
                             "difference": moved, "paired": False, "significant": moved["significant"]})
        adjusted = holm(
            [r["difference"]["p"] if r["difference"]["p"] is not None else math.nan for r in rows]
        )
        for row, p in zip(rows, adjusted, strict=True):
            row["holm"] = not math.isnan(p) and p < 0.05
        significant[label] = [r["key"] for r in rows if r["significant"]]
        index = labels.index(label)
        verdict += compare_verdict(label, labels[0], rows, spec.points)
        hints[label] = tune_hints(runs[0], runs[index], rows, (decks or [None] * len(runs))[index])
        verdict += hints[label]
        columns = [
            Column("metric", "Metric"),
            Column("base", labels[0], 3, terminal=False),
            Column("variant", label, 3, terminal=False),
            Column("difference", "Difference [95%]", 3),
            Column("paired", "Paired", terminal=False),
            Column("significant", "Significant"),
            Column("holm", "Holm"),
        ]
        per_game = [r for r in rows if r["key"] != SEATS]
        paired = all(r["paired"] for r in per_game)
        how = (
            "paired on the same seeds (per-seed differences)" if paired
            else "unpaired (Welch)" if not any(r["paired"] for r in per_game)
            else "paired where the seeds match"
        )
        note = f"Differences {how}, 95% t intervals; significant: the interval excludes 0."
        if len(per_game) < len(rows):
            note += (" Seat advantage: the farthest seat's distance from a fair win share, each run's Wilson "
                     "interval, the two combined as independent.")
        if POOLED in shared:
            note += " All seats pooled: the mean of the seats' totals a game, far less noisy than one seat's."
        if constant:
            same = ", ".join(f"{names[m]} ({value:g})" for m, value in constant.items())
            note += f" Left out, the same in every game of every run: {same}."
        plots.append(
            Plot(
                f"compare_{_slug(label)}",
                f"{label} minus {labels[0]}: each metric's difference (95% intervals)",
                "bar",
                {
                    "labels": [r["metric"] for r in rows],
                    "values": [r["difference"]["value"] for r in rows],
                    "low": [r["difference"]["low"] for r in rows],
                    "high": [r["difference"]["high"] for r in rows],
                    "reference": 0.0,
                },
                xlabel="metric",
                ylabel="difference",
            )
        )
        tables.append(Table(_slug(label), f"{label} minus {labels[0]}", columns, rows, note=note,
                            flag="significant"))
    facts, warnings = _facts(runs, labels)
    about = ABOUT if len({run.players for run in runs}) == 1 else [*ABOUT, SEATS_LEFT_OUT]
    variants = [
        {
            "label": label,
            "games": run.games.height,
            "rules": {k: v for k, v in (run.manifest.get("rules") or {}).items() if k != "deck_files"},
            "deck": run.manifest.get("deck"),
            "agents": run.agents,
        }
        for label, run in zip(labels, runs, strict=True)
    ]
    section = Section(
        "compare",
        "Differences between variants",
        about,
        tables,
        plots,
        {"significant": significant, "variants": variants, "tune": hints},
    )
    own_warnings, own_sections = _game_compare(runs, labels, versions)
    effects = next((s.figures.get("effects_by_variant") for s in own_sections
                    if s.figures.get("effects_by_variant")), None)
    if effects:
        verdict = _with_effects(verdict, labels, effects)
    # The direct effects (the game's first section) come first, then the per-game metrics.
    return Report(
        f"{runs[0].spec.title}: {' vs '.join(labels)}",
        facts,
        [*warnings, *own_warnings],
        [*own_sections[:1], section, *own_sections[1:]],
        verdict,
    )


def sweep_report(option: str, values: Sequence[str], runs: Sequence[Results]) -> Report:
    """The report of ``cardroom sweep``: each metric's mean along the option's values, and the
    difference of each value from the first. A sweep of ``players`` (runs of different numbers
    of players) gives the game's own metrics (length, decisiveness...), not the seats'."""
    check_same_game(runs, players=option != "players")
    labels = [f"{option}={v}" for v in values]
    frames = [game_frame(run) for run in runs]
    names, shared = _game_metrics(runs, frames)
    estimates = {m: [mean_t(f[m].to_list()).to_dict() for f in frames] for m in shared}
    rows = [{"metric": names[m], **{f"v{i}": e for i, e in enumerate(estimates[m])}} for m in shared]
    columns = [Column("metric", "Metric")] + [Column(f"v{i}", label, 3) for i, label in enumerate(labels)]
    along = Table("along", f"Each metric along {option} (means, 95% t intervals)", columns, rows)
    plots = []
    groups: dict[str, list[str]] = {}
    for metric in shared:
        groups.setdefault(metric.rpartition("_seat")[0] if "_seat" in metric else metric, []).append(metric)
    for group, metrics in groups.items():
        series = {
            names[m]: {
                "values": [e["value"] for e in estimates[m]],
                "low": [e["low"] for e in estimates[m]],
                "high": [e["high"] for e in estimates[m]],
            }
            for m in metrics
        }
        title = names[metrics[0]].rpartition(",")[0] if len(metrics) > 1 else names[metrics[0]]
        plots.append(
            Plot(
                f"sweep_{group}",
                f"{title} along {option}",
                "line",
                {"labels": [str(v) for v in values], "series": series},
                xlabel=option,
                ylabel=title,
            )
        )
    comparison = compare_runs(runs, labels, same_players=option != "players")
    facts, warnings = _facts(runs, labels)
    about = [f"One run per value of {option}, all on the same seeds; means with Student t 95% intervals."]
    if len({run.players for run in runs}) > 1:
        about.append(SEATS_LEFT_OUT)
    sweep = Section(
        "sweep",
        f"Along {option}",
        about,
        [along],
        plots,
    )
    return Report(
        f"{runs[0].spec.title}: {option} = {', '.join(values)}",
        facts,
        warnings,
        [sweep, *comparison.sections],
    )


def _slug(label: str) -> str:
    text = "".join(c if c.isalnum() else "_" for c in label.lower()).strip("_")
    return text[:40] or "variant"
