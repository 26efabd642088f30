"""``cardroom drama``: decisive moments of games, valued by a search oracle."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from cardroom.cli.analyze import check_outputs, print_report, save_report
from cardroom.cli.base import guard
from cardroom.cli.consoles import make_console
from cardroom.cli.options import PEOPLE_PLAY, UsageError, bots_only, parse_rule_options, with_deck
from cardroom.cli.params import CsvOpt, DeckOpt, DesignerAgentsOpt, GameArg, HtmlOpt, JsonFileOpt, RuleOpt

if TYPE_CHECKING:  # the results and analysis extras (pyarrow, polars) load when a command runs, not at start
    from cardroom.analysis.report import Report

__all__ = ["drama", "run_drama"]


def run_drama(
    game: str,
    *,
    games: int,
    seed: int,
    rules: Sequence[str],
    decks: Sequence[str],
    players: int | None,
    agents: str | None,
    oracle: str,
    threshold: float,
    html: Path | None,
    json_path: Path | None,
    csv: Path | None,
    console: Console,
) -> Report:
    from cardroom.agents import make, parse_spec
    from cardroom.agents.ismcts import ISMCTSAgent
    from cardroom.analysis.drama import drama_report, play_drama
    from cardroom.sim.tournament import Lineup, default_agents

    check_outputs(html=html, json_path=json_path, csv=csv)
    if not threshold >= 0:
        raise UsageError(f"--threshold must be a number of 0 or more, not {threshold}")
    made = parse_rule_options(game, players, with_deck(game, list(rules), list(decks)))
    lineup = Lineup.parse(agents or default_agents(made.spec), made.players)
    name, options = parse_spec(oracle)
    if name != "ismcts":
        raise UsageError(
            f"--oracle is a search: ismcts with its options (e.g. ismcts:iterations=400), not {name}"
        )
    searcher = make(name, seed=seed, **options)
    assert isinstance(searcher, ISMCTSAgent)
    dramas = play_drama(made, games, seed, lineup, searcher)
    report = drama_report(made, lineup, oracle, dramas, threshold, [seed + i for i in range(games)])
    print_report(console, report)
    save_report(console, report, html=html, json_path=json_path, csv=csv)
    return report


def drama(
    game: GameArg,
    games_: Annotated[int, typer.Option("--games", help="Games to play and value.", min=1, max=100_000,
                                        metavar="N")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the first game.", metavar="N")] = 0,
    rule: RuleOpt = None,
    deck: DeckOpt = None,
    players: Annotated[int | None, typer.Option(help="Number of players.", metavar="N")] = None,
    agents: DesignerAgentsOpt = None,
    oracle: Annotated[str, typer.Option(help="The search that values each decision.",
                                        metavar="ismcts[:OPTIONS]")] = "ismcts:iterations=400",
    threshold: Annotated[float, typer.Option(help="A value difference that matters, in the game's returns "
                                             "(BAEBAE: tens of penalty points; Baha: moons).",
                                             metavar="X")] = 0.1,
    html: HtmlOpt = None,
    json_file: JsonFileOpt = None,
    csv: CsvOpt = None,
) -> None:
    """Decisive moments: at each real decision a search oracle values every action; per game,
    how many decisions mattered, were decisive or mistaken, and lead changes.

    cardroom drama baebae --games 20 --oracle ismcts:iterations=400
    """
    with guard():
        bots_only(agents, "--agents", PEOPLE_PLAY)
        run_drama(game, games=games_, seed=seed, rules=rule or [], decks=deck or [], players=players,
                  agents=agents, oracle=oracle, threshold=threshold, html=html, json_path=json_file, csv=csv,
                  console=make_console())
