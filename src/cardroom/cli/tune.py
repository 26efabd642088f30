"""``cardroom tune``: search a deck's numbers and rules options toward targets, print the best
variants, write the tuned deck (``--write``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

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
    game_spec,
    parse_rule_options,
)
from cardroom.cli.params import CsvOpt, DesignerAgentsOpt, GameArg, HtmlOpt, JsonFileOpt, RuleOpt
from cardroom.games import GameSpec

if TYPE_CHECKING:  # the results and analysis extras (pyarrow, polars) load when a command runs, not at start
    from cardroom.analysis.report import Report

__all__ = ["run_tune", "tune"]


def _base(
    spec: GameSpec, rules: Sequence[str], deck: str | None, players: int | None, params: Sequence[str]
) -> tuple[dict[str, Any], str | None]:
    """The fixed options (as ``--rule`` gives them, checked) and the text of the one deck whose
    numbers are searched (``None`` when no deck is given)."""
    items = list(rules)
    parse_rule_options(
        spec, players, [*items, *([f"deck={deck}"] if deck else [])]
    )  # checked as simulate would
    options: dict[str, Any] = {}
    for item in items:
        key, _, value = item.partition("=")
        options[key.strip()] = value.strip()
    if players is not None:
        options["players"] = players
    if not deck:
        if any("." in p.partition("=")[0] for p in params) and spec.decks is not None:
            deck = spec.decks.default
        else:
            return options, None
    if spec.decks is None:
        raise UsageError(f"--deck is for games played with decks; {spec.name} has none")
    if "," in deck:
        raise UsageError("tune searches the numbers of one deck: give one --deck (a project deck or a file)")
    read = spec.decks.read(deck, None)
    project = spec.decks.path(deck)
    text = project.read_text(encoding="utf-8") if project is not None else read["deck_files"][0]
    options.update(read)
    return options, text


def run_tune(
    game: str,
    *,
    params: Sequence[str],
    targets: Sequence[str],
    rules: Sequence[str],
    deck: str | None,
    players: int | None,
    agents: str | None,
    trials: int,
    games_: int,
    retest_games: int,
    top: int,
    seed: int,
    workers: int,
    write: Path | None,
    html: Path | None,
    json_path: Path | None,
    csv: Path | None,
    console: Console,
) -> Report:
    from cardroom.analysis.report import check_output_file, write_atomic
    from cardroom.analysis.tune import TuneError, parse_goal, parse_param, tune, tune_report
    from cardroom.sim.tournament import default_agents

    check_outputs(html=html, json_path=json_path, csv=csv)
    if write is not None:
        check_output_file(write, "--write")
    try:
        spec = game_spec(game)
        parsed = [parse_param(spec, p) for p in params]
        goals = [parse_goal(spec, t) for t in targets]
        if write is not None and not any(p.deck for p in parsed):
            raise UsageError(
                "--write saves the tuned deck: give a deck's number to tune (--param 10C.count=1..4); "
                "rules options are given to simulate with --rule"
            )
        base, text = _base(spec, rules, deck, players, params)
        tuned = tune(
            spec,
            parsed,
            goals,
            base=base,
            deck_text=text,
            agents=agents or default_agents(spec),
            trials=trials,
            games=games_,
            retest_games=retest_games,
            top=top,
            seed=seed,
            workers=workers,
        )
    except TuneError as err:
        raise UsageError(str(err)) from None
    report = tune_report(tuned)
    print_report(console, report)
    save_report(console, report, html=html, json_path=json_path, csv=csv)
    chosen = tuned.chosen
    if write is not None and chosen is not None and chosen.deck_text is not None:
        with write_atomic(write) as temporary:
            temporary.write_text(chosen.deck_text, encoding="utf-8")
        kept = " (the start's, unchanged: it meets the goals)" if chosen is tuned.start else ""
        console.print(f"tuned deck written to {escape(str(write))}{kept}", highlight=False)
    return report


def tune(
    game: GameArg,
    param: Annotated[
        list[str] | None,
        typer.Option("--param", "-p", help="A number to search, NAME=LO..HI: a rules option (target=50..150) "
                     "or a deck's number, CARD.FIELD (10C.count=1..4) (repeatable).", metavar="NAME=LO..HI"),
    ] = None,
    target: Annotated[
        list[str] | None,
        typer.Option("--target", "-t", help="A goal, NAME=GOAL: length=4 (deals a game), decisions=120, "
                     "seats=0.03 (a bound on seat advantage), spread=0.02 (BAEBAE's card strengths) "
                     "(repeatable).", metavar="NAME=GOAL"),
    ] = None,
    rule: RuleOpt = None,
    deck: Annotated[
        str | None, typer.Option("--deck", "-d", help="The deck whose numbers are searched (default: the "
                                 "game's default deck).", metavar="DECK"),
    ] = None,
    players: Annotated[int | None, typer.Option(help="Number of players.", metavar="N")] = None,
    agents: DesignerAgentsOpt = None,
    trials: Annotated[int, typer.Option(help="Variants the search plays.", min=1, max=10_000,
                                        metavar="N")] = 30,
    games_: Annotated[int, typer.Option("--games", help="Games a trial (the same seeds for every trial).",
                                        min=1, metavar="N")] = 200,
    retest: Annotated[int, typer.Option(help="Games the best variants are played again on fresh seeds.",
                                        min=2, metavar="N")] = 1000,
    top: Annotated[int, typer.Option(help="Best variants re-tested.", min=1, max=20, metavar="N")] = 3,
    seed: Annotated[int, typer.Option(help="Seed of the first game of a trial.", metavar="N")] = 0,
    workers: Annotated[int, typer.Option(help="Processes to use (0: one per core).", metavar="N")] = 0,
    write: Annotated[
        Path | None, typer.Option("--write", help="Save the best variant's deck here.", metavar="FILE")
    ] = None,
    html: HtmlOpt = None,
    json_file: JsonFileOpt = None,
    csv: CsvOpt = None,
) -> None:
    """Search numbers (a deck's, numeric rules options) toward targets and report the best
    variants, re-tested on fresh seeds, with the changes to make.

    cardroom tune baebae --param 10C.count=1..4 --target length=3 --target seats=0.03
    """
    with guard():
        check_workers(workers)
        bots_only(agents, "--agents", PEOPLE_PLAY)
        run_tune(game, params=param or [], targets=target or [], rules=rule or [], deck=deck, players=players,
                 agents=agents, trials=trials, games_=games_, retest_games=retest, top=top, seed=seed,
                 workers=workers, write=write, html=html, json_path=json_file, csv=csv,
                 console=make_console())
