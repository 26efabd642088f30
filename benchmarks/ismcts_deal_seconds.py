"""Seconds for one Baha deal with an ISMCTS bot among heuristics: the native search and the Python one.

One hand of 4-player Baha (default rules, seed ``--seed``): ``ismcts:iterations=N`` (default
1000, heuristic roll-outs) in seat 0 and the heuristic in seats 1-3, played to the end of the
hand on the native engine, once with the native search (``engine=native``, ``--threads``) and
once with the Python search (``engine=python``): the same deal, the bot's moves may differ.
Reported per search: CPU seconds of the process (every thread's) and wall seconds for the
hand, the bot's decisions and iterations.

Run: ``python benchmarks/ismcts_deal_seconds.py [--iterations 1000] [--threads 2]``.
"""

from __future__ import annotations

import argparse
import sys
import time

from harness import STREAM

from cardroom import native
from cardroom.agents import make
from cardroom.agents.ismcts import ISMCTSAgent
from cardroom.games import baha


def one_deal(seed: int, iterations: int, engine: str, threads: int) -> dict[str, float]:
    state = baha.Rules(players=4, stream=STREAM).new_game(seed)
    bot = make("ismcts", seed=seed, iterations=iterations, engine=engine, threads=threads)
    assert isinstance(bot, ISMCTSAgent)
    others = [make("heuristic", seed=seed * 10 + s) for s in range(4)]
    deal = state.deal_number
    decisions = searched = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while not state.is_over and state.deal_number == deal:
        seat = state.current_player
        assert seat is not None
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
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not native.native_for("baha"):
        print("the native engine is not in use for Baha: build it and leave CARDROOM_ENGINE unset",
              file=sys.stderr)
        return 2
    found = {}
    for engine, threads in (("native", args.threads), ("python", 1)):
        found[engine] = figures = one_deal(args.seed, args.iterations, engine, threads)
        seconds = f"{figures['cpu']:.3f} s CPU, {figures['wall']:.3f} s wall"
        print(f"{engine:>6} search (threads={threads}): {seconds}, "
              f"{figures['decisions']:.0f} decisions, {figures['iterations']:.0f} iterations")
    print(f"CPU ratio python / native: {found['python']['cpu'] / found['native']['cpu']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
