"""The parameters several ``cardroom`` commands declare alike (the game, ``--rule``, ``--deck``,
the designer's report files), as Typer annotations: one help text each."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardroom import games

__all__ = ["DECK_GAMES", "DEFAULT_GAME", "CsvOpt", "DeckOpt", "DesignerAgentsOpt", "GameArg", "HtmlOpt",
           "JsonFileOpt", "RuleOpt"]

DEFAULT_GAME = games.names()[0]
"""The game ``play`` and ``simulate`` play when none is named: the first registered."""
GameArg = Annotated[str, typer.Argument(help=f"The game: {', '.join(games.names())}.", metavar="GAME")]
RuleOpt = Annotated[
    list[str] | None,
    typer.Option("--rule", "-r", help="A rules option KEY=VALUE (repeatable), e.g. target=50.",
                 metavar="KEY=VALUE"),
]


DECK_GAMES = [spec.name for spec in games.specs() if spec.decks]
"""The games whose rules take deck files."""
DeckOpt = Annotated[
    list[str] | None,
    typer.Option("--deck", "-d", help=f"The deck ({', '.join(s.title for s in games.specs() if s.decks)}): "
                 "a project deck's name or a deck file (repeatable).", metavar="DECK"),
]

HtmlOpt = Annotated[
    Path | None,
    typer.Option("--html", help="Write the report as one self-contained HTML page.", metavar="FILE"),
]
JsonFileOpt = Annotated[
    Path | None, typer.Option("--json", help="Write the figures as JSON.", metavar="FILE")
]
CsvOpt = Annotated[
    Path | None, typer.Option("--csv", help="Write each table of figures as CSV into this new folder.",
                              metavar="FOLDER")
]
DesignerAgentsOpt = Annotated[
    str | None,
    typer.Option(help="Agents by seat, comma-separated (default: heuristic in every seat).",
                 metavar="AGENTS"),
]
