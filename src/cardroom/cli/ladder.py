"""``cardroom ladder``: every agent on one scale, from a round robin of duplicate deals."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from cardroom.agents.levels import SHIPPED, resolve
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
from cardroom.text import plural, shorten

__all__ = ["ladder", "ladder_agents", "run_ladder_command", "with_progress"]


def ladder_agents(text: str | None, players: int) -> list[str]:
    """``--agents a,b,c``: two or more different agents (a level's name stands for its agent), each
    checked; ``SHIPPED`` if not given."""
    from cardroom.sim.tournament import Lineup

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
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

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
    from cardroom.sim.evaluate import evaluate_pairs, games_of
    from cardroom.sim.ladder import ladder_markdown, put_in_doc, rate, save_ladder

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
    from cardroom.sim.ladder import interval

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


def _ladder_command(game: str, agents: list[str], deals: int, seed: int, players: int | None,
                    rule: list[str] | None, deck: list[str] | None, bootstrap: int) -> str:
    """The command that plays this ladder again, for the report and the ladder file."""
    import shlex

    words = ["cardroom", "ladder", game, "--agents", ",".join(agents), "--deals", str(deals),
             "--seed", str(seed)]
    words += ["--players", str(players)] if players is not None else []
    for item in rule or []:
        words += ["--rule", item]
    for item in deck or []:
        words += ["--deck", item]
    words += ["--bootstrap", str(bootstrap)]
    return " ".join(shlex.quote(w) for w in words)


def ladder(
    game: GameArg = DEFAULT_GAME,
    agents: Annotated[
        str | None,
        typer.Option(help="The agents, comma-separated, each with its options after colons, or a level's "
                          "name (default: every shipped agent, ISMCTS at a few budgets).", metavar="AGENTS"),
    ] = None,
    deals: Annotated[int, typer.Option(help="Duplicate deals every pair plays.", min=1, metavar="N")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the first deal; deal i uses seed+i.", metavar="N")] = 0,
    players: Annotated[int | None, typer.Option(help="Number of players.", metavar="N")] = None,
    rule: RuleOpt = None,
    deck: DeckOpt = None,
    workers: Annotated[int, typer.Option(help="Processes to use (0: one per core).", metavar="N")] = 0,
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap refits over deals behind each rating's interval.", min=0, max=10000,
                          metavar="N")
    ] = 200,
    json_out: Annotated[bool, typer.Option("--json", help="Print the ladder as JSON on stdout.")] = False,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print the ladder as Markdown tables.")
    ] = False,
    save: Annotated[
        Path | None, typer.Option(help="Put this game's ladder into a ladder file (JSON; the other games' "
                                       "entries kept), e.g. src/cardroom/agents/ladder.json.", metavar="FILE")
    ] = None,
    doc: Annotated[
        Path | None, typer.Option(help="Put the Markdown between the lines <!-- ladder GAME --> and "
                                       "<!-- /ladder GAME --> of this file (docs/strength.md).",
                                  metavar="FILE")
    ] = None,
) -> None:
    """Rate agents on one scale: every pair plays the same duplicate deals, each deal a match
    rated with openskill (intervals by bootstrap over deals), and each agent is compared with the
    one below it (points, deals won, Elo).

    cardroom ladder baha --agents random,heuristic,ismcts:iterations=100 --deals 20 --rule target=1
    """
    with guard():
        check_workers(workers)
        bots_only(agents, "--agents", PEOPLE_PLAY)
        if json_out and markdown:
            raise UsageError("give --json or --markdown, not both")
        rules = parse_rule_options(game, players, with_deck(game, rule, deck))
        chosen = ladder_agents(agents, rules.players)
        try:
            run_ladder_command(rules, chosen, deals=deals, seed=seed, workers=workers, bootstrap=bootstrap,
                               json_out=json_out, markdown=markdown, save=save, doc=doc,
                               command=_ladder_command(game, chosen, deals, seed, players, rule, deck,
                                                       bootstrap),
                               console=make_console())
        except ValueError as err:
            raise UsageError(str(err)) from None
