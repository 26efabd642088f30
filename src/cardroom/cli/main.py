"""The ``cardroom`` command: play, simulate, replay."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from cardroom.agents import AgentError
from cardroom.engine import RulesError
from cardroom.games import GAMES, make_rules
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


class UsageError(Exception):
    """A bad argument: printed as one line, exit status 2."""


@contextmanager
def guard() -> Iterator[None]:
    """Bad input becomes one clear line on stderr and exit status 2, never a traceback."""
    try:
        yield
    except (UsageError, RulesError, AgentError, RecordError) as err:
        Console(stderr=True).print(f"[bold red]error:[/] {err}", highlight=False)
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


@app.command()
def play(
    game: GameArg = "baha",
    players: Annotated[int | None, typer.Option(help="Number of players, you included.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the shuffles (random if not given).")] = None,
    rule: RuleOpt = None,
    bots: Annotated[str, typer.Option(help="The computer opponents' agent, e.g. random.")] = "random",
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "You",
    record: Annotated[Path | None, typer.Option(help="Write the game's record to this file.")] = None,
) -> None:
    """Play at seat 0 against computer opponents in the terminal."""
    from cardroom.cli.play import run_play

    with guard():
        rules = parse_rule_options(game, players, rule)
        code = run_play(rules, seed=seed, bots=bots, name=name, record_path=record, console=Console())
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
    records: Annotated[Path | None, typer.Option(help="Write one record per game into this folder.")] = None,
    workers: Annotated[int, typer.Option(help="Processes to use (0: one per core).", min=0)] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="Print the summary as JSON on stdout.")] = False,
) -> None:
    """Play many games between agents and report results per seat and per agent."""
    from cardroom.cli.simulate import run_simulate

    with guard():
        rules = parse_rule_options(game, players, rule)
        run_simulate(
            rules, games=games, seed=seed, agents=agents, records=records, workers=workers,
            json_out=json_out,
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


def main() -> None:
    """Entry point of the ``cardroom`` console script."""
    app()


if __name__ == "__main__":
    main()
