"""``cardroom skill``: how much skill matters in a game, a deck, a set of rules; variants compared."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cardroom.cli.base import guard
from cardroom.cli.compare import compare_variants, rules_items
from cardroom.cli.consoles import make_console
from cardroom.cli.ladder import with_progress
from cardroom.cli.options import UsageError, check_workers, parse_rule_options, with_deck
from cardroom.cli.params import GameArg, HtmlOpt, JsonFileOpt
from cardroom.cli.simulate import rules_line
from cardroom.engine import Rules
from cardroom.text import plural

__all__ = ["print_skill", "run_skill_command", "skill", "skill_report", "skill_variants"]


def skill_variants(
    game: str, rules: Sequence[str] | None, decks: Sequence[str] | None, players: int | None
) -> list[tuple[str, Rules]]:
    """One variant (the rules and deck given, or the game's own), or one per ``--rule`` or
    ``--deck`` when two or more are given (as ``cardroom compare`` makes them)."""
    if len(rules or []) > 1 or len(decks or []) > 1:
        return compare_variants(game, rules, decks, players)
    items = rules_items(rules[0]) if rules else []
    return [("", parse_rule_options(game, players, with_deck(game, items, list(decks) if decks else None)))]


def run_skill_command(
    variants: list[tuple[str, Rules]],
    rungs: list[str],
    *,
    deals: int,
    seed: int,
    workers: int,
    json_path: Path | None,
    html: Path | None,
    console: Console,
) -> list[dict[str, Any]]:
    from cardroom.sim.skill import games_of_skill, run_skill
    from cardroom.sim.tournament import Lineup

    for _, rules in variants:
        for rung in rungs:
            Lineup.parse(rung, rules.players)
    if html is not None:
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:
            raise UsageError(
                "--html draws its plot with matplotlib, which is not installed: it comes with "
                "Cardroom's analysis extra (pip install 'cardroom[analysis]')"
            )
    reports = []
    for label, rules in variants:
        title = f"{rules.game}{' ' + label if label else ''}: skill"

        def play(progress: Callable[[int], None] | None, rules: Rules = rules) -> dict[str, Any]:
            return run_skill(rules, rungs, deals, seed, workers=workers, progress=progress)

        report: dict[str, Any] = with_progress(games_of_skill(rules, rungs, deals), title, play)
        report["variant"] = label
        reports.append(report)
    print_skill(console, reports)
    if json_path is not None:
        json_path.write_text(
            json.dumps({"variants": reports}, indent=2, allow_nan=False) + "\n", encoding="utf-8"
        )
        console.print(f"JSON written: {json_path}", highlight=False)
    if html is not None:
        from cardroom.analysis.html import write_html

        write_html(skill_report(reports), html)
        console.print(f"HTML written: {html}", highlight=False)
    return reports


def short(spec: str) -> str:
    """A rung's name short enough for a plot's axis: ``ismcts:iterations=200`` is ``ismcts 200``.

    >>> short("ismcts:iterations=200"), short("heuristic")
    ('ismcts 200', 'heuristic')
    """
    name, _, rest = spec.partition(":iterations=")
    return f"{name} {rest}" if rest.isdecimal() else spec


def slope_interval(trend: dict[str, Any]) -> str:
    """`` (slope 95% [low, high])``: the slope's bootstrap interval over deals, if it has one."""
    low, high = trend.get("slope_interval") or (None, None)
    return "" if low is None else f" (slope's 95% bootstrap interval [{low:.3f}, {high:.3f}])"


def _trend_words(report: dict[str, Any]) -> str:
    trend = report["trend"]
    if not trend["steps"]:
        return "no ISMCTS doublings: no trend fitted"
    words = (
        f"trend over {plural(trend['steps'], 'ISMCTS doubling')}: score {trend['intercept']:.3f} "
        f"{'+' if trend['slope'] >= 0 else '-'} {abs(trend['slope']):.3f} a doubling{slope_interval(trend)}"
    )
    if trend["pays_until"] is not None:
        words += f"; a doubling stops paying after about {trend['pays_until']:.1f}"
    else:
        words += "; no sign yet that more search stops paying"
    return words


def _rungs_note(report: dict[str, Any]) -> str | None:
    """What the short names of the ISMCTS rungs stand for (``ismcts 25``: ``ismcts:iterations=25``)."""
    shortened = [r for r in report["rungs"] if short(r) != r]
    if not shortened:
        return None
    return "ismcts N: ismcts:iterations=N, the search at N iterations a move"


def print_skill(console: Console, reports: list[dict[str, Any]]) -> None:
    from cardroom.analysis.verdict import skill_verdict
    from cardroom.sim.ladder import interval

    for report in reports:
        console.print(
            f"[bold]{report['game']}[/]{' ' + escape(report['variant']) if report['variant'] else ''}: "
            f"{plural(report['deals'], 'deal')} from seed {report['seed']}, each rung against the one "
            f"below on the same deals, {report['seconds']:.1f} s",
            highlight=False,
        )
        for line in skill_verdict(report):
            console.print(f"[bold]verdict:[/] {escape(line)}", highlight=False)
        console.print(f"rules: {escape(rules_line(report))}", highlight=False)
        table = Table(
            title=f"Each rung against the one below (95% intervals; {report['unit']})", title_justify="left",
            caption=_rungs_note(report), caption_justify="left",
        )
        # The rungs' names are what the table is about: never cut (the figures wrap instead).
        width = max(len(short(r)) for r in report["rungs"])
        for column in ("Rung", "Below", "Deals better", "Difference", "Seat-games won"):
            named = column in ("Rung", "Below")
            table.add_column(column, justify="left" if named else "right", no_wrap=named,
                             min_width=width if named else None)
        for step in report["steps"]:
            table.add_row(
                short(step["rung"]),
                short(step["below"]),
                interval(step["score"], 3),
                interval(step["difference"]),
                interval(step["win_rate"], 3),
            )
        console.print(table)
        span = report["range"]
        console.print(
            f"{_trend_words(report)}\nrange: {span['top']} minus {span['bottom']}, through the "
            f"rungs: {interval(span['difference'])} {report['unit']}",
            highlight=False,
        )
    if len(reports) > 1:
        table = Table(title="Variants side by side", title_justify="left")
        for column in ("Variant", "Range", "Trend slope", "Pays until"):
            table.add_column(column, justify="left" if column == "Variant" else "right")
        for report in reports:
            trend = report["trend"]
            table.add_row(
                report["variant"],
                interval(report["range"]["difference"]),
                "-" if trend["slope"] is None else f"{trend['slope']:.3f}",
                "-" if trend["pays_until"] is None else f"{trend['pays_until']:.1f}",
            )
        console.print(table)


def skill_report(reports: list[dict[str, Any]]) -> Any:
    """The reports as one HTML report (:mod:`cardroom.analysis.html`): a table per variant and
    the plot of every step's score, the variants side by side."""
    from cardroom import games
    from cardroom.analysis.report import Column, Plot, Report, Section, Table
    from cardroom.analysis.verdict import skill_verdict

    first = reports[0]
    title = games.get(first["game"]).title
    facts = [
        ("game", title),
        ("deals", str(first["deals"])),
        ("seed", str(first["seed"])),
        ("rungs", ", ".join(first["rungs"])),
    ]
    for report in reports:
        facts.append((f"rules{' of ' + report['variant'] if report['variant'] else ''}", rules_line(report)))
    columns = [
        Column("rung", "Rung"),
        Column("below", "Below"),
        Column("score", "Deals better", 3),
        Column("difference", f"Difference ({first['unit']})"),
        Column("win_rate", "Seat-games won", 3),
    ]
    sections: list[Section] = []
    for report in reports:
        rows = [
            {k: step[k] for k in ("rung", "below", "score", "difference", "win_rate")}
            for step in report["steps"]
        ]
        key = f"steps-{len(sections)}"
        sections.append(
            Section(
                key,
                f"Steps{': ' + report['variant'] if report['variant'] else ''}",
                about=[_trend_words(report)],
                tables=[Table(key, "Each rung against the one below", columns, rows)],
            )
        )
    labels = [short(s["rung"]) for s in first["steps"]]
    series = {
        report["variant"] or first["game"]: {
            "values": [s["score"]["value"] for s in report["steps"]],
            "low": [s["score"]["low"] for s in report["steps"]],
            "high": [s["score"]["high"] for s in report["steps"]],
        }
        for report in reports
    }
    sections.append(
        Section(
            "trend",
            "Score of each step",
            about=[
                "The share of deals each rung did better on than the one below (0.5: no better), "
                "with 95% bootstrap "
                "intervals over deals."
            ],
            plots=[
                Plot(
                    "score",
                    "Each rung against the one below",
                    "line",
                    {"labels": labels, "series": series},
                    "rung (against the one below it)",
                    "deals better",
                )
            ],
        )
    )
    decks = {str((r.get("deck") or {}).get("name")) for r in reports if r.get("deck")}
    named = f", {next(iter(decks))}" if len(decks) == 1 else ""
    verdict = [line for report in reports for line in skill_verdict(report)]
    return Report(f"How much skill matters: {title}{named}", facts, [], sections, verdict)


def skill(
    game: GameArg,
    deals: Annotated[int, typer.Option(help="Duplicate deals each step plays.", min=1, metavar="N")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the first deal; deal i uses seed+i.", metavar="N")] = 0,
    iterations: Annotated[
        int, typer.Option(help="ISMCTS's iterations a move on its first rung.", min=1, max=100_000,
                          metavar="N")
    ] = 25,
    doublings: Annotated[
        int, typer.Option(help="ISMCTS rungs above the first, each with twice the iterations.", min=0, max=10,
                          metavar="N")
    ] = 3,
    rule: Annotated[
        list[str] | None,
        typer.Option("--rule", "-r", help="The rules: KEY=VALUE, several joined by commas; twice or more "
                     "to compare variants.", metavar="RULES"),
    ] = None,
    deck: Annotated[
        list[str] | None,
        typer.Option("--deck", "-d", help="The deck: a project deck's name or a deck file; twice or more "
                     "to compare variants.", metavar="DECK"),
    ] = None,
    players: Annotated[int | None, typer.Option(help="Number of players.", metavar="N")] = None,
    workers: Annotated[int, typer.Option(help="Processes to use (0: one per core).", metavar="N")] = 0,
    html: HtmlOpt = None,
    json_file: JsonFileOpt = None,
) -> None:
    """How much skill matters: random, heuristic, ISMCTS at doubling iterations (and the learned
    agent where it is registered) each against the one below on duplicate deals, with the
    fitted trend; give --rule or --deck twice or more to compare variants.

    cardroom skill baebae --deck sample --deck mydeck.toml --deals 20
    """
    from cardroom.sim.skill import skill_rungs

    with guard():
        check_workers(workers)
        variants = skill_variants(game, rule, deck, players)
        run_skill_command(variants, skill_rungs(iterations, doublings), deals=deals, seed=seed,
                          workers=workers,
                          json_path=json_file, html=html, console=make_console())
