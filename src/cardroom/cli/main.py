"""The ``cardroom`` command: play, simulate, report, replay, deck."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from cardroom.agents import AgentError
from cardroom.engine import RulesError
from cardroom.games import GAMES, make_rules
from cardroom.games.baebae.deck import DeckError
from cardroom.record import RecordError

__all__ = ["app", "main", "parse_rule_options"]

app = typer.Typer(
    name="cardroom",
    help="Play, simulate and replay the card games Baha and BAEBAE.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

GameArg = Annotated[str, typer.Argument(help=f"The game: {', '.join(GAMES)}.")]
RuleOpt = Annotated[
    list[str] | None,
    typer.Option("--rule", "-r", help="A rules option KEY=VALUE (repeatable), e.g. target=50."),
]


DeckOpt = Annotated[
    list[str] | None,
    typer.Option("--deck", "-d", help="BAEBAE deck: a project deck's name or a deck file (repeatable)."),
]


class UsageError(Exception):
    """A bad argument: printed as one line, exit status 2."""


@contextmanager
def guard() -> Iterator[None]:
    """Bad input becomes one clear line on stderr and exit status 2, never a traceback."""
    try:
        yield
    except (UsageError, RulesError, AgentError, RecordError, DeckError) as err:
        Console(stderr=True).print(f"[bold red]error:[/] {escape(str(err))}", highlight=False)
        raise typer.Exit(2) from None


def parse_rule_options(game: str, players: int | None, rules: list[str] | None) -> Any:
    """Rules of ``game`` from ``--players`` and ``--rule KEY=VALUE`` options."""
    options: dict[str, Any] = {}
    for item in rules or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise UsageError(f"--rule takes KEY=VALUE, e.g. --rule target=50; got {item!r}")
        options[key.strip()] = value.strip()
    if players is not None:
        if "players" in options:
            raise UsageError("give the number of players once: --players or --rule players=N")
        options["players"] = players
    return make_rules(game, options)


def with_deck(game: str, rules: list[str] | None, decks: list[str] | None) -> list[str] | None:
    """``--deck`` options as the rules option ``deck`` (several files joined by commas)."""
    if not decks:
        return rules
    if game != "baebae":
        raise UsageError(f"--deck is for BAEBAE; {game} has no deck files")
    if any(r.partition("=")[0].strip() == "deck" for r in rules or []):
        raise UsageError("give the deck once: --deck FILE or --rule deck=FILE")
    return [*(rules or []), "deck=" + ",".join(decks)]


def with_think(bots: str, think: float | None) -> str:
    """``--think S`` as the search budget of an ismcts bot (``ismcts:seconds=S``)."""
    if think is None:
        return bots
    if not bots.startswith("ismcts"):
        raise UsageError(f"--think sets how long an ismcts bot thinks; the bots are {bots!r}")
    if "seconds=" in bots or "iterations=" in bots:
        raise UsageError("give the bots' budget once: --think SECONDS or ismcts:seconds=... / iterations=...")
    return f"{bots}:seconds={think:g}"


@app.command()
def play(
    game: GameArg = "baha",
    players: Annotated[int | None, typer.Option(help="Number of players, you included.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the shuffles (random if not given).")] = None,
    rule: RuleOpt = None,
    deck: DeckOpt = None,
    bots: Annotated[
        str, typer.Option(help="The computer opponents: random, heuristic or ismcts (options after colons).")
    ] = "random",
    think: Annotated[
        float | None, typer.Option(help="Seconds an ismcts bot thinks per move.", min=0.01)
    ] = None,
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "You",
    record: Annotated[Path | None, typer.Option(help="Write the game's record to this file.")] = None,
) -> None:
    """Play at seat 0 against computer opponents in the terminal."""
    from cardroom.cli.play import run_play

    with guard():
        rules = parse_rule_options(game, players, with_deck(game, rule, deck))
        code = run_play(rules, seed=seed, bots=with_think(bots, think), name=name, record_path=record,
                        console=Console())
    raise typer.Exit(code)


@app.command()
def simulate(
    game: GameArg = "baha",
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    games: Annotated[int, typer.Option(help="How many games to play.", min=1)] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i.")] = 0,
    agents: Annotated[
        str | None,
        typer.Option(help="Agents by seat, comma-separated, e.g. random,random (one name fills every seat)."),
    ] = None,
    rule: RuleOpt = None,
    deck: DeckOpt = None,
    records: Annotated[Path | None, typer.Option(help="Write one record per game into this folder.")] = None,
    workers: Annotated[int, typer.Option(help="Processes to use (0: one per core).", min=0)] = 1,
    duplicate: Annotated[
        bool,
        typer.Option("--duplicate", help="Play each deal once per rotation of the agents over the seats."),
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print the summary as JSON on stdout.")] = False,
) -> None:
    """Play many games between agents and report results per seat and per agent.

    Agents are given by seat, comma-separated, each with options after colons:
    --agents ismcts:iterations=500,heuristic,heuristic,heuristic
    """
    from cardroom.cli.simulate import run_simulate

    with guard():
        rules = parse_rule_options(game, players, with_deck(game, rule, deck))
        run_simulate(
            rules, games=games, seed=seed, agents=agents, records=records, workers=workers,
            json_out=json_out, duplicate=duplicate,
        )


@app.command()
def replay(
    files: Annotated[list[Path], typer.Argument(help="Record files.")],
    verify: Annotated[bool, typer.Option("--verify", help="Check each record replays exactly.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print verdicts as JSON.")] = False,
) -> None:
    """Replay game records; with --verify, say for each whether it reproduces its log."""
    from cardroom.cli.replay import run_replay

    with guard():
        code = run_replay(files, verify=verify, json_out=json_out, console=Console())
    raise typer.Exit(code)


@app.command()
def report(
    paths: Annotated[list[Path], typer.Argument(help="Record files or folders of records.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print the summary as JSON on stdout.")] = False,
) -> None:
    """Summarize saved records (e.g. a long simulation run in parts), duplicate deals included."""
    import json
    import sys

    from cardroom.cli.simulate import print_summary
    from cardroom.sim.records import report_records

    with guard():
        summary = report_records(paths)
    if json_out:
        sys.stdout.write(json.dumps(summary, indent=2, allow_nan=False) + "\n")
    else:
        print_summary(Console(), summary)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 8000,
    db: Annotated[
        str | None, typer.Option(help="Database: any SQLAlchemy URL (default: cardroom.db in --data).")
    ] = None,
    data: Annotated[Path, typer.Option(help="Data folder: the database and uploaded decks.")] = Path(
        "cardroom-data"
    ),
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits before each move, so people can follow.", min=0, max=60)
    ] = 0.6,
    bot_workers: Annotated[
        int, typer.Option(help="Processes the search bots (ismcts) think in, for all tables.", min=1, max=64)
    ] = 1,
) -> None:
    """Start the web table: a lobby, tables of Baha and BAEBAE for people and bots, replays."""
    from cardroom.cli.serve import run_serve

    with guard():
        code = run_serve(host=host, port=port, db=db, data=data, bot_delay=bot_delay, bot_workers=bot_workers,
                         console=Console())
    raise typer.Exit(code)


deck_app = typer.Typer(help="Check and preview BAEBAE deck files.", no_args_is_help=True)
app.add_typer(deck_app, name="deck")


@deck_app.command("validate")
def deck_validate(
    files: Annotated[list[str], typer.Argument(help="Deck files (or project deck names).")],
    json_out: Annotated[bool, typer.Option("--json", help="Print the verdicts as JSON.")] = False,
) -> None:
    """Check deck files: each one is valid, or every problem is named with its card and field."""
    from cardroom.cli.decks import run_validate

    raise typer.Exit(run_validate(files, json_out=json_out, console=Console()))


@deck_app.command("show")
def deck_show(
    file: Annotated[str, typer.Argument(help="A deck file or a project deck's name.")] = "sample",
    json_out: Annotated[bool, typer.Option("--json", help="Print the cards as JSON.")] = False,
) -> None:
    """Show a deck's cards as a table: rank, suit, name, types, marks, action and flags."""
    from cardroom.cli.decks import run_show

    with guard():
        run_show(file, json_out=json_out, console=Console())


def main() -> None:
    """Entry point of the ``cardroom`` console script."""
    app()


if __name__ == "__main__":
    main()
