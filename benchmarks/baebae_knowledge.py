"""BAEBAE's knowledge for the native ISMCTS: read in C++ against the Python reference, and the
time of a whole ISMCTS move with each.

What a seat knows of the hidden cards (``NativeBaebaeState.native_knowledge``) is read once per
search. It is read in C++ now (``native/cardroom/baebae_knowledge.hpp``, from the seat's view of
the round's events); before, the Python reference (``determinize.knowledge`` on the position
rebuilt in Python) read it. From ``--positions`` decision points of random 4-player BAEBAE games
(default rules, a choice of two moves or more, each a fresh position as a game hands it to a
bot: no reference position cached), the script times, in alternating rounds:

- ``knowledge``: one knowledge read for the seat to act, C++ against Python (microseconds);
- ``move``: a whole ``ismcts`` move (``--iterations``, heuristic roll-outs, one thread, the
  native search) with the knowledge read each way (milliseconds a move; the same search).

Reported: medians over the rounds, the ratio, and the load average before and after.

Run: ``python benchmarks/baebae_knowledge.py [--rounds 3] [--positions 40] [--iterations 200]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

from harness import load_average

from cardroom import native
from cardroom.agents import make
from cardroom.games import baebae


def positions(count: int, seed: int) -> list[Any]:
    rules = baebae.Rules(players=4)
    found: list[Any] = []
    game = seed
    while len(found) < count:
        state = rules.new_game(game)
        rng = random.Random(game)
        for _ in range(rng.randrange(4, 80)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over and len(state.legal_actions()) > 1:
            found.append(state)
        game += 1
    return found


def fresh(states: list[Any]) -> list[Any]:
    """Copies with no reference position cached, as a game hands a position to its bot."""
    return [s.clone() for s in states]


def knowledge_us(states: list[Any], python: bool) -> float:
    states = fresh(states)
    start = time.perf_counter()
    for state in states:
        seat = state.current_player
        state.reference_knowledge(seat) if python else state.native_knowledge(seat)
    return (time.perf_counter() - start) / len(states) * 1e6


def move_ms(states: list[Any], iterations: int, python: bool) -> float:
    cls = type(states[0])
    native_reader = cls.native_knowledge
    if python:
        cls.native_knowledge = cls.reference_knowledge  # the search reads it as before
    try:
        states = fresh(states)
        start = time.perf_counter()
        for k, state in enumerate(states):
            bot = make("ismcts", seed=k, iterations=iterations, rollout="heuristic", engine="native")
            bot.act(state, state.current_player)
        return (time.perf_counter() - start) / len(states) * 1e3
    finally:
        cls.native_knowledge = native_reader


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if min(args.positions, args.iterations, args.rounds) < 1:
        parser.error("--positions, --iterations and --rounds must be at least 1")
    if not native.available():
        print(f"the native core is needed: {native.unavailable_reason()}", file=sys.stderr)
        return 2
    states = positions(args.positions, args.seed)
    before = load_average()
    rows: dict[str, list[float]] = {"knowledge-c++": [], "knowledge-python": [], "move-c++": [],
                                    "move-python": []}
    for r in range(args.rounds):
        for python in ((False, True) if r % 2 == 0 else (True, False)):
            side = "python" if python else "c++"
            rows[f"knowledge-{side}"].append(knowledge_us(states, python))
            rows[f"move-{side}"].append(move_ms(states, args.iterations, python))
    after = load_average()
    median = {name: statistics.median(values) for name, values in rows.items()}
    print(f"{args.positions} positions, {args.rounds} rounds, ismcts:iterations={args.iterations} "
          "(heuristic roll-outs, one thread); medians of the rounds:")
    print(f"  knowledge read: C++ {median['knowledge-c++']:.1f} us, "
          f"Python {median['knowledge-python']:.1f} us "
          f"({median['knowledge-python'] / median['knowledge-c++']:.1f}x)")
    print(f"  an ISMCTS move: C++ knowledge {median['move-c++']:.2f} ms, Python knowledge "
          f"{median['move-python']:.2f} ms ({median['move-python'] / median['move-c++']:.2f}x)")
    if before is not None and after is not None:
        print(f"load average (1 min): {before:.2f} before, {after:.2f} after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
