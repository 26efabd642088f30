"""The figures every game's results give: seat advantage, distributions, Ludii-style metrics.

Nothing here knows a game: a game's own figures come from its spec's ``analysis`` module.

The report is built from sums (:mod:`cardroom.analysis.tally`) that each part of the folder adds
to, so a folder of any number of games is read one part at a time, every figure exact.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import polars as pl

from cardroom.analysis.folder import PART_GAMES, Folder, Results, ResultsError
from cardroom.analysis.report import Column, Plot, Report, Section, Table
from cardroom.analysis.stats import wilson
from cardroom.analysis.tally import Counts, Tally, value_counts
from cardroom.sim.report import deck_words

__all__ = [
    "BASE_COLUMNS", "build_report", "game_frame", "metric_names", "rules_words", "runs_text", "seed_text",
    "tally_games",
]

BASE_COLUMNS = frozenset(
    {
        "game",
        "game_index",
        "seed",
        "variant",
        "rules",
        "deck",
        "players",
        "agents",
        "totals",
        "winners",
        "places",
        "deals",
        "decisions",
        "guard_stopped",
    }
)
"""The games table's columns every game has; other integer columns are the game's own counts."""


def _lead_changes(deals: pl.DataFrame, lower: bool) -> dict[int, int]:
    """Per game: how many times the sole leader (by running totals after each deal) changed.

    A deal that leaves seats tied for the lead keeps the last sole leader.
    """
    changes: dict[int, int] = {}
    last_leader: dict[int, int] = {}
    ordered = deals.select("game_index", "deal", "totals").sort("game_index", "deal")
    for index, totals in zip(ordered["game_index"].to_list(), ordered["totals"].to_list(), strict=True):
        changes.setdefault(index, 0)
        best = min(totals) if lower else max(totals)
        leaders = [s for s, t in enumerate(totals) if t == best]
        if len(leaders) != 1:
            continue
        previous = last_leader.get(index)
        if previous is not None and previous != leaders[0]:
            changes[index] += 1
        last_leader[index] = leaders[0]
    return changes


def game_frame(results: Results) -> pl.DataFrame:
    """One row per game, one column per metric a compare sets side by side (see
    :func:`metric_names`): each seat's win share and total, length, ties, margin, lead changes,
    and the game's own counts."""
    games = results.games.sort("game_index")
    players = results.players
    lower = results.spec.lower_wins
    leads = _lead_changes(results.deals, lower)
    rows: dict[str, list[Any]] = {
        "seed": games["seed"].to_list(),
        "game_index": games["game_index"].to_list(),
    }
    winners = games["winners"].to_list()
    totals = games["totals"].to_list()
    places = games["places"].to_list()
    for seat in range(players):
        rows[f"win_seat{seat}"] = [1 / len(w) if seat in w else 0.0 for w in winners]
    for seat in range(players):
        rows[f"points_seat{seat}"] = [float(t[seat]) for t in totals]
    rows["deals"] = [float(d) for d in games["deals"].to_list()]
    rows["decisions"] = [float(d) for d in games["decisions"].to_list()]
    rows["tied_first"] = [1.0 if len(w) > 1 else 0.0 for w in winners]
    margins = []
    for total, place in zip(totals, places, strict=True):
        first = [t for t, p in zip(total, place, strict=True) if p == 1]
        behind = [p for p in place if p > 1]
        if not behind:
            margins.append(0.0)
            continue
        second = [t for t, p in zip(total, place, strict=True) if p == min(behind)]
        margins.append(float(abs(first[0] - second[0])))
    rows["margin"] = margins
    rows["lead_changes"] = [float(leads.get(i, 0)) for i in rows["game_index"]]
    for name in games.columns:
        if name not in BASE_COLUMNS and games[name].dtype.is_integer():
            rows[name] = [float(v) for v in games[name].to_list()]
    return pl.DataFrame(rows)


def metric_names(results: Results) -> dict[str, str]:
    """What each column of :func:`game_frame` means, in words."""
    spec = results.spec
    names = {f"win_seat{s}": f"win rate, seat {s}" for s in range(results.players)}
    names |= {f"points_seat{s}": f"{spec.points} a game, seat {s}" for s in range(results.players)}
    names |= {
        "deals": f"{spec.deal_unit}s a game",
        "decisions": "decisions a game",
        "tied_first": "share of games with a tied first place",
        "margin": "margin first-second",
        "lead_changes": "lead changes a game",
    }
    for name in results.games.columns:
        if name not in BASE_COLUMNS and results.games[name].dtype.is_integer():
            names[name] = f"{name.replace('_', ' ')} a game"
    return names


def seed_text(seeds: Sequence[int]) -> str:
    """Seeds as ranges: ``0..99`` or ``0..9, 20..29``."""
    ordered = sorted(set(seeds))
    runs: list[tuple[int, int]] = []
    for seed in ordered:
        if runs and seed == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], seed)
        else:
            runs.append((seed, seed))
    return runs_text(runs)


def runs_text(runs: Sequence[tuple[int, int]]) -> str:
    """Runs of seeds (first, last; the lowest first) as :func:`seed_text` writes them: the
    first six, then ``...`` when there are more."""
    parts = [str(low) if low == high else f"{low}..{high}" for low, high in runs]
    return ", ".join(parts[:6]) + (", ..." if len(parts) > 6 else "")


def tally_games(part: Results, tally: Tally) -> None:
    """Add a part's games to the sums the generic sections read: the counts of each value of
    every :func:`game_frame` metric, of each deal's points per seat and each final total per
    seat, and the deals played."""
    frame = game_frame(part).drop("seed", "game_index")
    if frame.width:
        values = frame.unpivot(variable_name="metric", value_name="value").drop_nulls("value")
        tally.add("values", values.group_by("metric", "value").len("count"), ["metric", "value"])
    tally.add("values", value_counts("points_per_deal", part.deals["points"].explode()), ["metric", "value"])
    tally.add("values", value_counts("totals", part.games["totals"].explode()), ["metric", "value"])
    tally.add("rows", pl.DataFrame({"table": ["deals"], "rows": [part.deals.height]}), ["table"])


def _rows(tally: Tally, table: str) -> int:
    rows = tally.get("rows")
    found = rows.filter(pl.col("table") == table)["rows"] if rows is not None else None
    return int(found[0]) if found is not None and found.len() else 0


def _estimate(counts: Counts) -> dict[str, Any]:
    return counts.estimate().to_dict()


def _seat_section(results: Folder | Results, tally: Tally) -> Section:
    players = results.players
    n = results.played
    fair = 1 / players if players else 0.0
    rows = []
    agents = results.agents
    for seat in range(players):
        share = tally.counts(f"win_seat{seat}").total
        rate = wilson(share, n)
        flagged = bool(rate.n) and not rate.low <= fair <= rate.high
        rows.append(
            {
                "seat": seat,
                "agent": agents[seat] if seat < len(agents) else "",
                "wins": round(share, 3),
                "win_rate": rate.to_dict(),
                "points": _estimate(tally.counts(f"points_seat{seat}")),
                "unfair": flagged,
            }
        )
    unit = results.spec.points
    rates = [wilson(tally.counts(f"win_seat{s}").total, n).to_dict() for s in range(players)]
    table = Table(
        "seats",
        "Seat advantage (95% intervals)",
        [
            Column("seat", "Seat"),
            Column("agent", "Agent"),
            Column("wins", "Wins", 1),
            Column("win_rate", "Win rate", 3),
            Column("points", f"{unit.capitalize()} a game"),
            Column("unfair", f"Excludes 1/{players}"),
        ],
        rows,
        note=f"Flagged: the seat's win-rate interval excludes the fair share 1/{players} = {fair:.3f}.",
        flag="unfair",
    )
    plot = Plot(
        "seat_win_rate",
        "Win rate by seat (95% Wilson intervals; the line is the fair share)",
        "bar",
        {
            "labels": [str(r["seat"]) for r in rows],
            "values": [rate["value"] for rate in rates],
            "low": [rate["low"] for rate in rates],
            "high": [rate["high"] for rate in rates],
            "reference": fair,
        },
        xlabel="seat",
        ylabel="win rate",
    )
    about = [
        "Win rate: the share of games a seat won; a first place shared by k seats counts 1/k to each. "
        "Its 95% interval is Wilson's score interval.",
        f"{unit.capitalize()} a game: the seat's final total, mean over games, with a Student t 95% "
        "interval.",
        f"A seat is flagged when its win-rate interval excludes the fair share 1/{players}.",
    ]
    return Section(
        "seat_advantage",
        "Seat advantage",
        about,
        [table],
        [plot],
        {"unfair_seats": [r["seat"] for r in rows if r["unfair"]]},
    )


def _histogram(key: str, title: str, counts: Counts, xlabel: str) -> Plot:
    """A histogram of a sample given by its values' counts (``weights``)."""
    return Plot(key, title, "hist", {"values": list(counts.values), "weights": list(counts.counts)},
                xlabel=xlabel, ylabel="count")


def _distribution_section(results: Folder | Results, tally: Tally) -> Section:
    spec = results.spec
    series = [
        ("points_per_deal", f"{spec.points.capitalize()} per seat per {spec.deal_unit}"),
        ("totals", f"Final totals per seat ({spec.points})"),
        ("deals", f"{spec.deal_unit.capitalize()}s per game"),
        ("decisions", "Decisions per game"),
    ]
    rows = []
    plots = []
    for key, title in series:
        counts = tally.counts(key)
        rows.append(
            {
                "figure": title,
                "mean": _estimate(counts),
                "sd": math.sqrt(counts.variance) if counts.n > 1 else None,
                "min": counts.low,
                "median": counts.median,
                "max": counts.high,
                "n": counts.n,
            }
        )
        plots.append(_histogram(key, title, counts, title.lower()))
    table = Table(
        "distributions",
        "Scores and lengths",
        [
            Column("figure", "Figure"),
            Column("mean", "Mean [95%]"),
            Column("sd", "SD"),
            Column("min", "Min", 0),
            Column("median", "Median", 1),
            Column("max", "Max", 0),
            Column("n", "N"),
        ],
        rows,
    )
    about = [
        f"Each {spec.deal_unit}'s {spec.points} per seat, each seat's final total, and each game's "
        f"length in {spec.deal_unit}s and in decisions (actions taken by the players); means with "
        "Student t 95% intervals."
    ]
    return Section("distributions", "Score and length distributions", about, [table], plots)


def _ludii_section(results: Folder | Results, tally: Tally) -> Section:
    players = results.players
    n = results.played
    spec = results.spec
    rates = [tally.counts(f"win_seat{s}").total / n for s in range(players)] if n else [0.0]
    balance = max(rates) - min(rates)
    tied = wilson(tally.counts("tied_first").total, n)
    deals = _rows(tally, "deals")
    changes = tally.counts("lead_changes").total
    transitions = deals - n
    rows = [
        {
            "metric": "balance (max - min seat win rate)",
            "value": {"value": balance, "low": None, "high": None},
        },
        {
            "metric": "balance as a score (1 - that)",
            "value": {"value": 1 - balance, "low": None, "high": None},
        },
        {"metric": "drawishness (share of games with a tied first place)", "value": tied.to_dict()},
        {
            "metric": "decisiveness (margin between first and second, points)",
            "value": _estimate(tally.counts("margin")),
        },
        {"metric": "lead changes a game", "value": _estimate(tally.counts("lead_changes"))},
        {
            "metric": f"lead changes per {spec.deal_unit} after the first",
            "value": {"value": changes / transitions if transitions > 0 else None, "low": None, "high": None},
        },
        {"metric": f"duration ({spec.deal_unit}s a game)", "value": _estimate(tally.counts("deals"))},
        {"metric": "duration (decisions a game)", "value": _estimate(tally.counts("decisions"))},
    ]
    table = Table(
        "metrics",
        "Ludii-style metrics (95% intervals where shown)",
        [Column("metric", "Metric"), Column("value", "Value", 3)],
        rows,
    )
    about = [
        "Balance: the largest seat win rate minus the smallest (0 is perfectly balanced); the report also "
        "gives 1 minus that, the form Ludii reports.",
        "Drawishness: the share of games whose first place is shared (Wilson interval). Decisiveness: the "
        "mean margin between the winner's total and the next place's total (t interval).",
        f"Lead changes: after each {spec.deal_unit} the leader is the seat alone with the best running total "
        f"(lowest or highest, as the winners' totals show); a change is counted when a new seat becomes the "
        f"sole leader (a tie keeps the last). Given per game (t interval) and per {spec.deal_unit} after "
        "the first.",
        f"Duration: {spec.deal_unit}s and decisions a game (t intervals).",
    ]
    lead_changes = tally.counts("lead_changes")
    figures = {"balance": balance, "drawishness": tied.value,
               "lead_changes": lead_changes.mean if lead_changes.n else None}
    return Section("metrics", "Balance, decisiveness, lead changes, duration", about, [table], [], figures)


def rules_words(results: Folder | Results) -> str:
    """The rules a run played, as people read them: every option, a deck by its name and digest
    (never a deck file's text, docs/analytics.md); ``defaults`` when none is recorded."""
    rules = results.rules_record
    deck = results.deck_record
    rules_text = ", ".join(f"{k}={deck_words(deck) if k == 'deck' and deck else v}"
                           for k, v in (rules or {}).items() if k != "deck_files")
    return rules_text or "defaults"


def _facts(results: Folder | Results) -> tuple[list[tuple[str, str]], list[str]]:
    spec = results.spec
    agents = results.agents
    facts = [("game", spec.title), ("rules", rules_words(results))]
    facts += [
        ("agents", ", ".join(f"seat {s}: {a}" for s, a in enumerate(agents))),
        ("games", str(results.played)),
        ("seeds", runs_text(results.seed_runs)),
    ]
    if results.label != results.path.name:
        facts.append(("variant", results.label))
    warnings = []
    if any(a.partition(":")[0] == "random" for a in agents):
        warnings.append(
            "Random agents played: random play says little about a card's or a seat's strength "
            "(use --agents heuristic, or a search bot)."
        )
    if results.stopped:
        warnings.append(f"{results.stopped} games stopped by the action guard (no winner) are left out.")
    return facts, warnings


def build_report(results: Folder | Results, part_games: int = PART_GAMES) -> Report:
    """Every figure of one results folder: the generic sections, then the game's own. A
    :class:`Folder` is read ``part_games`` games at a time; tables already read, at once."""
    if results.played == 0:
        raise ResultsError(f"{results.path} holds no games")
    spec = results.spec
    analysis = spec.load("analysis") if spec.analysis is not None else None
    tally = Tally()
    for part in results.parts(part_games):
        tally_games(part, tally)
        if analysis is not None:
            analysis.tally(part, tally)
    sections = [
        _seat_section(results, tally),
        _distribution_section(results, tally),
        _ludii_section(results, tally),
    ]
    if analysis is not None:
        sections += analysis.sections(results, tally)
    facts, warnings = _facts(results)
    return Report(f"{spec.title}: {results.played} games", facts, warnings, sections)
