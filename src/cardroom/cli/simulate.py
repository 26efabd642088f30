"""``cardroom simulate``: many games between agents, a table of results, records, JSON."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardroom.engine import Rules
from cardroom.sim.report import summarize
from cardroom.sim.tournament import Lineup, run_games

__all__ = ["run_simulate"]


def run_simulate(
    rules: Rules,
    *,
    games: int,
    seed: int,
    agents: str | None,
    records: Path | None,
    workers: int,
    json_out: bool,
) -> dict[str, Any]:
    """Play the games, show a progress bar on a terminal, print a table or JSON."""
    players = rules.to_dict()["players"]
    lineup = Lineup.parse(agents, players)
    err = Console(stderr=True)
    started = time.perf_counter()
    if err.is_terminal:
        columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TimeRemainingColumn())
        with Progress(*columns, console=err, transient=True) as bar:
            task = bar.add_task(f"{rules.game}: playing", total=games)
            results = run_games(rules, games, seed, lineup, workers=workers, records=records,
                                progress=lambda k: bar.advance(task, k))
    else:
        results = run_games(rules, games, seed, lineup, workers=workers, records=records)
    summary = summarize(rules, lineup, results, seed, time.perf_counter() - started)
    if json_out:
        sys.stdout.write(json.dumps(summary, indent=2, allow_nan=False) + "\n")
    else:
        _print_tables(Console(), summary, records)
    return summary


def _ci(estimate: dict[str, Any], digits: int = 2) -> str:
    value, low, high = estimate["value"], estimate["low"], estimate["high"]
    if value is None:
        return "-"
    if low is None:
        return f"{value:.{digits}f}"
    return f"{value:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def _print_tables(console: Console, summary: dict[str, Any], records: Path | None) -> None:
    rules = ", ".join(f"{k}={v}" for k, v in summary["rules"].items())
    deal = summary["deal"]
    console.print(
        f"[bold]{summary['game']}[/]: {summary['games']} games, {summary['deals']} {deal}s "
        f"({summary['deals_per_game']:.2f} a game), seeds {summary['seed']}.."
        f"{summary['seed'] + summary['games'] - 1}, {summary['seconds']:.1f} s\n"
        f"rules: {rules}", highlight=False,
    )
    if "deck" in summary:
        deck = summary["deck"]
        console.print(f"deck: {deck['name']} ({deck['digest'][:19]}...)", highlight=False)
    unit = summary["unit"].capitalize()
    parts = (("Per seat", summary["seats"], "seat"), ("Per agent", summary["agents"], "agent"))
    for title, rows, key in parts:
        table = Table(title=f"{title} (95% intervals)", title_justify="left")
        table.add_column(key.capitalize())
        if key == "seat":
            table.add_column("Agent")
        table.add_column(unit, justify="right")
        table.add_column("Wins", justify="right")
        table.add_column("Win rate", justify="right")
        for row in rows:
            cells = [str(row[key])] + ([row["agent"]] if key == "seat" else [])
            cells += [_ci(row["mean_points"]), f"{row['wins']:g}", _ci(row["win_rate"], 3)]
            table.add_row(*cells)
        console.print(table)
    notes = []
    if "moons" in summary:
        notes.append(f"moons shot: {summary['moons']}")
    if "blocked_rounds" in summary:
        notes.append(f"blocked rounds: {summary['blocked_rounds']}")
    if summary.get("guard_rounds"):
        notes.append(f"[bold red]{summary['guard_rounds']} rounds stopped by the turn limit[/]")
    if summary["guard_stopped"]:
        notes.append(f"[bold red]{summary['guard_stopped']} games stopped by the action guard[/]")
    if notes:
        console.print("; ".join(notes))
    if records is not None:
        console.print(f"records written to {records}/")
