"""``cardroom ladder``: every agent on one scale, from a round robin of duplicate deals."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardroom.agents.levels import SHIPPED, resolve
from cardroom.cli.consoles import make_console
from cardroom.cli.options import UsageError
from cardroom.engine import Rules
from cardroom.sim.evaluate import evaluate_pairs, games_of
from cardroom.sim.ladder import interval, ladder_markdown, put_in_doc, rate, save_ladder
from cardroom.sim.tournament import Lineup
from cardroom.text import plural, shorten

__all__ = ["ladder_agents", "run_ladder_command", "with_progress"]


def ladder_agents(text: str | None, players: int) -> list[str]:
    """``--agents a,b,c``: two or more different agents (a level's name stands for its agent), each
    checked; ``SHIPPED`` if not given."""
    agents = list(SHIPPED) if text is None else [resolve(spec) for spec in text.split(",")]
    if len(agents) < 2 or not all(agents):
        raise UsageError(
            f"--agents needs two agents or more, comma-separated, e.g. random,heuristic; "
            f"got {shorten(text or '', 60)!r}"
        )
    twice = [a for a in agents if agents.count(a) > 1]
    if twice:
        raise UsageError(f"--agents names {twice[0]} twice: a ladder's agents must all be different")
    for a in agents:
        Lineup.parse(a, players)  # a bad spec fails with the agent's own message
    return agents


def needs_openskill() -> None:
    """Ask for the analysis extra in words, before any deal is played, if openskill is missing."""
    if importlib.util.find_spec("openskill") is None:
        raise UsageError(
            "the ladder rates agents with the package openskill, which is not installed: it comes "
            "with Cardroom's analysis extra (pip install 'cardroom[analysis]', or make designer "
            "in a clone of Cardroom)"
        )


def with_progress(total: int, title: str, play: Callable[[Callable[[int], None] | None], Any]) -> Any:
    """``play(progress)`` with a progress bar on a terminal's stderr (none elsewhere)."""
    err = make_console(stderr=True)
    if not err.is_terminal:
        return play(None)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task(title, total=total)
        return play(lambda k: bar.advance(task, k))


def run_ladder_command(
    rules: Rules,
    agents: list[str],
    *,
    deals: int,
    seed: int,
    workers: int,
    bootstrap: int,
    json_out: bool,
    markdown: bool,
    save: Path | None,
    doc: Path | None,
    command: str,
    console: Console,
) -> dict[str, Any]:
    needs_openskill()
    pairs = [(a, b) for i, a in enumerate(agents) for b in agents[i + 1 :]]
    evaluation = with_progress(
        games_of(rules, pairs, deals),
        f"{rules.game}: ladder",
        lambda progress: evaluate_pairs(rules, pairs, deals, seed, workers=workers, progress=progress),
    )
    ladder = rate(agents, evaluation, bootstrap).to_dict()
    text = ladder_markdown(ladder, command)
    if save is not None:
        save_ladder(save, ladder, command)
    if doc is not None:
        put_in_doc(doc, rules.game, text)
    if json_out:
        sys.stdout.write(json.dumps(ladder, indent=2, allow_nan=False) + "\n")
    elif markdown:
        sys.stdout.write(text)
    else:
        print_ladder(console, ladder)
        for path, what in ((save, "ladder file"), (doc, "document")):
            if path is not None:
                console.print(f"{what} written: {path}", highlight=False)
    return ladder


def print_ladder(console: Console, ladder: dict[str, Any]) -> None:
    console.print(
        f"[bold]{ladder['game']}[/] ladder: {plural(ladder['deals'], 'deal')} from seed {ladder['seed']}, "
        f"every pair on the same deals, {plural(ladder['games'], 'game')}, {ladder['seconds']:.1f} s",
        highlight=False,
    )
    table = Table(title="Ratings (openskill; mu's interval: 95% bootstrap over deals)", title_justify="left")
    for column, justify in (
        ("Place", "right"),
        ("Agent", "left"),
        ("mu", "right"),
        ("sigma", "right"),
        ("Ordinal", "right"),
    ):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for place, r in enumerate(ladder["rungs"], start=1):
        low, high = r["mu_interval"]
        mu = f"{r['mu']:.2f}" if low is None else f"{r['mu']:.2f} [{low:.2f}, {high:.2f}]"
        table.add_row(str(place), r["agent"], mu, f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}")
    console.print(table)
    pairs = Table(
        title=f"Each against the one below, on the same deals ({ladder['unit']})", title_justify="left"
    )
    for column in ("Agent", "Below", "Difference [95%]", "Deals better [95%]", "Elo [95%]"):
        pairs.add_column(column, justify="left" if column in ("Agent", "Below") else "right")
    for p in ladder["neighbours"]:
        pairs.add_row(
            p["agent"], p["versus"], interval(p["difference"]), interval(p["score"], 3), interval(p["elo"], 0)
        )
    console.print(pairs)
