"""``cardroom simulate``: many games between agents, a table of results, records, JSON."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, JustifyMethod
from rich.markup import escape
from rich.table import Table

from cardroom.cli.base import guard
from cardroom.cli.consoles import make_console
from cardroom.cli.options import (
    PEOPLE_PLAY,
    UsageError,
    bots_only,
    check_workers,
    parse_rule_options,
    with_deck,
)
from cardroom.cli.params import DEFAULT_GAME, DeckOpt, GameArg, RuleOpt
from cardroom.engine import Rules
from cardroom.record import RecordError
from cardroom.text import plural

__all__ = ["TableOptions", "print_summary", "report", "run_simulate", "simulate"]


@dataclass(frozen=True)
class TableOptions:
    """``simulate --out``: where and how the results are written as tables."""

    folder: Path
    csv: bool = False
    variant: str = ""
    force: bool = False
    ray: bool = False
    ray_address: str | None = None


def run_simulate(
    rules: Rules,
    *,
    games: int,
    seed: int,
    agents: str | None,
    records: Path | None,
    workers: int,
    json_out: bool,
    duplicate: bool = False,
    tables: TableOptions | None = None,
) -> dict[str, Any]:
    """Play the games, show a progress bar on a terminal, print a table or JSON.

    With ``duplicate``, ``games`` counts deals, each played once per rotation of the line-up;
    with ``tables``, the results are also written as tables (:mod:`cardroom.sim.results`).
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from cardroom.native import Engine
    from cardroom.sim.duplicate import by_deal, rotations, run_duplicate, summarize_duplicate
    from cardroom.sim.report import summarize
    from cardroom.sim.tournament import (
        Lineup,
        default_agents,
        missing_folders,
        remove_empty_folders,
        run_games,
    )

    engine = Engine.chosen()  # the one reading of the engine for the whole run
    players = rules.players
    lineup = Lineup.parse(agents or default_agents(rules.spec), players)
    if tables is not None:
        _check_installed("pyarrow", "results")
        if tables.ray:
            _check_installed("ray", "ray")
    err = make_console(stderr=True)
    started = time.perf_counter()
    total = games * len(rotations(lineup)) if duplicate else games

    def play(progress: Callable[[int], None] | None) -> dict[str, Any]:
        if tables is not None:
            from cardroom.sim.results import Backend, simulate_to

            backend = Backend(workers=workers, ray=tables.ray, address=tables.ray_address)
            kept = simulate_to(tables.folder, rules, games, seed, lineup, backend=backend,
                               variant=tables.variant, csv=tables.csv, records=records, force=tables.force,
                               progress=progress, duplicate=duplicate, engine=engine)
            if duplicate:
                lineups = rotations(lineup)
                return summarize_duplicate(rules, lineup, lineups, by_deal(kept, len(lineups)), seed,
                                           time.perf_counter() - started)
            return summarize(rules, lineup, kept, seed, time.perf_counter() - started)
        if duplicate:
            lineups, rows = run_duplicate(rules, games, seed, lineup, workers=workers, records=records,
                                          progress=progress, engine=engine)
            return summarize_duplicate(rules, lineup, lineups, rows, seed, time.perf_counter() - started)
        results = run_games(rules, games, seed, lineup, workers=workers, records=records,
                            progress=progress, engine=engine)
        return summarize(rules, lineup, results, seed, time.perf_counter() - started)

    played = [0]
    records_before = _records_in(records)
    records_made = [] if records is None else missing_folders(records)
    try:
        if err.is_terminal:
            columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TimeRemainingColumn())
            with Progress(*columns, console=err, transient=True) as bar:
                task = bar.add_task(f"{rules.game}: playing", total=total)

                def advance(k: int) -> None:
                    played[0] += k
                    bar.advance(task, k)

                summary = play(advance)
        else:
            summary = play(lambda k: played.__setitem__(0, played[0] + k))
    except KeyboardInterrupt:
        remove_empty_folders(records_made)
        err.print(_interrupted(played[0], total, tables, records, _records_in(records) - records_before),
                  highlight=False)
        raise SystemExit(130) from None
    if json_out:
        sys.stdout.write(json.dumps(summary, indent=2, allow_nan=False) + "\n")
    else:
        print_summary(make_console(), summary, records)
        if tables is not None:
            make_console().print(f"tables written to {tables.folder}/ (manifest.json last)", highlight=False)
    return summary


def _records_in(folder: Path | None) -> int:
    """How many record files ``folder`` holds (0 if none or no folder)."""
    if folder is None or not folder.is_dir():
        return 0
    return sum(1 for _ in folder.glob("*.json"))


def _interrupted(played: int, total: int, tables: TableOptions | None, records: Path | None,
                 written: int) -> str:
    """What a run stopped by Ctrl-C leaves: the games played, and what was kept of them."""
    # Workers may have written records of games not yet counted here: the larger count is the truth.
    words = [f"interrupted after {max(played, written)} of {plural(total, 'game')}:"]
    if tables is not None:
        shown = escape(str(tables.folder))
        words.append(f"no tables written into {shown}/ (a run's tables are written whole, or not at all);"
                     if tables.folder.exists() else f"no tables written, and no folder left at {shown};")
    if records is not None:
        words.append(f"{plural(written, 'record')} of the games played kept in {escape(str(records))}/"
                     if written else "no record written")
    else:
        words.append("nothing kept (--records DIR keeps each game as it is played)")
    return " ".join(words).rstrip(";")


def _check_installed(module: str, extra: str) -> None:
    """An optional package the command needs, asked for in words if it is missing."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise RecordError(f"this needs the package {module}: install Cardroom with its {extra} extra "
                          f"(pip install 'cardroom[{extra}]')")


def print_summary(console: Console, summary: dict[str, Any], records: Path | None = None) -> None:
    """The summary of ``simulate`` or ``report`` as tables."""
    if summary.get("duplicate"):
        _print_duplicate(console, summary, records)
    else:
        _print_tables(console, summary, records)


def rules_line(summary: dict[str, Any]) -> str:
    """The rules of a summary in one line, a deck by its name and digest (never its text)."""
    from cardroom.sim.report import deck_words

    deck = summary.get("deck")
    return ", ".join(
        f"{k}={deck_words(deck) if k == 'deck' and deck else v}"
        for k, v in summary["rules"].items() if k != "deck_files"
    )


def _print_duplicate(console: Console, summary: dict[str, Any], records: Path | None) -> None:
    rules = rules_line(summary)
    console.print(
        f"[bold]{summary['game']}[/], duplicate: {plural(summary['deals'], 'deal')} x "
        f"{plural(len(summary['rotations']), 'rotation')} = {plural(summary['games'], 'game')}, "
        f"seeds {_seeds(summary, 'deals')}{_took(summary)}\nrules: {escape(rules)}",
        highlight=False,
    )
    if summary.get("incomplete_deals_left_out"):
        console.print(f"left out: {plural(summary['incomplete_deals_left_out'], 'deal')} not played in every "
                      f"rotation ({plural(summary['games_left_out'], 'game')})", highlight=False)
    unit = summary["unit"].capitalize()
    table = Table(title="Per agent, every seat of every deal (95% intervals)", title_justify="left")
    columns: list[tuple[str, JustifyMethod]] = [("Agent", "left"), (unit, "right"), ("Wins", "right"),
                                                ("Win rate", "right")]
    for column, justify in columns:
        table.add_column(column, justify=justify)
    for row in summary["agents"]:
        table.add_row(row["agent"], _ci(row["mean_points"]), f"{row['wins']:g}", _ci(row["win_rate"], 3))
    console.print(table)
    if summary["pairs"]:
        pairs = Table(title=f"Paired differences on the same deals ({summary['unit']})", title_justify="left")
        pairs.add_column("Agent")
        pairs.add_column("minus")
        pairs.add_column("Difference [95%]", justify="right")
        for pair in summary["pairs"]:
            pairs.add_row(pair["agent"], pair["versus"], _ci(pair["difference"]))
        console.print(pairs)
    if summary["guard_stopped"]:
        console.print(f"[bold red]{plural(summary['guard_stopped'], 'game')} stopped by the action guard[/]")
    if records is not None:
        console.print(f"records written to {records}/")


def _took(summary: dict[str, Any]) -> str:
    """How long the run took; a report of saved records does not know, and says nothing."""
    return f", {summary['seconds']:.1f} s" if "seconds" in summary else ""


def _seeds(summary: dict[str, Any], count: str) -> str:
    """The seeds played: runs read from records, or the first seed and how many followed."""
    if "seed_ranges" in summary:
        return str(summary["seed_ranges"])
    return f"{summary['seed']}..{summary['seed'] + summary[count] - 1}"


def _ci(estimate: dict[str, Any], digits: int = 2) -> str:
    value, low, high = estimate["value"], estimate["low"], estimate["high"]
    if value is None:
        return "-"
    if low is None:
        return f"{value:.{digits}f}"
    return f"{value:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def _print_tables(console: Console, summary: dict[str, Any], records: Path | None) -> None:
    rules = rules_line(summary)
    deal = summary["deal"]
    console.print(
        f"[bold]{summary['game']}[/]: {plural(summary['games'], 'game')}, {plural(summary['deals'], deal)} "
        f"({summary['deals_per_game']:.2f} a game), seeds {_seeds(summary, 'games')}{_took(summary)}\n"
        f"rules: {escape(rules)}", highlight=False,
    )
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
        notes.append(f"[bold red]{plural(summary['guard_rounds'], 'round')} stopped by the turn limit[/]")
    if summary["guard_stopped"]:
        notes.append(f"[bold red]{plural(summary['guard_stopped'], 'game')} stopped by the action guard[/]")
    if notes:
        console.print("; ".join(notes))
    if records is not None:
        console.print(f"records written to {records}/")


def simulate(
    game: GameArg = DEFAULT_GAME,
    players: Annotated[int | None, typer.Option(help="Number of players.", metavar="N")] = None,
    games: Annotated[int, typer.Option(help="How many games to play.", min=1, metavar="N")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i.", metavar="N")] = 0,
    agents: Annotated[
        str | None,
        typer.Option(help="Agents by seat, comma-separated, e.g. random,random (one name fills every seat; "
                          "default: heuristic in every seat, as compare).", metavar="AGENTS"),
    ] = None,
    rule: RuleOpt = None,
    deck: DeckOpt = None,
    records: Annotated[
        Path | None, typer.Option(help="Write one record per game into this folder.", metavar="FOLDER")
    ] = None,
    workers: Annotated[
        int, typer.Option(help="Processes to use (0: one per core); never more than the cores or the games.",
                          metavar="N")
    ] = 0,
    duplicate: Annotated[
        bool,
        typer.Option("--duplicate", help="Play each deal once per rotation of the agents over the seats."),
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print the summary as JSON on stdout.")] = False,
    out: Annotated[
        Path | None,
        typer.Option(help="Write the results as tables (Parquet) into this folder (docs/results.md).",
                     metavar="FOLDER"),
    ] = None,
    csv: Annotated[bool, typer.Option("--csv", help="With --out: CSV tables instead of Parquet.")] = False,
    variant: Annotated[
        str, typer.Option(help="With --out: a label for this run's rules or deck, kept in every game's row.",
                          metavar="LABEL")
    ] = "",
    force: Annotated[
        bool, typer.Option("--force", help="With --out: replace the results a folder already holds.")
    ] = False,
    ray: Annotated[
        bool,
        typer.Option("--ray", help="With --out: play on a Ray cluster (a local one unless --ray-address)."),
    ] = False,
    ray_address: Annotated[
        str | None, typer.Option(help="The Ray cluster to join (implies --ray), e.g. 10.0.0.5:6379; a "
                                 "cluster with Ray's token authentication also needs RAY_AUTH_MODE=token "
                                 "and its token (docs/results.md).",
                                 metavar="HOST:PORT")
    ] = None,
) -> None:
    """Play many games between agents and report results per seat and per agent.

    Agents are given by seat, comma-separated, each with options after colons:
    --agents ismcts:iterations=500,heuristic,heuristic,heuristic
    """
    with guard():
        check_workers(workers)
        bots_only(agents, "--agents", PEOPLE_PLAY)
        ray = ray or ray_address is not None
        if out is None and (csv or variant or force or ray):
            raise UsageError("--csv, --variant, --force, --ray and --ray-address go with --out FOLDER "
                             "(the results written as tables)")
        rules = parse_rule_options(game, players, with_deck(game, rule, deck))
        tables = None
        if out is not None:
            tables = TableOptions(out, csv=csv, variant=variant, force=force, ray=ray,
                                  ray_address=ray_address)
        run_simulate(
            rules, games=games, seed=seed, agents=agents, records=records, workers=workers,
            json_out=json_out, duplicate=duplicate, tables=tables,
        )


def report(
    paths: Annotated[list[Path], typer.Argument(help="Record files or folders of records.", metavar="PATH")],
    json_out: Annotated[bool, typer.Option("--json", help="Print the summary as JSON on stdout.")] = False,
) -> None:
    """Summarize saved records (e.g. a long simulation run in parts), duplicate deals included."""
    from cardroom.sim.records import report_records

    with guard():
        summary = report_records(paths)
    if json_out:
        sys.stdout.write(json.dumps(summary, indent=2, allow_nan=False) + "\n")
    else:
        print_summary(make_console(), summary)
