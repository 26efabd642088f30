"""How much BAEBAE's world inference (``ismcts:infer``, native/cardroom/baebae_infer.hpp) learns
of the other seats' hands: at positions of games of four heuristics, the share of each other
seat's hand cards that a world puts in that seat's hand, for worlds dealt from the seat's
knowledge as the plain search deals them and for the same worlds weighed by the opponent model.

    python benchmarks/baebae_infer_accuracy.py --games 30 --every 5 --worlds 200 --epsilon 0.25
"""

from __future__ import annotations

import argparse
import math
import os
import random
import time
from collections import Counter
from typing import Any

from cardroom.agents import make
from cardroom.games import baebae


def designs(state: Any, mask: int) -> Counter[int]:
    card_of = state.rules.card_of
    return Counter(card_of[pid] for pid in range(len(card_of)) if mask >> pid & 1)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--every", type=int, default=5, help="a position every this many actions")
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--epsilon", type=float, default=0.25)
    args = parser.parse_args()
    rules = baebae.Rules(players=4, rounds=1)
    plain = weighed = cards = 0.0
    positions = judged = 0
    effective = 0.0
    started = time.perf_counter()
    for seed in range(args.games):
        state = rules.new_game(seed)
        bots = [make("heuristic", seed=seed * 10 + s) for s in range(state.n)]
        moves = 0
        while not state.is_over and moves < 300:
            seat = state.current_player
            if moves % args.every == args.every - 1 and seat is not None:
                worlds = [state.determinize(seat, random.Random(k)) for k in range(args.worlds)]
                chances = [state.native_infer_chances(seat, w, args.epsilon) for w in worlds]
                logs = [sum(math.log(c) for *_, c in found) for found in chances]
                top = max(logs)
                weights = [math.exp(x - top) for x in logs]
                total = sum(weights)
                effective += total * total / sum(w * w for w in weights) / len(weights)
                judged += len(chances[0])
                positions += 1
                for p in range(state.n):
                    true = designs(state, state.hands[p])
                    if p == seat or not true:
                        continue
                    for world, weight in zip(worlds, weights, strict=True):
                        hits = sum((designs(world, world.hands[p]) & true).values())
                        plain += hits / len(worlds)
                        weighed += hits * weight / total
                    cards += sum(true.values())
            state.apply(bots[state.current_player].act(state, state.current_player))
            moves += 1
    print(f"BAEBAE, 4 heuristics, {args.games} games, a position every {args.every} actions: {positions} "
          f"positions, {args.worlds} worlds each, epsilon {args.epsilon}; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {os.getloadavg()[0]:.2f}, "
          f"{time.perf_counter() - started:.0f} s")
    print(f"decisions judged a position: {judged / positions:.1f}")
    print(f"other seats' hand cards a world puts in the right hand: plain {plain / cards:.1%}, "
          f"weighed {weighed / cards:.1%}")
    print(f"the pool's effective size: {effective / positions:.0%} of its worlds")


if __name__ == "__main__":
    main()
