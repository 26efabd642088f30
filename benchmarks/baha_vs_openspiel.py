"""Random self-play speed: Cardroom's Baha against OpenSpiel's ``hearts``, from Python.

Both engines are driven the same way through their public state API: the player to act
takes a uniformly random legal action, and the same ``pick`` chooses for both. Baha is played
by 4 under default rules but with a target of 1, so a game is one hand (pass three cards,
thirteen tricks); a ``hearts`` game is one hand (pass, thirteen tricks), its chance outcomes
(pass direction, then the deal one card at a time) sampled through ``chance_outcomes()``.

The two engines run in alternating rounds of ``--seconds`` each (A B, B A, A B, ...), so slow
drift of the machine touches both alike. Reported: the median hands per second of each,
the ratio Baha / hearts of every round and its median, and, as a supplement, decisions per
second (actions by players; chance is excluded for hearts and is never an action in Baha).

Run with ``make bench`` (installs the ``bench`` extra, which brings ``open-spiel``), or
``python benchmarks/baha_vs_openspiel.py --rounds 10 --seconds 1 [--json]``.
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

from cardroom.games import baha

GOAL = 2.0
"""The ratio Baha / hearts in hands per second that the project aims for."""

Pick = Callable[[int], int]
Runner = Callable[[float], tuple[int, int, float]]
"""Plays whole hands for about the given seconds; returns (hands, decisions, seconds)."""


def make_pick(seed: int) -> Pick:
    """A uniform choice of an index below ``n``, the same function for both engines."""
    rand = random.Random(seed).random

    def pick(n: int) -> int:
        return int(rand() * n)

    return pick


def baha_runner(pick: Pick) -> Runner:
    """Play 4-player Baha games of target 1 (one hand each, more only on a tie for low)."""
    rules = baha.Rules(players=4, target=1)
    seeds = itertools.count()

    def run(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        hands = decisions = 0
        start = clock()
        end = start + seconds
        while True:
            state = rules.new_game(seed=next(seeds))
            while not state.is_over:
                actions = state.legal_actions()
                state.apply(actions[pick(len(actions))])
                decisions += 1
            hands += state.hand_no
            now = clock()
            if now >= end:
                return hands, decisions, now - start

    return run


def hearts_runner(pick: Pick, pyspiel: Any) -> Runner:
    """Play OpenSpiel ``hearts`` games (one hand each) with default parameters."""
    game = pyspiel.load_game("hearts")

    def run(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        hands = decisions = 0
        start = clock()
        end = start + seconds
        while True:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    # Every hearts chance node (pass direction, each dealt card) is uniform,
                    # so a uniform pick among the outcomes samples it exactly.
                    outcomes = state.chance_outcomes()
                    action = outcomes[pick(len(outcomes))][0]
                else:
                    actions = state.legal_actions()
                    action = actions[pick(len(actions))]
                    decisions += 1
                state.apply_action(action)
            hands += 1
            now = clock()
            if now >= end:
                return hands, decisions, now - start

    return run


def measure(rounds: int, seconds: float, seed: int, pyspiel: Any) -> dict[str, Any]:
    """Alternate the two engines for ``rounds`` rounds; per-round rates and their medians."""
    runners = {
        "baha": baha_runner(make_pick(seed)),
        "hearts": hearts_runner(make_pick(seed + 1), pyspiel),
    }
    for run in runners.values():
        run(min(0.2, seconds))  # warm-up: first-use costs (tables, caches) stay out of rounds
    rows = []
    for r in range(rounds):
        order = ("baha", "hearts") if r % 2 == 0 else ("hearts", "baha")
        row: dict[str, Any] = {"round": r + 1, "order": "/".join(order)}
        for name in order:
            hands, decisions, elapsed = runners[name](seconds)
            row[name] = {
                "hands": hands,
                "decisions": decisions,
                "seconds": elapsed,
                "hands_per_s": hands / elapsed,
                "decisions_per_s": decisions / elapsed,
            }
        row["ratio"] = row["baha"]["hands_per_s"] / row["hearts"]["hands_per_s"]
        row["decision_ratio"] = row["baha"]["decisions_per_s"] / row["hearts"]["decisions_per_s"]
        rows.append(row)

    def median(name: str, key: str) -> float:
        return float(statistics.median(row[name][key] for row in rows))

    summary = {
        "baha_hands_per_s": median("baha", "hands_per_s"),
        "hearts_hands_per_s": median("hearts", "hands_per_s"),
        "ratio": statistics.median(row["ratio"] for row in rows),
        "baha_decisions_per_s": median("baha", "decisions_per_s"),
        "hearts_decisions_per_s": median("hearts", "decisions_per_s"),
        "decision_ratio": statistics.median(row["decision_ratio"] for row in rows),
        "goal": GOAL,
    }
    summary["ratio_min"] = min(row["ratio"] for row in rows)
    summary["ratio_max"] = max(row["ratio"] for row in rows)
    summary["meets_goal"] = summary["ratio"] >= GOAL
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


def print_table(result: dict[str, Any]) -> None:
    env = result["environment"]
    print(
        f"Baha (Cardroom {env['cardroom']}) vs hearts (OpenSpiel {env['open_spiel']}), "
        f"Python {env['python']}, {env['cpus']} CPUs; {result['rounds_asked']} rounds of "
        f"{result['seconds']:g} s each, alternating"
    )
    print()
    print(f"{'round':>5}  {'order':<12} {'Baha hands/s':>13} {'hearts hands/s':>15} {'ratio':>6}")
    for row in result["rounds"]:
        print(
            f"{row['round']:>5}  {row['order']:<12} {row['baha']['hands_per_s']:>13.1f} "
            f"{row['hearts']['hands_per_s']:>15.1f} {row['ratio']:>6.2f}"
        )
    s = result["summary"]
    print(
        f"{'median':>5}  {'':<12} {s['baha_hands_per_s']:>13.1f} "
        f"{s['hearts_hands_per_s']:>15.1f} {s['ratio']:>6.2f}"
    )
    print()
    print(
        f"hands/s ratio Baha / hearts: median {s['ratio']:.2f}, rounds {s['ratio_min']:.2f} "
        f"to {s['ratio_max']:.2f} (goal {s['goal']:g}: {'met' if s['meets_goal'] else 'not met'})"
    )
    print(
        f"decisions/s (supplement): Baha {s['baha_decisions_per_s']:,.0f}, "
        f"hearts {s['hearts_decisions_per_s']:,.0f}, ratio {s['decision_ratio']:.2f}"
    )
    load = result["load_average"]
    if load is not None:
        print(f"load average (1 min): {load['before']:.2f} before, {load['after']:.2f} after")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
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
            "`bench` extra (open-spiel) and runs this benchmark.",
            file=sys.stderr,
        )
        return 2
    load_before = load_average()
    result = {
        "benchmark": "baha_vs_openspiel",
        "environment": environment(),
        "rounds_asked": args.rounds,
        "seconds": args.seconds,
        "seed": args.seed,
        **measure(args.rounds, args.seconds, args.seed, pyspiel),
    }
    load_after = load_average()
    result["load_average"] = (
        None if load_before is None or load_after is None
        else {"before": load_before, "after": load_after}
    )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
