"""The ``cardroom`` command assembled: its commands, each declared with its body in its own module
(:mod:`~cardroom.cli.simulate`, :mod:`~cardroom.cli.analyze`...), in the order help lists them."""

from __future__ import annotations

from typing import Annotated

import typer

from cardroom import games
from cardroom.cli import (
    analyze,
    compare,
    decks,
    drama,
    ladder,
    play,
    replay,
    restrict,
    serve,
    simulate,
    skill,
    train,
    tune,
)
from cardroom.cli.base import Command, Group, titles
from cardroom.cli.consoles import make_console

__all__ = ["app", "main"]

ABOUT = f"Play, simulate and replay the card games {titles()}."

app = typer.Typer(
    name="cardroom",
    help=ABOUT,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=Group,
)


def _print_version(wanted: bool) -> None:
    if wanted:
        from importlib.metadata import version

        from cardroom.native import describe

        make_console().print(f"cardroom {version('cardroom')} ({describe()})", highlight=False)
        raise typer.Exit()


@app.callback(help=ABOUT)
def cardroom(
    version: Annotated[
        bool, typer.Option("--version", callback=_print_version,
                           help="Print Cardroom's version, whether its native engine is built and which "
                                "engine games run on, and exit.",
                           is_eager=True)
    ] = False,
) -> None:
    """The ``cardroom`` command (its help names the registry's games: ``ABOUT``)."""


for command in (play.play, simulate.simulate, train.train, replay.replay, simulate.report, ladder.ladder,
                analyze.analyze, compare.compare, skill.skill, compare.sweep, drama.drama, tune.tune):
    app.command(cls=Command)(command)
app.command(cls=Command, help=serve.HELP)(serve.serve)

deck_app = typer.Typer(help=f"Check and preview {' and '.join(s.title for s in games.specs() if s.decks)} "
                            "deck files.", no_args_is_help=True, cls=Group)
app.add_typer(deck_app, name="deck")
deck_app.command("validate", cls=Command)(decks.deck_validate)
deck_app.command("show", cls=Command)(decks.deck_show)
deck_app.command("new", cls=Command)(decks.deck_new)

app.command(cls=Command)(restrict.restrict)


def main() -> None:
    """Entry point of the ``cardroom`` console script."""
    app()


if __name__ == "__main__":
    main()
