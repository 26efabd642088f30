"""The ``cardroom`` command: play, simulate, report, replay, deck."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

# Typer carries its own Click (pinned < 0.30); its help and usage are shaped through it.
from typer._click.core import Context, Parameter
from typer._click.exceptions import NoSuchOption
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from cardroom import games
from cardroom.agents import AgentError
from cardroom.agents.levels import LEVELS, rating, resolve_all
from cardroom.cli.consoles import make_console
from cardroom.cli.options import UsageError, parse_rule_options, with_deck
from cardroom.engine import RulesError
from cardroom.extras import missing_extra, needs_extra
from cardroom.record import RecordError
from cardroom.text import MAX_NAME, clean_name, shorten

__all__ = ["app", "main", "parse_rule_options"]


class _NamedArgument(TyperArgument):
    """An argument shown in help by its metavar alone (``FILE``), not its Python type."""

    def display_type_rich(self, ctx: Context) -> str | None:
        return None


def _readable(params: list[Parameter]) -> list[Parameter]:
    """Parameters as help shows them to people: a flag takes no value (no ``<bool>``), an
    argument is its metavar (``FILE``), not its Python type."""
    for param in params:
        if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""
        elif isinstance(param, TyperArgument) and param.metavar is not None:
            param.__class__ = _NamedArgument
    return params


class Group(TyperGroup):
    """The ``cardroom`` command and its ``deck`` group, with readable help; a command that needs
    a package the install lacks names the extra to install instead of a traceback."""

    def get_params(self, ctx: Context) -> list[Parameter]:
        return _readable(super().get_params(ctx))

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except ModuleNotFoundError as err:
            if missing_extra(err) is None:
                raise
            command = f"{ctx.command_path} {ctx.invoked_subcommand or ''}".strip()
            words = str(needs_extra(err, command))
            make_console(stderr=True).print(f"[bold red]error:[/] {escape(words)}", highlight=False)
            raise typer.Exit(2) from None


class Command(TyperCommand):
    """Every ``cardroom`` command: help written for people (``cardroom replay [OPTIONS] FILE...``,
    ``--seed N``, a flag with no type), and an unknown option named with the command's options."""

    def get_params(self, ctx: Context) -> list[Parameter]:
        return _readable(super().get_params(ctx))

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                name = param.metavar or (param.name or "").upper()
                pieces.append((name if param.required else f"[{name}]") + ("..." if param.nargs != 1 else ""))
        return pieces

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except NoSuchOption as err:
            options = [o for p in self.get_params(ctx) if isinstance(p, TyperOption) for o in p.opts
                       if o.startswith("--")]
            guess = f" Did you mean {' or '.join(sorted(err.possibilities))}?" if err.possibilities else ""
            ctx.fail(f"{err.option_name} is not an option of cardroom {ctx.info_name}.{guess} "
                     f"Its options: {', '.join(options)}.")


def _titles() -> str:
    """The registered games' titles in running text: "Baha and BAEBAE"."""
    titles = [games.get(name).title for name in games.names()]
    return titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]


ABOUT = f"Play, simulate and replay the card games {_titles()}."

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


DEFAULT_GAME = games.names()[0]
"""The game ``play`` and ``simulate`` play when none is named: the first registered."""
GameArg = Annotated[str, typer.Argument(help=f"The game: {', '.join(games.names())}.", metavar="GAME")]
RuleOpt = Annotated[
    list[str] | None,
    typer.Option("--rule", "-r", help="A rules option KEY=VALUE (repeatable), e.g. target=50.",
                 metavar="KEY=VALUE"),
]


DECK_GAMES = [name for name in games.names() if games.get(name).decks]
"""The games whose rules take deck files."""
DeckOpt = Annotated[
    list[str] | None,
    typer.Option("--deck", "-d", help=f"The deck ({', '.join(games.get(g).title for g in DECK_GAMES)}): "
                 "a project deck's name or a deck file (repeatable).", metavar="DECK"),
]


GAME_ERRORS = tuple(spec.decks.error for spec in map(games.get, games.names()) if spec.decks is not None)
"""What the games raise for bad input besides ``RulesError`` (a deck file's mistakes)."""


BAD_INPUT: tuple[type[Exception], ...] = (UsageError, RulesError, AgentError, RecordError, *GAME_ERRORS)
"""What :func:`guard` tells as one line: a person's mistake, not a program's."""


@contextmanager
def guard() -> Iterator[None]:
    """Bad input becomes one clear line on stderr and exit status 2, never a traceback."""
    try:
        yield
    except (*BAD_INPUT, *games.deck_errors()) as err:  # a game registered since import too
        make_console(stderr=True).print(f"[bold red]error:[/] {escape(str(err))}", highlight=False)
        raise typer.Exit(2) from None
    except OSError as err:  # a path the system refuses (too long, not allowed) wherever it was met
        where = f" {shorten(str(err.filename))!r}" if err.filename else ""
        make_console(stderr=True).print(f"[bold red]error:[/] cannot use{escape(where)}: "
                                        f"{escape(err.strerror or str(err))}", highlight=False)
        raise typer.Exit(2) from None


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


def bots_only(specs: str | None, option: str, person: str) -> None:
    """Refuse ``human`` in a line-up of bots (``--bots``, ``--agents``), in a person's words:
    a person is not made from a spec on a command line. ``person`` says where people play."""
    from cardroom.agents import AGENTS

    if specs is None:
        return
    if any(spec.strip().partition(":")[0].strip() == "human" for spec in specs.split(",")):
        bots = ", ".join(name for name, kind in AGENTS.items() if kind.seeded)
        raise UsageError(f"{option}: human is not a bot: {person}; the bots are {bots} "
                         f"(options after colons, e.g. ismcts:seconds=1)")


def seat_number(seat: str | None) -> int | None:
    """``--seat``: a seat's number, or ``None`` for ``all`` (every card shown)."""
    if seat is None or seat.strip().lower() == "all":
        return None
    if not seat.strip().isdecimal():
        raise UsageError(f"--seat takes a seat's number (from 0) or all, not {shorten(seat, 20)!r}")
    return int(seat)


def checked_name(name: str) -> str:
    """``--name`` as every front takes a player's name (trimmed, printable, bounded)."""
    try:
        return clean_name(name)
    except ValueError as err:
        raise UsageError(f"--name: {err}") from None


def check_workers(workers: int) -> None:
    """Refuse a ``--workers`` count no machine has (it would start that many processes)."""
    import os

    from cardroom.sim.tournament import MAX_WORKERS

    if not 0 <= workers <= MAX_WORKERS:
        raise UsageError(
            f"--workers {workers}: give 0 (one per core; this machine has {os.cpu_count() or 1}) or a count "
            f"up to {MAX_WORKERS}; Cardroom never starts more processes than cores or games"
        )


def _levels_help() -> str:
    """The levels with their agents and their ratings on the shipped ladders, for ``play --help``."""
    parts = []
    for name, level in LEVELS.items():
        rated = [f"{games.get(g).title} {r['mu']:.1f}" for g in games.names() if (r := rating(g, level.spec))]
        parts.append(f"{name} = {level.spec}" + (f" (rated {', '.join(rated)})" if rated else ""))
    return ("Levels, weakest first: " + "; ".join(parts) + ". Ratings: openskill mu on the ladder of bots "
            "(cardroom ladder, docs/strength.md).")


@app.command(cls=Command)
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
    from cardroom.cli.play import run_play

    with guard():
        bots_only(bots, "--bots", "you are the person, at seat 0, and the other seats take bots")
        bots = resolve_all(bots)
        rules = parse_rule_options(game, players, with_deck(game, rule, deck))
        person = None if name is None else checked_name(name)
        code = run_play(rules, seed=seed, bots=with_think(bots, think), name=person,
                        record_path=record, console=make_console())
    raise typer.Exit(code)


@app.command(cls=Command)
def simulate(
    game: GameArg = DEFAULT_GAME,
    players: Annotated[int | None, typer.Option(help="Number of players.", metavar="N")] = None,
    games: Annotated[int, typer.Option(help="How many games to play.", min=1, metavar="N")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i.", metavar="N")] = 0,
    agents: Annotated[
        str | None,
        typer.Option(help="Agents by seat, comma-separated, e.g. random,random (one name fills every seat; "
                          "default: heuristic in every seat, as compare).", metavar="AGENTS"),
    ] = None,
    rule: RuleOpt = None,
    deck: DeckOpt = None,
    records: Annotated[
        Path | None, typer.Option(help="Write one record per game into this folder.", metavar="FOLDER")
    ] = None,
    workers: Annotated[
        int, typer.Option(help="Processes to use (0: one per core); never more than the cores or the games.",
                          metavar="N")
    ] = 0,
    duplicate: Annotated[
        bool,
        typer.Option("--duplicate", help="Play each deal once per rotation of the agents over the seats."),
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print the summary as JSON on stdout.")] = False,
    out: Annotated[
        Path | None,
        typer.Option(help="Write the results as tables (Parquet) into this folder (docs/results.md).",
                     metavar="FOLDER"),
    ] = None,
    csv: Annotated[bool, typer.Option("--csv", help="With --out: CSV tables instead of Parquet.")] = False,
    variant: Annotated[
        str, typer.Option(help="With --out: a label for this run's rules or deck, kept in every game's row.",
                          metavar="LABEL")
    ] = "",
    force: Annotated[
        bool, typer.Option("--force", help="With --out: replace the results a folder already holds.")
    ] = False,
    ray: Annotated[
        bool,
        typer.Option("--ray", help="With --out: play on a Ray cluster (a local one unless --ray-address)."),
    ] = False,
    ray_address: Annotated[
        str | None, typer.Option(help="The Ray cluster to join (implies --ray), e.g. 10.0.0.5:6379; a "
                                 "cluster with Ray's token authentication also needs RAY_AUTH_MODE=token "
                                 "and its token (docs/results.md).",
                                 metavar="HOST:PORT")
    ] = None,
) -> None:
    """Play many games between agents and report results per seat and per agent.

    Agents are given by seat, comma-separated, each with options after colons:
    --agents ismcts:iterations=500,heuristic,heuristic,heuristic
    """
    from cardroom.cli.simulate import TableOptions, run_simulate

    with guard():
        check_workers(workers)
        bots_only(agents, "--agents", "people play with cardroom play or at the web table (cardroom serve)")
        ray = ray or ray_address is not None
        if out is None and (csv or variant or force or ray):
            raise UsageError("--csv, --variant, --force, --ray and --ray-address go with --out FOLDER "
                             "(the results written as tables)")
        rules = parse_rule_options(game, players, with_deck(game, rule, deck))
        tables = None
        if out is not None:
            tables = TableOptions(out, csv=csv, variant=variant, force=force, ray=ray,
                                  ray_address=ray_address)
        run_simulate(
            rules, games=games, seed=seed, agents=agents, records=records, workers=workers,
            json_out=json_out, duplicate=duplicate, tables=tables,
        )


@app.command(cls=Command)
def train(
    game: GameArg = DEFAULT_GAME,
    games_count: Annotated[
        int, typer.Option("--games", help="Games to play with the search for targets (0: train on --data "
                                          "only).", min=0, max=1_000_000, metavar="N")
    ] = 200,
    iterations: Annotated[
        int, typer.Option(help="ISMCTS iterations a decision for the targets.", min=1, max=100_000,
                          metavar="N")
    ] = 1000,
    epochs: Annotated[
        int, typer.Option(help="Passes over the decisions.", min=1, max=10_000, metavar="N")
    ] = 30,
    hidden: Annotated[
        str, typer.Option(help="Widths of the hidden layers, comma-separated.", metavar="W,W")
    ] = "256,256",
    seed: Annotated[int, typer.Option(help="Seed of the first game (game i uses seed+i).", min=0,
                                      metavar="N")] = 10_000_000,
    train_seed: Annotated[int, typer.Option(help="Seed of the network's start and of the order of the "
                                                 "decisions.", min=0, metavar="N")] = 0,
    sharpen: Annotated[
        float, typer.Option(help="Power the visit shares are raised to before they are normalized again "
                                 "(1: the visits as they are; above 1: leaning to the most visited move).",
                            min=0.1, max=20, metavar="P")
    ] = 3.0,
    q_mix: Annotated[
        float, typer.Option(help="Weight of the root's action values in the policy target: a softmax "
                                 "of their mean returns over the moves the search tried (0: visits "
                                 "only).", min=0, max=1, metavar="M")
    ] = 0.0,
    q_temperature: Annotated[
        float, typer.Option(help="Temperature of that softmax, in the game's returns.", min=1e-4, max=100,
                            metavar="T")
    ] = 0.05,
    weight_decay: Annotated[
        float, typer.Option(help="AdamW's weight decay.", min=0, max=1, metavar="W")
    ] = 0.01,
    first_game: Annotated[int, typer.Option(help="Index of the first game of this run (a later run "
                                                 "adds games after an earlier one's).", min=0,
                                            metavar="N")] = 0,
    play: Annotated[str | None, typer.Option(
        help="Agents that choose the moves of the target games instead of the search, by seat as "
             "--agents (turned one seat a game); the search still labels every decision (e.g. "
             "learned:path=FILE,heuristic,heuristic,heuristic).", metavar="AGENTS")] = None,
    prior: Annotated[Path | None, typer.Option(
        help="Weights file whose policy the labelling search takes as its root prior (PUCT, as "
             "ismcts:policy=): expert iteration.", metavar="FILE")] = None,
    search: Annotated[str | None, typer.Option(
        help="Options of the labelling search, as ismcts takes them (exploration, reward, "
             "win_temperature), e.g. reward=win:exploration=2; with reward=win the value target "
             "is the share of the win too.", metavar="OPTIONS")] = None,
    rule: RuleOpt = None,
    data: Annotated[Path, typer.Option(help="Folder of the decisions kept (added to by each run).",
                                       metavar="FOLDER")] = Path("train-data"),
    out: Annotated[Path | None, typer.Option(help="The weights file to write (default GAME.safetensors).",
                                             metavar="FILE")] = None,
    minutes: Annotated[
        float | None, typer.Option(help="Bound on the whole run (wall clock): games then epochs stop early.",
                                   min=0.01, metavar="MINUTES")
    ] = None,
    plot: Annotated[Path | None, typer.Option(help="Draw the learning curve into this PNG (matplotlib).",
                                              metavar="FILE")] = None,
) -> None:
    """Distil the native ISMCTS into a small network for the learned agent (the train extra).

    Baha is trained one hand a game (target=1) unless --rule says otherwise. Play the result
    with --agents learned:path=FILE (docs/strength.md).
    """
    from cardroom.cli.train import run_train

    with guard():
        try:
            widths = tuple(int(w) for w in hidden.split(","))
        except ValueError:
            raise UsageError(f"--hidden {shorten(hidden, 40)!r}: give whole numbers separated by commas, "
                             "e.g. 256,256") from None
        if not 1 <= len(widths) <= 8 or not all(1 <= w <= 4096 for w in widths):
            raise UsageError("--hidden: 1 to 8 layers, each 1 to 4096 wide")
        given = dict(games.get(game).trained_options) if game in games.names() else {}
        rules = parse_rule_options(game, None, [*(f"{k}={v}" for k, v in given.items()), *(rule or [])])
        code = run_train(rules, games_count=games_count, iterations=iterations, epochs=epochs, hidden=widths,
                         seed=seed, data=data, out=out or Path(f"{game}.safetensors"), minutes=minutes,
                         plot=plot, console=make_console(), first_game=first_game, sharpen=sharpen,
                         weight_decay=weight_decay, train_seed=train_seed, play=play, prior=prior,
                         q_mix=q_mix, q_temperature=q_temperature, search=search)
    raise typer.Exit(code)


@app.command(cls=Command)
def replay(
    files: Annotated[list[Path], typer.Argument(help="Record files.", metavar="FILE")],
    verify: Annotated[bool, typer.Option("--verify", help="Check each record replays exactly.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print verdicts as JSON.")] = False,
    narrate: Annotated[
        bool,
        typer.Option("--narrate", help="Tell each game event by event: every card shown, or --seat's view."),
    ] = False,
    seat: Annotated[
        str | None,
        typer.Option(help="With --narrate: the game as this seat saw it (all: every card).", metavar="N|all"),
    ] = None,
    deck: Annotated[
        list[str] | None,
        typer.Option("--deck", help="A deck file an old record names by path (once for each, in order); "
                                    "a record's own paths are never read.", metavar="FILE"),
    ] = None,
) -> None:
    """Replay game records; with --verify, say for each whether it reproduces its log; with
    --narrate, tell the game event by event."""
    from cardroom.cli.replay import run_replay

    with guard():
        if seat is not None and not narrate:
            raise UsageError("--seat chooses whose view --narrate tells: give --narrate too")
        if narrate and (verify or json_out):
            raise UsageError(
                "--narrate tells a game; --verify and --json check records: give one or the other"
            )
        code = run_replay(files, verify=verify, json_out=json_out, console=make_console(), narrate=narrate,
                          seat=seat_number(seat), decks=deck or [])
    raise typer.Exit(code)


@app.command(cls=Command)
def report(
    paths: Annotated[list[Path], typer.Argument(help="Record files or folders of records.", metavar="PATH")],
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
        print_summary(make_console(), summary)


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


@app.command(cls=Command)
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
    from cardroom.cli.ladder import ladder_agents, run_ladder_command

    with guard():
        check_workers(workers)
        bots_only(agents, "--agents", "people play with cardroom play or at the web table (cardroom serve)")
        if json_out and markdown:
            raise UsageError("give --json or --markdown, not both")
        rules = parse_rule_options(game, players, with_deck(game, rule, deck))
        chosen = ladder_agents(agents, rules.to_dict()["players"])
        try:
            run_ladder_command(rules, chosen, deals=deals, seed=seed, workers=workers, bootstrap=bootstrap,
                               json_out=json_out, markdown=markdown, save=save, doc=doc,
                               command=_ladder_command(game, chosen, deals, seed, players, rule, deck,
                                                       bootstrap),
                               console=make_console())
        except ValueError as err:
            raise UsageError(str(err)) from None


# -- the designer's commands: analyze, compare, sweep ------------------------------------

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


@app.command(cls=Command)
def analyze(
    folder: Annotated[Path, typer.Argument(help="A results folder (simulate --out).", metavar="FOLDER")],
    html: HtmlOpt = None,
    json_file: JsonFileOpt = None,
    csv: CsvOpt = None,
    deck: Annotated[
        list[str] | None,
        typer.Option("--deck", "-d", help="The deck file the run played, when it was not a project deck "
                     "(results name deck files by digest only).", metavar="DECK"),
    ] = None,
) -> None:
    """Figures of a results folder: seat advantage, distributions, balance, lead changes and the
    game's own (per-card impact...), on the terminal and as HTML, JSON or CSV."""
    from cardroom.cli.analyze import run_analyze

    with guard():
        run_analyze(folder, html=html, json_path=json_file, csv=csv, decks=deck, console=make_console())


@app.command(cls=Command)
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
    from cardroom.cli.analyze import run_compare

    with guard():
        check_workers(workers)
        bots_only(agents, "--agents", "people play with cardroom play or at the web table (cardroom serve)")
        if rule and rules_alias:
            raise UsageError("give the variants' rules with --rule (--rules is its old name), not both")
        run_compare(targets, games=games_, seed=seed, rules=rule or rules_alias, decks=deck, players=players,
                    agents=agents,
                    workers=workers, out=out, html=html, json_path=json_file, csv=csv, console=make_console())


@app.command(cls=Command)
def skill(
    game: GameArg,
    deals: Annotated[int, typer.Option(help="Duplicate deals each step plays.", min=1, metavar="N")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the first deal; deal i uses seed+i.", metavar="N")] = 0,
    iterations: Annotated[
        int, typer.Option(help="ISMCTS's iterations a move on its first rung.", min=1, max=100_000,
                          metavar="N")
    ] = 25,
    doublings: Annotated[
        int, typer.Option(help="ISMCTS rungs above the first, each with twice the iterations.", min=0, max=10,
                          metavar="N")
    ] = 3,
    rule: Annotated[
        list[str] | None,
        typer.Option("--rule", "-r", help="The rules: KEY=VALUE, several joined by commas; twice or more "
                     "to compare variants.", metavar="RULES"),
    ] = None,
    deck: Annotated[
        list[str] | None,
        typer.Option("--deck", "-d", help="The deck: a project deck's name or a deck file; twice or more "
                     "to compare variants.", metavar="DECK"),
    ] = None,
    players: Annotated[int | None, typer.Option(help="Number of players.", metavar="N")] = None,
    workers: Annotated[int, typer.Option(help="Processes to use (0: one per core).", metavar="N")] = 0,
    html: HtmlOpt = None,
    json_file: JsonFileOpt = None,
) -> None:
    """How much skill matters: random, heuristic, ISMCTS at doubling iterations (and the learned
    agent where it is registered) each against the one below on duplicate deals, with the
    fitted trend; give --rule or --deck twice or more to compare variants.

    cardroom skill baebae --deck sample --deck mydeck.toml --deals 20
    """
    from cardroom.cli.skill import run_skill_command, skill_variants
    from cardroom.sim.skill import skill_rungs

    with guard():
        check_workers(workers)
        variants = skill_variants(game, rule, deck, players)
        run_skill_command(variants, skill_rungs(iterations, doublings), deals=deals, seed=seed,
                          workers=workers,
                          json_path=json_file, html=html, console=make_console())


@app.command(cls=Command)
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
    from cardroom.cli.analyze import run_sweep

    with guard():
        check_workers(workers)
        bots_only(agents, "--agents", "people play with cardroom play or at the web table (cardroom serve)")
        run_sweep(game, rule, games=games_, seed=seed, decks=deck, players=players, agents=agents,
                  workers=workers, out=out, html=html, json_path=json_file, csv=csv, console=make_console())


@app.command(cls=Command)
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
    from cardroom.cli.drama import run_drama

    with guard():
        bots_only(agents, "--agents", "people play with cardroom play or at the web table (cardroom serve)")
        run_drama(game, games=games_, seed=seed, rules=rule or [], decks=deck or [], players=players,
                  agents=agents, oracle=oracle, threshold=threshold, html=html, json_path=json_file, csv=csv,
                  console=make_console())


@app.command(cls=Command)
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
    from cardroom.cli.tune import run_tune

    with guard():
        check_workers(workers)
        bots_only(agents, "--agents", "people play with cardroom play or at the web table (cardroom serve)")
        run_tune(game, params=param or [], targets=target or [], rules=rule or [], deck=deck, players=players,
                 agents=agents, trials=trials, games_=games_, retest_games=retest, top=top, seed=seed,
                 workers=workers, write=write, html=html, json_path=json_file, csv=csv,
                 console=make_console())


@app.command(cls=Command, help=f"Start the web table: a lobby, tables of {_titles()} for people and bots, "
                                "replays.")
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.", metavar="ADDRESS")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535, metavar="PORT")] = 8000,
    db: Annotated[
        str | None,
        typer.Option("--database", "--db",
                     help="Database: a SQLAlchemy URL, sqlite:///FILE or postgresql+psycopg://USER@HOST/NAME "
                          "(default: cardroom.db in --data).", metavar="URL"),
    ] = None,
    data: Annotated[
        Path, typer.Option(help="Data folder: the database and uploaded decks.", metavar="FOLDER")
    ] = Path(
        "cardroom-data"
    ),
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits before each move, so people can follow.", min=0, max=60,
                            metavar="SECONDS")
    ] = 0.6,
    bot_workers: Annotated[
        int, typer.Option(help="Processes the search bots (ismcts) think in, for all tables.", min=1, max=64)
    ] = 1,
    quick_wait: Annotated[
        float, typer.Option(help="Seconds a table made by Play now waits for people before bots take its "
                                 "free seats.", min=0, max=120, metavar="SECONDS")
    ] = 5.0,
    away_after: Annotated[
        float, typer.Option(help="Seconds a player of a running game may be disconnected before a bot plays "
                                 "their seat (until they come back).", min=1, max=3600, metavar="SECONDS")
    ] = 30.0,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(help="Proxies whose X-Forwarded-For is believed (addresses or networks, by commas; "
                          "default: none).", metavar="ADDRESSES"),
    ] = None,
    log_json: Annotated[
        bool, typer.Option("--log-json", help="Write the log as JSON lines (time, level, logger, message).")
    ] = False,
    redis: Annotated[
        str | None,
        typer.Option(help="Redis of a cluster of servers on one PostgreSQL --database (redis://HOST:PORT/0): "
                          "each table is owned by one of them.", metavar="URL"),
    ] = None,
    advertise: Annotated[
        str | None,
        typer.Option(help="With --redis: where the other servers reach this one (default: http://HOST:PORT "
                          "it listens on).", metavar="URL"),
    ] = None,
) -> None:
    """Start the web table: a lobby, tables of the games for people and bots, replays."""
    from cardroom.cli.serve import run_serve

    with guard():
        code = run_serve(host=host, port=port, db=db, data=data, bot_delay=bot_delay, bot_workers=bot_workers,
                         console=make_console(), forwarded_allow_ips=forwarded_allow_ips,
                         log_json=log_json, redis=redis, advertise=advertise,
                         quick_wait=quick_wait, away_after=away_after)
    raise typer.Exit(code)


_DECK_TITLES = " and ".join(games.get(name).title for name in DECK_GAMES)
DeckGameOpt = Annotated[
    str | None,
    typer.Option("--game", "-g", metavar="GAME",
                 help="The game whose decks these are (needed when several games take decks)."),
]
deck_app = typer.Typer(help=f"Check and preview {_DECK_TITLES} deck files.", no_args_is_help=True, cls=Group)
app.add_typer(deck_app, name="deck")


@deck_app.command("validate", cls=Command)
def deck_validate(
    files: Annotated[list[str], typer.Argument(help="Deck files (or project deck names).", metavar="DECK")],
    json_out: Annotated[bool, typer.Option("--json", help="Print the verdicts as JSON.")] = False,
    game: DeckGameOpt = None,
) -> None:
    """Check deck files: each one is valid, or every problem is named with its card and field."""
    from cardroom.cli.decks import run_validate

    with guard():
        code = run_validate(files, json_out=json_out, console=make_console(), game=game)
    raise typer.Exit(code)


@deck_app.command("show", cls=Command)
def deck_show(
    file: Annotated[
        str | None, typer.Argument(help="A deck file or a project deck's name (default: the game's own).",
                                   metavar="DECK")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the cards as JSON.")] = False,
    game: DeckGameOpt = None,
) -> None:
    """Show a deck's cards as a table: rank, suit, name, types, marks, action and flags."""
    from cardroom.cli.decks import run_show

    with guard():
        run_show(file, json_out=json_out, console=make_console(), game=game)


@deck_app.command("new", cls=Command)
def deck_new(
    name: Annotated[str, typer.Argument(help="The new deck's name (as the lobby and reports show it).",
                                        metavar="NAME")],
    source: Annotated[str, typer.Option("--from", help="The deck to copy: a project deck's name or a file.",
                                        metavar="DECK")] = "sample",
    out: Annotated[
        Path | None,
        typer.Option(help="The file to write (default: the name as a file name, e.g. my-deck.toml); never "
                          "one that exists.", metavar="FILE"),
    ] = None,
    game: DeckGameOpt = None,
) -> None:
    """Write an editable copy of a deck under a new name, e.g. cardroom deck new "My Deck" --from sample."""
    from cardroom.cli.decks import run_new

    with guard():
        run_new(name, source=source, out=out, console=make_console(), game=game)


@app.command(cls=Command)
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
    from cardroom.cli.analyze import run_restrict

    with guard():
        run_restrict(game, games=games_, seed=seed, rule=rule, decks=deck, players=players, cards=card,
                     actions=actions, html=html, json_path=json_file, csv=csv, console=make_console())


def main() -> None:
    """Entry point of the ``cardroom`` console script."""
    app()


if __name__ == "__main__":
    main()
