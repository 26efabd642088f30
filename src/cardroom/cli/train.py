"""``cardroom train GAME``: distil the native ISMCTS into a network the ``learned`` agent plays.

The steps and targets are :mod:`cardroom.agents.training`'s. The decisions are kept in ``--data``
(one ``.npz`` file per run of games; a later run with more games adds to them and trains on
all), the weights written to ``--out``, the learning curve beside them (``.json``, and
``--plot`` draws it with matplotlib).
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from cardroom.cli.base import guard
from cardroom.cli.consoles import make_console
from cardroom.cli.options import UsageError, game_spec, parse_rule_options
from cardroom.cli.params import DEFAULT_GAME, GameArg, RuleOpt
from cardroom.engine import Rules, WinReturns
from cardroom.text import shorten

__all__ = ["run_train", "train"]


def run_train(
    rules: Rules, *, games_count: int, iterations: int, epochs: int, hidden: tuple[int, ...], seed: int,
    data: Path, out: Path, minutes: float | None, plot: Path | None, console: Console,
    first_game: int = 0, sharpen: float = 3.0, weight_decay: float = 0.01, train_seed: int = 0,
    play: str | None = None, prior: Path | None = None, q_mix: float = 0.0, q_temperature: float = 0.05,
    search: str | None = None,
) -> int:
    from cardroom.agents import training as learn
    from cardroom.agents.base import AgentError
    from cardroom.agents.learned import load_network
    from cardroom.sim.tournament import Lineup

    game, spec = rules.game, rules.spec
    if spec.native is None or spec.observation is None:
        console.print(f"[red]{spec.title} cannot be trained: the training needs its native search and "
                      "its observation encoder[/red]")
        return 2
    players = len(rules.new_game(0).scores)
    lineup = prior_network = None
    try:
        options = learn.search_options(search)
        if options.get("reward") == "win" and not isinstance(rules.new_game(0), WinReturns):
            raise AgentError(f"--search {search!r}: reward=win is built for games scored by totals over "
                             f"a fixed number of rounds (baebae), not {game}")
        if play is not None:
            lineup = Lineup.parse(play, players)
        if prior is not None:
            prior_network = load_network(prior)
            if prior_network.game != game or prior_network.players != players:
                raise AgentError(f"--prior {prior}: its network plays {prior_network.game} with "
                                 f"{prior_network.players} seats, not {game} with {players}")
    except AgentError as error:
        console.print(f"[red]{error}[/red]")
        return 2
    # what the target games were played and labelled with, in the name of their file
    how: dict[str, Any] = {"play": play,
                           "prior": None if prior is None else hashlib.sha256(prior.read_bytes()).hexdigest()}
    if options:
        how["search"] = options
    tag = "" if play is None and prior is None and not options else "-" + hashlib.sha256(
        json.dumps(how, sort_keys=True).encode()).hexdigest()[:10]
    started = time.monotonic()
    cpu = time.process_time()
    deadline = None if minutes is None else started + minutes * 60
    data.mkdir(parents=True, exist_ok=True)
    part = data / f"{game}-seed{seed}-from{first_game}-n{games_count}-it{iterations}{tag}.npz"
    if games_count > 0 and not part.exists():
        # the search's share: four fifths of the time when the run is bounded
        search_deadline = None if deadline is None else started + 0.8 * minutes * 60  # type: ignore[operator]
        found = learn.generate(game, rules, games_count, iterations, seed, first_game=first_game,
                               deadline=search_deadline, log=console.print,
                               play=None if lineup is None else lineup.make, prior=prior_network,
                               options=options)
        found.save(part)
        count = len(set(found.games.tolist()))
        console.print(f"kept {len(found.outcomes)} decisions of {count} games in {part}")
    generated_cpu = time.process_time() - cpu
    parts = sorted(data.glob(f"{game}-*.npz"))
    if not parts:
        console.print(f"[red]no decisions in {data}: play some games first (--games N)[/red]")
        return 2
    targets = learn.Targets.load(parts)
    count = len(set(targets.games.tolist()))
    console.print(f"training on {len(targets.outcomes)} decisions of {count} games ({len(parts)} files)")
    tensors, curve = learn.train(targets, hidden=hidden, epochs=epochs, seed=train_seed, deadline=deadline,
                                 sharpen=sharpen, weight_decay=weight_decay, q_mix=q_mix,
                                 q_temperature=q_temperature, log=console.print)
    trained: dict[str, Any] = {
        "decisions": int(len(targets.outcomes)),
        "games": int(len(set(targets.games.tolist()))),
        "iterations": iterations,
        "epochs": len(curve.epochs),
        "seed": seed,
        "train_seed": train_seed,
        "sharpen": sharpen,
        **({"search": search} if options else {}),
        **({} if q_mix == 0 else {"q_mix": q_mix, "q_temperature": q_temperature}),
        "weight_decay": weight_decay,
        "parts": [p.name for p in parts],
        "hidden": list(hidden),
        "cpu_seconds_this_run": round(time.process_time() - cpu, 1),
        "search_cpu_seconds_this_run": round(generated_cpu, 1),
    }
    learn.save_network(out, tensors, game, rules, trained)
    curve_path = out.with_suffix(".curve.json")
    curve_path.write_text(json.dumps({"trained": trained, "epochs": curve.epochs}, indent=1) + "\n")
    console.print(f"wrote {out} ({out.stat().st_size} bytes) and {curve_path}; "
                  f"{trained['cpu_seconds_this_run']} s of CPU")
    if plot is not None:
        draw_curve([curve_path], plot)
        console.print(f"drew {plot}")
    return 0


def draw_curve(curves: list[Path], plot: Path) -> None:
    """The held-out figures of each curve file by epoch: agreement with the search and policy loss."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4))
    for path in curves:
        found = json.loads(path.read_text())
        epochs = found["epochs"]
        label = path.name.split(".")[0]
        x = [e["samples"] / 1000 for e in epochs]
        left.plot(x, [e["agreement"] for e in epochs], marker=".", label=label)
        right.plot(x, [e["policy_loss"] for e in epochs], marker=".", label=label)
    left.set_xlabel("training samples seen (thousands)")
    left.set_ylabel("held-out agreement with ISMCTS's move")
    right.set_xlabel("training samples seen (thousands)")
    right.set_ylabel("held-out policy cross-entropy")
    left.legend()
    fig.tight_layout()
    plot.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(plot, dpi=110)
    plt.close(fig)


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
    with guard():
        try:
            widths = tuple(int(w) for w in hidden.split(","))
        except ValueError:
            raise UsageError(f"--hidden {shorten(hidden, 40)!r}: give whole numbers separated by commas, "
                             "e.g. 256,256") from None
        if not 1 <= len(widths) <= 8 or not all(1 <= w <= 4096 for w in widths):
            raise UsageError("--hidden: 1 to 8 layers, each 1 to 4096 wide")
        spec = game_spec(game)
        given = dict(spec.trained_options)
        rules = parse_rule_options(spec, None, [*(f"{k}={v}" for k, v in given.items()), *(rule or [])])
        code = run_train(rules, games_count=games_count, iterations=iterations, epochs=epochs, hidden=widths,
                         seed=seed, data=data, out=out or Path(f"{game}.safetensors"), minutes=minutes,
                         plot=plot, console=make_console(), first_game=first_game, sharpen=sharpen,
                         weight_decay=weight_decay, train_seed=train_seed, play=play, prior=prior,
                         q_mix=q_mix, q_temperature=q_temperature, search=search)
    raise typer.Exit(code)
