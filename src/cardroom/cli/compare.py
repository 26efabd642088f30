"""``cardroom compare`` and ``sweep``: variants of a game played on the same seeds (or results
folders read), every metric side by side with its difference."""

from __future__ import annotations

import shutil
import tempfile
import tomllib
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from cardroom.cli.analyze import check_outputs, print_report, save_report
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
from cardroom.cli.params import CsvOpt, DeckOpt, DesignerAgentsOpt, GameArg, HtmlOpt, JsonFileOpt
from cardroom.engine import Rules

if TYPE_CHECKING:  # the results and analysis extras (pyarrow, polars) load when a command runs, not at start
    from cardroom.analysis.folder import Results
    from cardroom.analysis.report import Report

__all__ = ["compare", "compare_variants", "rules_items", "run_compare", "run_sweep", "sweep"]


def run_compare(
    targets: Sequence[str],
    *,
    games: int,
    seed: int,
    rules: Sequence[str] | None,
    decks: Sequence[str] | None,
    players: int | None,
    agents: str | None,
    workers: int,
    out: Path | None,
    html: Path | None,
    json_path: Path | None,
    csv: Path | None,
    console: Console,
) -> Report:
    """``cardroom compare``: variants played on the same seeds, or results folders read."""
    check_outputs(html=html, json_path=json_path, csv=csv)
    from cardroom import games as registry
    from cardroom.analysis.compare import compare_runs
    from cardroom.analysis.folder import read_results

    if len(targets) == 1 and targets[0] in registry.names() and not Path(targets[0]).is_dir():
        variants = compare_variants(targets[0], rules, decks, players)
        runs = run_variants(
            variants, games=games, seed=seed, agents=agents, workers=workers, out=out, console=console
        )
        given = list(decks or [])
        deck_args = [given[i if len(given) > 1 else 0] for i in range(len(variants))] if given else None
        report = compare_runs(runs, [label for label, _ in variants], decks=deck_args)
    else:
        if rules or decks or out is not None or agents is not None or players is not None:
            raise UsageError(
                "--rule, --deck, --agents, --players and --out play variants: give a game "
                f"({', '.join(registry.names())}) then the variants, or only results folders"
            )
        if len(targets) < 2:
            raise UsageError(
                f"compare needs a game ({', '.join(registry.names())}) with two or more --rule or "
                f"--deck, or two or more results folders; got {targets[0]!r}"
            )
        report = compare_runs([read_results(Path(t)) for t in targets])
    print_report(console, report)
    save_report(console, report, html=html, json_path=json_path, csv=csv)
    return report


def compare_variants(
    game: str, rules: Sequence[str] | None, decks: Sequence[str] | None, players: int | None
) -> list[tuple[str, Rules]]:
    """The variants of ``compare GAME``: one per ``--rule`` and one per ``--deck`` (a single
    one of either applies to every variant), each labelled by what sets it apart."""
    rule_sets = list(rules or [""])
    deck_list: list[str | None] = [*decks] if decks else [None]
    count = max(len(rule_sets), len(deck_list))
    if count < 2:
        raise UsageError(
            "compare needs two or more variants: give --rule twice or more, or --deck twice or "
            "more (or give results folders)"
        )
    if 1 < len(rule_sets) != len(deck_list) > 1:
        raise UsageError(
            f"give as many --rule as --deck (one of each per variant), or one of either for all; "
            f"got {len(rule_sets)} and {len(deck_list)}"
        )
    variants = []
    for i in range(count):
        text = rule_sets[i if len(rule_sets) > 1 else 0]
        deck = deck_list[i if len(deck_list) > 1 else 0]
        items = with_deck(game, rules_items(text) if text else [], [deck] if deck else None)
        parts = [_shown(text)] if len(rule_sets) > 1 else []
        parts += [f"deck={_shown(deck)}"] if len(deck_list) > 1 and deck else []
        label = " ".join(parts)
        variants.append((label, parse_rule_options(game, players, items)))
    labels = [label for label, _ in variants]
    if len(set(labels)) < len(labels):
        raise UsageError(f"two variants are the same ({', '.join(labels)}): give different rules or decks")
    same_players(variants)
    return variants


def same_players(variants: Sequence[tuple[str, Rules]]) -> None:
    """Refuse, before any game is played, variants with different numbers of players: their
    seats' figures cannot be set side by side."""
    counts = {label: rules.players for label, rules in variants}
    if len(set(counts.values())) > 1:
        shown = ", ".join(f"{label}: {n}" for label, n in counts.items())
        raise UsageError(f"the variants have different numbers of players ({shown}); compare variants with "
                         "the same number (analyze each run on its own)")


def run_sweep(
    game: str,
    rule: Sequence[str] | None,
    *,
    games: int,
    seed: int,
    decks: Sequence[str] | None,
    players: int | None,
    agents: str | None,
    workers: int,
    out: Path | None,
    html: Path | None,
    json_path: Path | None,
    csv: Path | None,
    console: Console,
) -> Report:
    """``cardroom sweep``: one run per value of one option, every other option fixed."""
    check_outputs(html=html, json_path=json_path, csv=csv)
    from cardroom.analysis.compare import sweep_report

    swept = [r for r in rule or [] if "," in r.partition("=")[2]]
    if len(swept) != 1:
        raise UsageError(
            "sweep takes one --rule KEY=V1,V2,... with two or more values, e.g. "
            f"--rule target=50,100,150; got {len(swept)}"
        )
    option, _, values_text = swept[0].partition("=")
    option = option.strip()
    values = [v.strip() for v in values_text.split(",") if v.strip()]
    if len(values) < 2 or len(set(values)) < len(values):
        raise UsageError(f"--rule {option}=...: give two or more different values, e.g. {option}=1,2")
    fixed = [r for r in rule or [] if r is not swept[0]]
    variants = []
    for value in values:
        # Every value is checked before any game is played: a bad one is refused as simulate refuses it.
        items = with_deck(game, [*fixed, f"{option}={value}"], list(decks or []))
        variants.append((f"{option}={value}", parse_rule_options(game, players, items)))
    if option != "players":  # a sweep of players compares the game's figures, not the seats'
        same_players(variants)
    runs = run_variants(
        variants, games=games, seed=seed, agents=agents, workers=workers, out=out, console=console
    )
    report = sweep_report(option, values, runs)
    print_report(console, report)
    save_report(console, report, html=html, json_path=json_path, csv=csv)
    return report


def rules_items(text: str) -> list[str]:
    """A compare ``--rule`` value as ``KEY=VALUE`` items, as other commands' ``--rule`` take them:
    a TOML file of options (``target = 50``), or ``k=v,k=v`` (a deck's several files stay one
    item: ``deck=a.toml`` then ``b.toml`` after a comma join the deck, as ``--deck`` does)."""
    path = Path(text)
    if text.endswith(".toml"):
        if not path.is_file():
            raise UsageError(
                f"--rule {text!r}: no such file (give a TOML file of options or KEY=VALUE,KEY=VALUE)"
            )
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
            raise UsageError(f"--rule {text}: not a TOML file of options: {err}") from None
        return [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in data.items()]
    items: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" not in part and items:
            items[-1] += f",{part}"
            continue
        if "=" not in part:
            raise UsageError(
                f"--rule takes KEY=VALUE,KEY=VALUE or a TOML file, e.g. --rule target=50; got {text!r}"
            )
        items.append(part)
    return items


def run_variants(
    variants: Sequence[tuple[str, Rules]],
    *,
    games: int,
    seed: int,
    agents: str | None,
    workers: int,
    out: Path | None,
    console: Console,
) -> list[Results]:
    """Each variant's games, on the same seeds for all (game i uses seed + i), written as results
    by the writer ``simulate --out`` uses, then read back. Without ``out``, in a temporary folder."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from cardroom.analysis.folder import read_results
    from cardroom.native import Engine
    from cardroom.sim.results import Backend, simulate_to
    from cardroom.sim.tournament import Lineup, default_agents

    keep = out is not None
    if out is not None and out.exists() and any(out.iterdir()):
        raise UsageError(f"{out} already holds files: name a new folder for the variants' results")
    root = out if out is not None else Path(tempfile.mkdtemp(prefix="cardroom-compare-"))
    err = make_console(stderr=True)
    engine = Engine.chosen()  # every variant plays on the one engine read here
    try:
        runs = []
        for i, (label, rules) in enumerate(variants):
            folder = root / f"{i + 1}-{_slug(label)}"
            lineup = Lineup.parse(agents or default_agents(rules.spec), rules.players)
            backend = Backend(workers=workers)
            if err.is_terminal:
                with Progress(
                    TextColumn("[bold]{task.description}"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TimeRemainingColumn(),
                    console=err,
                    transient=True,
                ) as bar:
                    task = bar.add_task(f"{label}: playing", total=games)
                    simulate_to(
                        folder,
                        rules,
                        games,
                        seed,
                        lineup,
                        backend=backend,
                        variant=label,
                        progress=partial(bar.advance, task),
                        engine=engine,
                    )
            else:
                simulate_to(folder, rules, games, seed, lineup, backend=backend, variant=label, engine=engine)
            runs.append(read_results(folder))  # a deck file's text is read from beside the tables
        if keep:
            console.print(f"results of each variant written under {escape(str(root))}/", highlight=False)
        return runs
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)


def _shown(text: str) -> str:
    """A variant's rules or deck as its label shows it: a file by its name, not its path."""
    return Path(text).name if text.endswith(".toml") else text


def _slug(label: str) -> str:
    text = "".join(c if c.isalnum() or c in ".-" else "-" for c in label).strip("-")
    return text[:60] or "variant"


def compare(
    targets: Annotated[
        list[str], typer.Argument(help="A game (then --rule or --deck twice or more), or results folders.",
                                  metavar="GAME | FOLDER...")
    ],
    games_: Annotated[int, typer.Option("--games", help="Games per variant.", min=1, metavar="N")] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i of every variant uses seed+i.",
                                      metavar="N")] = 0,
    rule: Annotated[
        list[str] | None,
        typer.Option("--rule", "-r", help="A variant's rules: KEY=VALUE, several joined by commas "
                     "(KEY=VALUE,KEY=VALUE), or a TOML file of options (repeatable: one variant each).",
                     metavar="RULES"),
    ] = None,
    rules_alias: Annotated[
        list[str] | None, typer.Option("--rules", hidden=True, help="The old name of --rule.")
    ] = None,
    deck: Annotated[
        list[str] | None,
        typer.Option("--deck", "-d", help="A variant's deck: a project deck's name or a deck file "
                     "(repeatable: one variant each).", metavar="DECK"),
    ] = None,
    players: Annotated[int | None, typer.Option(help="Number of players.", metavar="N")] = None,
    agents: DesignerAgentsOpt = None,
    workers: Annotated[int, typer.Option(help="Processes to use (0: one per core).", metavar="N")] = 0,
    out: Annotated[
        Path | None, typer.Option(help="Keep each variant's results in this new folder.", metavar="FOLDER")
    ] = None,
    html: HtmlOpt = None,
    json_file: JsonFileOpt = None,
    csv: CsvOpt = None,
) -> None:
    """Variants side by side: play two or more rule sets or decks on the same seeds, or read
    results folders, and give every metric's difference with a 95% interval.

    cardroom compare baebae --deck sample --deck mydeck.toml --games 2000
    """
    with guard():
        check_workers(workers)
        bots_only(agents, "--agents", PEOPLE_PLAY)
        if rule and rules_alias:
            raise UsageError("give the variants' rules with --rule (--rules is its old name), not both")
        run_compare(targets, games=games_, seed=seed, rules=rule or rules_alias, decks=deck, players=players,
                    agents=agents,
                    workers=workers, out=out, html=html, json_path=json_file, csv=csv, console=make_console())


def sweep(
    game: GameArg,
    rule: Annotated[
        list[str] | None,
        typer.Option("--rule", "-r", help="The option swept, with its values: KEY=V1,V2,... (one such); "
                     "other --rule KEY=VALUE are fixed.", metavar="KEY=VALUES"),
    ] = None,
    games_: Annotated[int, typer.Option("--games", help="Games per value.", min=1, metavar="N")] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i of every value uses seed+i.",
                                      metavar="N")] = 0,
    deck: DeckOpt = None,
    players: Annotated[int | None, typer.Option(help="Number of players.", metavar="N")] = None,
    agents: DesignerAgentsOpt = None,
    workers: Annotated[int, typer.Option(help="Processes to use (0: one per core).", metavar="N")] = 0,
    out: Annotated[
        Path | None, typer.Option(help="Keep each value's results in this new folder.", metavar="FOLDER")
    ] = None,
    html: HtmlOpt = None,
    json_file: JsonFileOpt = None,
    csv: CsvOpt = None,
) -> None:
    """Every metric along one rules option's values, e.g. --rule target=50,100,150 (the same
    seeds for every value)."""
    with guard():
        check_workers(workers)
        bots_only(agents, "--agents", PEOPLE_PLAY)
        run_sweep(game, rule, games=games_, seed=seed, decks=deck, players=players, agents=agents,
                  workers=workers, out=out, html=html, json_path=json_file, csv=csv, console=make_console())
