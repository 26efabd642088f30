"""Baha's ``simulate --out`` on the native path, against the Python engine's and OpenSpiel's C++.

Cardroom plays 4-player Baha games (default rules: to 100 points) through
:func:`cardroom.sim.results.simulate_to`, the function ``simulate --out`` calls, so every game
is played, turned into rows and written as Parquet: on the native engine's batches (the games
and their rows in C++, ``native_batches`` in the manifest) with one worker and with two (threads:
the batches play without the interpreter lock), and on the Python engine
(``CARDROOM_ENGINE=python``: each game played through the State API and read from its log) with
two processes, as ``simulate`` runs by default on this machine. OpenSpiel's
``hearts`` (one hand a game) is played in one process by ``pyspiel.evaluate_bots`` with four
C++ uniform random bots, for as long as the native one-worker run took.

Each round runs each of them once, the order turning, so a change in the machine's load falls
on all of them. Reported: each one's median games and hands (deals) per second over the rounds,
and per round the ratios native / Python engine and native / OpenSpiel (hands per second), with
their medians and ranges.

Run: ``python benchmarks/sim_tables_native.py [--games 2000] [--python-games 100] [--rounds 3]
[--agents random] [--json]`` (the ``bench`` extra for OpenSpiel).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import STREAM, environment, load_average

from cardroom import native
from cardroom.games import baha
from cardroom.sim.results import Backend, read_manifest, simulate_to
from cardroom.sim.tournament import Lineup

NATIVE_1 = "native, 1 worker"
NATIVE_2 = "native, 2 workers (threads)"
PYTHON_2 = "Python engine, 2 processes"
OPENSPIEL = "OpenSpiel hearts evaluate_bots"


def cardroom_run(folder: Path, engine: str, workers: int, count: int, seed: int,
                 agents: str) -> dict[str, Any]:
    """Games, hands and seconds of one ``simulate --out`` run into a new folder on ``engine``."""
    native.use_engine(engine)
    os.environ[native.ENGINE_VARIABLE] = engine  # the worker processes choose alike
    rules = baha.Rules(players=4, stream=STREAM)
    started = time.perf_counter()
    lineup = Lineup.parse(agents, 4)
    results = simulate_to(folder, rules, count, seed, lineup, backend=Backend(workers=workers))
    seconds = time.perf_counter() - started
    batched = read_manifest(folder)["native_batches"]
    if batched != (engine == "native"):
        raise SystemExit(f"the {engine} run was played {'in' if batched else 'without'} native batches")
    hands = sum(r.deals for r in results)
    return {"games": len(results), "hands": hands, "seconds": seconds, "games_per_s": len(results) / seconds,
            "hands_per_s": hands / seconds}


def openspiel_run(pyspiel: Any, seconds: float, seed: int) -> dict[str, Any]:
    """``hearts`` games (one hand each) of four C++ uniform random bots for about ``seconds``."""
    game = pyspiel.load_game("hearts")
    played = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        bots = [pyspiel.make_uniform_random_bot(p, (seed + played) * 4 + p) for p in range(4)]
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + played)
        played += 1
    took = time.perf_counter() - started
    return {"games": played, "hands": played, "seconds": took, "games_per_s": played / took,
            "hands_per_s": played / took}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games of each native run")
    parser.add_argument("--python-games", type=int, default=100, help="games of each Python engine run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--agents", default="random", help="Cardroom's agents (random or heuristic; "
                                                           "random matches OpenSpiel's bots)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pyspiel = importlib.import_module("pyspiel")  # the bench extra; it ships no types
    native.core()  # the native engine must be built: say so now, not after a round
    load_before = load_average()
    rounds: list[dict[str, Any]] = []
    names = [NATIVE_1, NATIVE_2, PYTHON_2, OPENSPIEL]
    with tempfile.TemporaryDirectory() as tmp:
        for number in range(args.rounds):
            row: dict[str, Any] = {}
            turn = number % 3
            order = [NATIVE_1, NATIVE_2, PYTHON_2][turn:] + [NATIVE_1, NATIVE_2, PYTHON_2][:turn]
            seed = args.seed + number * args.games
            for name in order:
                folder = Path(tmp) / f"{number}-{len(row)}"
                if name == PYTHON_2:
                    row[name] = cardroom_run(folder, "python", 2, args.python_games, seed, args.agents)
                else:
                    row[name] = cardroom_run(folder, "native", 1 if name == NATIVE_1 else 2, args.games, seed,
                                             args.agents)
            row[OPENSPIEL] = openspiel_run(pyspiel, row[NATIVE_1]["seconds"], 1000 * number)
            rounds.append({"round": number + 1, **row})
            if not args.json:
                told = [f"{name} {row[name]['games_per_s']:.0f} games/s" for name in names]
                print(f"round {number + 1}: " + ", ".join(told), file=sys.stderr)
    native.use_engine(None)
    summary: dict[str, Any] = {
        name: {key: statistics.median(r[name][key] for r in rounds) for key in ("games_per_s", "hands_per_s")}
        for name in names
    }
    for name in (NATIVE_1, NATIVE_2):
        for peer, key in ((PYTHON_2, "python"), (OPENSPIEL, "openspiel")):
            ratios = [r[name]["hands_per_s"] / r[peer]["hands_per_s"] for r in rounds]
            summary[name][f"over_{key}"] = [statistics.median(ratios), min(ratios), max(ratios)]
    result = {"benchmark": "sim_tables_native", "agents": args.agents, "games": args.games,
              "python_games": args.python_games, "load_before": load_before, "load_after": load_average(),
              "environment": environment(), "rounds": rounds, "summary": summary}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"Baha simulate --out ({args.agents} agents; native runs {args.games} games, Python runs "
          f"{args.python_games}), {args.rounds} rounds; load {load_before} -> {load_average()}")
    print(f"{'':32} {'games/s':>9} {'hands/s':>9}  {'/ Python engine':>22}  {'/ OpenSpiel':>22}")
    for name in names:
        s = summary[name]
        cells = [f"{name:32} {s['games_per_s']:9.1f} {s['hands_per_s']:9.0f}"]
        for key in ("python", "openspiel"):
            if f"over_{key}" in s:
                mid, low, high = s[f"over_{key}"]
                cells.append(f"{mid:8.2f} ({low:.2f}-{high:.2f})")
        print("  ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
