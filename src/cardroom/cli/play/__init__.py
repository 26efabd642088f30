"""``cardroom play GAME``: a person at seat 0 against bots, in the terminal, drawn with Rich.

The package holds what every game's terminal shares and one renderer per game:

- :mod:`cardroom.cli.play.session`: seats and bots, the read-answer loop (``quit``, ``help``,
  ``show``, numbered moves), the screen's common words, records and clean stops;
- one module per game (:mod:`~cardroom.cli.play.baha`, :mod:`~cardroom.cli.play.baebae`): how
  that game's hand, table and events look, and how a person's words become an action.

A game's renderer is found through the registry: its spec's ``terminal`` names a ``run_play``
function, a :class:`cardroom.games.contracts.TerminalRenderer` (the one contract of its
arguments, result and errors). A game without one cannot be played here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from cardroom import games
from cardroom.agents.levels import LEVELS, rating, resolve_all
from cardroom.cli.base import guard
from cardroom.cli.consoles import make_console
from cardroom.cli.options import UsageError, bots_only, parse_rule_options, with_deck
from cardroom.cli.params import DEFAULT_GAME, DeckOpt, GameArg, RuleOpt
from cardroom.engine import Rules, RulesError
from cardroom.text import MAX_NAME, clean_name

__all__ = ["checked_name", "play", "run_play", "terminal_games", "with_think"]


def terminal_games() -> list[str]:
    """The registered games that have a terminal renderer."""
    return [spec.name for spec in games.specs() if spec.terminal is not None]


def run_play(
    rules: Rules,
    *,
    seed: int | None,
    bots: str,
    name: str | None,
    record_path: Path | None,
    console: Console,
    ask: Callable[[str], str] | None = None,
) -> int:
    """Play a game of ``rules`` with the game's own renderer, found through its spec: the
    contract of :class:`cardroom.games.contracts.TerminalRenderer` (arguments, exit status,
    errors); a game with no terminal renderer is a ``RulesError`` naming those that have one.

    >>> import io
    >>> first = games.specs()[0]
    >>> out = io.StringIO()
    >>> run_play(first.make_rules(), seed=3, bots="random", name="Ada", record_path=None,
    ...          console=Console(file=out), ask=lambda prompt: "quit")
    0
    >>> out.getvalue().splitlines()[-1]
    'You left the game.'
    """
    spec = rules.spec
    if spec.terminal is None:
        can = ", ".join(terminal_games())
        raise RulesError(f"{spec.title} cannot be played in the terminal; the games that can: {can}")
    play = spec.load("terminal")
    return play(rules, seed=seed, bots=bots, name=name, record_path=record_path, console=console, ask=ask)


def with_think(bots: str, think: float | None) -> str:
    """``--think S`` as the search budget of every ismcts bot (``ismcts:seconds=S``)."""
    if think is None:
        return bots
    specs = [spec.strip() for spec in bots.split(",")]
    searchers = [i for i, spec in enumerate(specs) if spec.partition(":")[0] == "ismcts"]
    if not searchers:
        raise UsageError(f"--think sets how long an ismcts bot thinks; the bots are {bots!r:.80}")
    for i in searchers:
        if "seconds=" in specs[i] or "iterations=" in specs[i]:
            raise UsageError(
                "give the bots' budget once: --think SECONDS or ismcts:seconds=... / iterations=..."
            )
        specs[i] += f":seconds={think:g}"
    return ",".join(specs)


def checked_name(name: str) -> str:
    """``--name`` as every front takes a player's name (trimmed, printable, bounded)."""
    try:
        return clean_name(name)
    except ValueError as err:
        raise UsageError(f"--name: {err}") from None


def _levels_help() -> str:
    """The levels with their agents and their ratings on the shipped ladders, for ``play --help``."""
    parts = []
    for name, level in LEVELS.items():
        rated = [f"{game.title} {r['mu']:.1f}" for game in games.specs()
                 if (r := rating(game.name, level.spec))]
        parts.append(f"{name} = {level.spec}" + (f" (rated {', '.join(rated)})" if rated else ""))
    return ("Levels, weakest first: " + "; ".join(parts) + ". Ratings: openskill mu on the ladder of bots "
            "(cardroom ladder, docs/strength.md).")


def play(
    game: GameArg = DEFAULT_GAME,
    players: Annotated[int | None, typer.Option(help="Number of players, you included.", metavar="N")] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the shuffles (random if not given).", metavar="N")
    ] = None,
    rule: RuleOpt = None,
    deck: DeckOpt = None,
    bots: Annotated[
        str,
        typer.Option(help="The computer opponents: a level (" + ", ".join(LEVELS) + "), or random, "
                          "heuristic, learned, "
                          "ismcts or policy:path=FILE (options after colons); one for every bot, or one per "
                          "seat from seat 1, comma-separated. " + _levels_help(),
                     metavar="BOTS"),
    ] = "random",
    think: Annotated[
        float | None, typer.Option(help="Seconds an ismcts bot thinks per move.", min=0.01, metavar="SECONDS")
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(help=f"Your name at the table (1 to {MAX_NAME} characters); the screen calls you "
                          "\"You\", and without a name a record calls your seat \"Seat 0\".",
                     metavar="NAME"),
    ] = None,
    record: Annotated[
        Path | None, typer.Option(help="Write the game's record to this file.", metavar="FILE")
    ] = None,
) -> None:
    """Play at seat 0 against computer opponents in the terminal."""
    with guard():
        bots_only(bots, "--bots", "you are the person, at seat 0, and the other seats take bots")
        bots = resolve_all(bots)
        rules = parse_rule_options(game, players, with_deck(game, rule, deck))
        person = None if name is None else checked_name(name)
        code = run_play(rules, seed=seed, bots=with_think(bots, think), name=person,
                        record_path=record, console=make_console())
    raise typer.Exit(code)
