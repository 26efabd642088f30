"""BAEBAE's ISMCTS: the native search against the Python one, iterations/s and one whole game.

Iterations/s: from ``--positions`` decision points of random 4-player BAEBAE games (a choice of
two moves or more), the ``ismcts`` agent searches ``--iterations`` iterations (random or heuristic
roll-outs) on the native engine with the native search, and on the Python engine with the Python
search (``--python-iterations``, fewer: it is slow), in alternating rounds; per round the
iterations/s of each and their ratio; the median and range over rounds.

One game (``--game``): 4-player BAEBAE (default rules, seed ``--seed``),
``ismcts:iterations=1000`` (heuristic roll-outs) in seat 0 and the heuristic in seats 1-3, the
whole game, on the native engine with the native search and on the Python engine with the Python
search: CPU seconds of the process and wall seconds, the bot's decisions and iterations (the
same deals, the bot's moves may differ).

Run: ``python benchmarks/ismcts_baebae.py [--rounds 3] [--game]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from typing import Any

from harness import STREAM

from cardroom import native
from cardroom.agents import make
from cardroom.agents.ismcts import ISMCTSAgent
from cardroom.games import baebae
from cardroom.games.baebae.state import BaebaeState


def positions(count: int, seed: int) -> list[tuple[Any, BaebaeState]]:
    """Decision points of random games: each on the native engine and on the Python one."""
    rules = baebae.Rules(players=4, stream=STREAM)
    found: list[tuple[Any, BaebaeState]] = []
    game = seed
    while len(found) < count:
        fast, slow = rules.new_game(game), BaebaeState.start(rules, game)
        rng = random.Random(game)
        for _ in range(rng.randrange(4, 60)):
            if fast.is_over:
                break
            action = rng.choice(fast.legal_actions())
            fast.apply(action)
            slow.apply(action)
        if not fast.is_over and len(fast.legal_actions()) > 1:
            found.append((fast, slow))
        game += 1
    return found


def rate(states: list[Any], iterations: int, engine: str, rollout: str) -> float:
    done, start = 0, time.perf_counter()
    for k, state in enumerate(states):
        bot = make("ismcts", seed=k, iterations=iterations, rollout=rollout, engine=engine)
        assert isinstance(bot, ISMCTSAgent)
        bot.act(state, state.current_player)
        done += bot.last_iterations
    return done / (time.perf_counter() - start)


def one_game(seed: int, iterations: int, engine: str) -> dict[str, float]:
    rules = baebae.Rules(players=4, stream=STREAM)
    state: Any = rules.new_game(seed) if engine == "native" else BaebaeState.start(rules, seed)
    bot = make("ismcts", seed=seed, iterations=iterations, rollout="heuristic", engine=engine)
    assert isinstance(bot, ISMCTSAgent)
    others = [make("heuristic", seed=seed * 10 + s) for s in range(4)]
    decisions = searched = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while not state.is_over:
        seat = state.current_player
        if seat == 0:
            state.apply(bot.act(state, seat))
            decisions += 1
            searched += bot.last_iterations
        else:
            state.apply(others[seat].act(state, seat))
    return {"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall, "decisions": decisions,
            "iterations": searched}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--python-iterations", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="store_true",
                        help="also one whole game of each search among heuristics")
    args = parser.parse_args(argv)
    if not native.native_for("baebae"):
        print("the native engine is not in use for BAEBAE: build it and leave CARDROOM_ENGINE unset",
              file=sys.stderr)
        return 2
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    states = positions(args.positions, args.seed)
    for rollout in ("random", "heuristic"):
        ratios, fast_rates, slow_rates = [], [], []
        for r in range(args.rounds):
            order = ("native", "python") if r % 2 == 0 else ("python", "native")
            got = {}
            for engine in order:
                if engine == "native":
                    got[engine] = rate([f for f, _ in states], args.iterations, "native", rollout)
                else:
                    got[engine] = rate([s for _, s in states], args.python_iterations, "python", rollout)
            fast_rates.append(got["native"])
            slow_rates.append(got["python"])
            ratios.append(got["native"] / got["python"])
        print(f"{rollout:>9} roll-outs: native {statistics.median(fast_rates):,.0f} it/s, "
              f"python {statistics.median(slow_rates):,.0f} it/s, ratio {statistics.median(ratios):.1f} "
              f"({min(ratios):.1f}-{max(ratios):.1f}) over {args.rounds} rounds")
    if args.game:
        found = {}
        for engine in ("native", "python"):
            found[engine] = figures = one_game(args.seed, 1000, engine)
            print(f"one game, {engine:>6} search: {figures['cpu']:.2f} s CPU, {figures['wall']:.2f} s wall, "
                  f"{figures['decisions']:.0f} decisions, {figures['iterations']:.0f} iterations")
        print(f"CPU ratio python / native: {found['python']['cpu'] / found['native']['cpu']:.1f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
