"""The shared harness of the peer benchmarks: two engines raced in alternating rounds.

Each engine is a *runner*: it plays whole games (driven through its public state API with
the same uniform ``pick``) for about the given seconds and returns how many units it
finished (hands, rounds, games), how many decisions were taken, and the seconds it ran.
Rounds alternate the order (A B, B A, ...) so slow drift of the machine touches both alike;
the headline is the median of the per-round ratios.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import itertools
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

Pick = Callable[[int], int]
Runner = Callable[[float], tuple[int, int, float]]
"""Plays whole games for about the given seconds; returns (units, decisions, seconds)."""


def make_pick(seed: int) -> Pick:
    """A uniform choice of an index below ``n``, the same function for both engines."""
    rand = random.Random(seed).random

    def pick(n: int) -> int:
        return int(rand() * n)

    return pick


def cardroom_runner(new_game: Callable[[int], Any], units: Callable[[Any], int], pick: Pick) -> Runner:
    """Random self-play of Cardroom games: ``new_game(seed)``, then random legal actions to
    the end; ``units(state)`` says how many units (hands, rounds) a finished game counts."""
    seeds = itertools.count()

    def run(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        done = decisions = 0
        start = clock()
        end = start + seconds
        while True:
            state = new_game(next(seeds))
            while not state.is_over:
                actions = state.legal_actions()
                state.apply(actions[pick(len(actions))])
                decisions += 1
            done += units(state)
            now = clock()
            if now >= end:
                return done, decisions, now - start

    return run


def openspiel_runner(game_string: str, pick: Pick, pyspiel: Any) -> Runner:
    """Random self-play of an OpenSpiel game, chance outcomes picked uniformly (they are
    uniform in the games raced here); one game is one unit; chance is not a decision."""
    game = pyspiel.load_game(game_string)

    def run(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        games = decisions = 0
        start = clock()
        end = start + seconds
        while True:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    action = outcomes[pick(len(outcomes))][0]
                else:
                    actions = state.legal_actions()
                    action = actions[pick(len(actions))]
                    decisions += 1
                state.apply_action(action)
            games += 1
            now = clock()
            if now >= end:
                return games, decisions, now - start

    return run


def measure(ours: tuple[str, Runner], theirs: tuple[str, Runner], rounds: int, seconds: float,
            goal: float) -> dict[str, Any]:
    """Alternate the two runners for ``rounds`` rounds; per-round rates and their medians."""
    (a, run_a), (b, run_b) = ours, theirs
    runners = {a: run_a, b: run_b}
    for run in runners.values():
        run(min(0.2, seconds))  # warm-up: first-use costs (tables, caches) stay out of rounds
    rows = []
    for r in range(rounds):
        order = (a, b) if r % 2 == 0 else (b, a)
        row: dict[str, Any] = {"round": r + 1, "order": "/".join(order)}
        for name in order:
            units, decisions, elapsed = runners[name](seconds)
            row[name] = {
                "units": units,
                "decisions": decisions,
                "seconds": elapsed,
                "units_per_s": units / elapsed,
                "decisions_per_s": decisions / elapsed,
            }
        row["ratio"] = row[a]["units_per_s"] / row[b]["units_per_s"]
        row["decision_ratio"] = row[a]["decisions_per_s"] / row[b]["decisions_per_s"]
        rows.append(row)

    def median(name: str, key: str) -> float:
        return float(statistics.median(row[name][key] for row in rows))

    summary = {
        f"{a}_per_s": median(a, "units_per_s"),
        f"{b}_per_s": median(b, "units_per_s"),
        "ratio": statistics.median(row["ratio"] for row in rows),
        f"{a}_decisions_per_s": median(a, "decisions_per_s"),
        f"{b}_decisions_per_s": median(b, "decisions_per_s"),
        "decision_ratio": statistics.median(row["decision_ratio"] for row in rows),
        "ratio_min": min(row["ratio"] for row in rows),
        "ratio_max": max(row["ratio"] for row in rows),
        "goal": goal,
    }
    summary["meets_goal"] = summary["ratio"] >= goal
    return {"rounds": rows, "summary": summary}


def environment() -> dict[str, Any]:
    def version(dist: str) -> str | None:
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            return None

    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "cardroom": version("cardroom"),
        "open_spiel": version("open_spiel"),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "cpus": os.cpu_count(),
        "system": platform.system(),
    }


def load_average() -> float | None:
    """The 1-minute load average, where the system has one: other work skews the figures."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def print_table(result: dict[str, Any], a: str, b: str, unit: str) -> None:
    env = result["environment"]
    print(
        f"{a} (Cardroom {env['cardroom']}) vs {b} (OpenSpiel {env['open_spiel']}), "
        f"Python {env['python']}, {env['cpus']} CPUs; {result['rounds_asked']} rounds of "
        f"{result['seconds']:g} s each, alternating; unit: {unit}"
    )
    print()
    print(f"{'round':>5}  {'order':<22} {a + '/s':>16} {b + '/s':>16} {'ratio':>6}")
    for row in result["rounds"]:
        print(
            f"{row['round']:>5}  {row['order']:<22} {row[a]['units_per_s']:>16.1f} "
            f"{row[b]['units_per_s']:>16.1f} {row['ratio']:>6.2f}"
        )
    s = result["summary"]
    print(f"{'median':>5}  {'':<22} {s[a + '_per_s']:>16.1f} {s[b + '_per_s']:>16.1f} {s['ratio']:>6.2f}")
    print()
    print(
        f"{unit}/s ratio {a} / {b}: median {s['ratio']:.2f}, rounds {s['ratio_min']:.2f} "
        f"to {s['ratio_max']:.2f} (goal {s['goal']:g}: {'met' if s['meets_goal'] else 'not met'})"
    )
    print(
        f"decisions/s (supplement): {a} {s[a + '_decisions_per_s']:,.0f}, "
        f"{b} {s[b + '_decisions_per_s']:,.0f}, ratio {s['decision_ratio']:.2f}"
    )
    load = result["load_average"]
    if load is not None:
        print(f"load average (1 min): {load['before']:.2f} before, {load['after']:.2f} after")


def run_benchmark(
    name: str,
    description: str,
    ours: tuple[str, Callable[[Pick], Runner]],
    theirs: tuple[str, Callable[[Pick, Any], Runner]],
    unit: str,
    goal: float,
    argv: list[str] | None = None,
) -> int:
    """The command line shared by the peer benchmarks."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--rounds", type=int, default=10, help="rounds per engine (default 10)")
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="seconds per engine per round (default 1)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random choices")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds more than 0")
    try:
        pyspiel = importlib.import_module("pyspiel")  # the `bench` extra; it ships no types
    except ImportError as err:
        print(
            f"OpenSpiel is not installed ({err}). Run `make bench`, which installs the "
            "`bench` extra (open-spiel) and runs the benchmarks.",
            file=sys.stderr,
        )
        return 2
    load_before = load_average()
    ours_runner = (ours[0], ours[1](make_pick(args.seed)))
    theirs_runner = (theirs[0], theirs[1](make_pick(args.seed + 1), pyspiel))
    result = {
        "benchmark": name,
        "environment": environment(),
        "rounds_asked": args.rounds,
        "seconds": args.seconds,
        "seed": args.seed,
        "unit": unit,
        **measure(ours_runner, theirs_runner, args.rounds, args.seconds, goal),
    }
    load_after = load_average()
    result["load_average"] = (
        None if load_before is None or load_after is None
        else {"before": load_before, "after": load_after}
    )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result, ours[0], theirs[0], unit)
    return 0
