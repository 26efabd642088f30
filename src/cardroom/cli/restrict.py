"""``cardroom restrict``: each card's worth to its player (and each optional action's), from
restricted play, ranked."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from cardroom.cli.analyze import check_outputs, print_report, save_report
from cardroom.cli.base import guard
from cardroom.cli.consoles import make_console
from cardroom.cli.options import UsageError, parse_rule_options, with_deck
from cardroom.cli.params import CsvOpt, DeckOpt, GameArg, HtmlOpt, JsonFileOpt, RuleOpt

if TYPE_CHECKING:  # the results and analysis extras (pyarrow, polars) load when a command runs, not at start
    from cardroom.analysis.report import Report

__all__ = ["restrict", "run_restrict"]


def run_restrict(
    game: str,
    *,
    games: int,
    seed: int,
    rule: Sequence[str] | None,
    decks: Sequence[str] | None,
    players: int | None,
    cards: Sequence[str] | None,
    actions: bool,
    html: Path | None,
    json_path: Path | None,
    csv: Path | None,
    console: Console,
) -> Report:
    """``cardroom restrict``: each card's worth from restricted play, ranked."""
    check_outputs(html=html, json_path=json_path, csv=csv)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from cardroom.analysis.restrict import restricted_report

    items = with_deck(game, list(rule) if rule else None, list(decks) if decks else None)
    rules: Any = parse_rule_options(game, players, items)
    if not getattr(rules, "cards", None):
        from cardroom import games as registry

        takers = [spec.title for spec in registry.specs() if spec.decks]
        raise UsageError(f"restricted play needs a game of card designs ({', '.join(takers)}); "
                         f"{rules.spec.title} has none")
    chosen = {k.upper() for k in cards} if cards else {c.key.upper() for c in rules.cards}
    optional = sum(c.optional for c in rules.cards if c.key.upper() in chosen) if actions else 0
    count = 1 + len(chosen) + optional
    err = make_console(stderr=True)
    if err.is_terminal:
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=err, transient=True) as bar:
            task = bar.add_task("restricted play", total=count)
            report = restricted_report(rules, games=games, seed=seed, cards=cards, actions=actions,
                                       progress=partial(bar.advance, task))
    else:
        report = restricted_report(rules, games=games, seed=seed, cards=cards, actions=actions)
    print_report(console, report)
    save_report(console, report, html=html, json_path=json_path, csv=csv)
    return report


def restrict(
    game: GameArg,
    games_: Annotated[int, typer.Option("--games", help="Paired games a card.", min=2, metavar="N")] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i.", metavar="N")] = 0,
    rule: RuleOpt = None,
    deck: DeckOpt = None,
    players: Annotated[int | None, typer.Option(help="Number of players.", metavar="N")] = None,
    card: Annotated[
        list[str] | None,
        typer.Option("--card", help="Only this card (its key, e.g. 10C; repeatable); default every card.",
                     metavar="KEY"),
    ] = None,
    actions: Annotated[
        bool, typer.Option("--actions/--no-actions", help="Also restrict each optional action.")
    ] = True,
    html: HtmlOpt = None,
    json_file: JsonFileOpt = None,
    csv: CsvOpt = None,
) -> None:
    """Restricted play: each card's worth to its player (and each optional action's), from
    paired games of the heuristic forbidden it against the heuristic free, ranked.

    cardroom restrict baebae --deck mydeck.toml --games 500 --html worth.html
    """
    with guard():
        run_restrict(game, games=games_, seed=seed, rule=rule, decks=deck, players=players, cards=card,
                     actions=actions, html=html, json_path=json_file, csv=csv, console=make_console())
