"""Throughput of ``cardroom simulate --out``: BAEBAE games per second written as tables.

Cardroom plays 4-player BAEBAE with the sample deck and default rules (three rounds a game)
through :func:`cardroom.sim.results.simulate_to`, the function ``simulate --out`` calls, so
every game is played, read into rows and written as Parquet: with one process, with two, and
as tasks on Ray's local cluster (started once and warmed up by a run of 8 games before the
rounds: that start-up, seconds, is measured apart). OpenSpiel's ``crazy_eights(players=4)``
(one deal a game) is played in one process by ``pyspiel.evaluate_bots`` with uniform random
bots, the game loop in C++.

The four are interleaved: each round runs each of them once (Cardroom ``--games`` games, then
OpenSpiel for as long as Cardroom's one-process run took), so a change in the machine's load
falls on all of them. Reported: each one's median games per second over the rounds, Cardroom's
rounds (deals) per second, and the ratio to OpenSpiel per round with its median.

Run: ``python benchmarks/sim_throughput.py [--games 200] [--rounds 3] [--agents random] [--json]``
(the ``bench`` extra for OpenSpiel, the ``ray`` extra for Ray: ``make bench`` installs them).
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import STREAM, environment, load_average

from cardroom import games
from cardroom.sim.results import Backend, simulate_to
from cardroom.sim.tournament import Lineup

MODES = {"1 process": Backend(workers=1), "2 processes": Backend(workers=2),
         "Ray local (2 CPUs)": Backend(workers=2, ray=True)}


def cardroom_run(folder: Path, backend: Backend, count: int, seed: int,
                 agents: str) -> tuple[int, int, float]:
    """Games, rounds and seconds of one ``simulate --out`` run into a new folder."""
    rules = games.make_rules("baebae", {"players": 4, "stream": STREAM})
    lineup = Lineup.parse(agents, 4)
    started = time.perf_counter()
    results = simulate_to(folder, rules, count, seed, lineup, backend=backend)
    return len(results), sum(r.deals for r in results), time.perf_counter() - started


def openspiel_run(pyspiel: Any, seconds: float, seed: int) -> tuple[int, float]:
    """Games of ``crazy_eights(players=4)`` played by ``evaluate_bots`` for about ``seconds``."""
    game = pyspiel.load_game("crazy_eights(players=4)")
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(4)]
    played = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + played)
        played += 1
    return played, time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="Cardroom games per mode per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--agents", default="random", help="Cardroom's agents (simulate --out's default "
                                                           "is heuristic; random matches OpenSpiel's bots)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pyspiel = importlib.import_module("pyspiel")  # the bench extra; it ships no types
    import ray

    load_before = load_average()
    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    rounds: list[dict[str, Any]] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            # Ray's workers start (and import Cardroom) on their first tasks: warmed up apart
            cardroom_run(Path(tmp) / "warm-up", MODES["Ray local (2 CPUs)"], 8, args.seed, args.agents)
            ray_start = time.perf_counter() - started
            for number in range(args.rounds):
                row: dict[str, Any] = {"round": number + 1}
                one_seconds = 1.0
                for mode, backend in MODES.items():
                    played, deals, seconds = cardroom_run(Path(tmp) / f"{number}-{len(row)}", backend,
                                                          args.games, args.seed, args.agents)
                    row[mode] = {"games": played, "rounds": deals, "seconds": seconds,
                                 "games_per_s": played / seconds, "rounds_per_s": deals / seconds}
                    if backend.workers == 1:
                        one_seconds = seconds
                played, seconds = openspiel_run(pyspiel, one_seconds, args.seed + 1000 * number)
                row["OpenSpiel crazy_eights"] = {"games": played, "seconds": seconds,
                                                 "games_per_s": played / seconds}
                rounds.append(row)
                if not args.json:
                    told = [f"{name} {v['games_per_s']:.0f} games/s" for name, v in row.items()
                            if name != "round"]
                    print(f"round {number + 1}: " + ", ".join(told), file=sys.stderr)
    finally:
        ray.shutdown()
    names = [*MODES, "OpenSpiel crazy_eights"]
    summary = {name: {"games_per_s": statistics.median(r[name]["games_per_s"] for r in rounds)}
               for name in names}
    for name in MODES:
        summary[name]["rounds_per_s"] = statistics.median(r[name]["rounds_per_s"] for r in rounds)
        ratios = [r[name]["games_per_s"] / r["OpenSpiel crazy_eights"]["games_per_s"] for r in rounds]
        summary[name]["ratio_to_openspiel"] = statistics.median(ratios)
        summary[name]["ratio_range"] = [min(ratios), max(ratios)]
    result = {"benchmark": "sim_throughput", "games_per_mode": args.games, "agents": args.agents,
              "ray_start_seconds": ray_start, "load_before": load_before, "load_after": load_average(),
              "environment": environment(), "rounds": rounds, "summary": summary}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"BAEBAE simulate --out ({args.agents} agents, {args.games} games a run) against OpenSpiel "
          f"crazy_eights(players=4), {args.rounds} interleaved rounds; load {load_before} -> "
          f"{load_average()}; Ray's local start {ray_start:.1f} s")
    print(f"{'':24} {'games/s':>9} {'rounds/s':>9} {'x OpenSpiel (range)':>22}")
    for name in names:
        s = summary[name]
        extra = (f"{s['rounds_per_s']:9.0f} {s['ratio_to_openspiel']:8.3f} "
                 f"({s['ratio_range'][0]:.3f}-{s['ratio_range'][1]:.3f})" if name in MODES else "")
        print(f"{name:24} {s['games_per_s']:9.0f} {extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
