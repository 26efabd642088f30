"""How much the ISMCTS ``infer`` option's weights know, and what they cost (Baha, native engine).

Positions: 4-player Baha games of four heuristics (seeds ``--seed`` on), a moment every few
card plays of the first hand. At each, for the seat to act:

- worlds: ``--worlds`` worlds dealt from the seat's knowledge (``native_determinize``), each
  weighed by the opponent model (``native_infer_chances``, noise ``--epsilon``). Reported: the
  share of the other seats' hidden hand cards a world puts in the right hand, on average over
  the plain worlds and over the weighted ones (the pool's posterior), the pool's effective
  size (sum of weights squared over the sum of squared weights) as a share of the worlds, and
  the share of the worlds that weigh more than the true deal;
- cost: CPU seconds of one ``ismcts:iterations=N`` search, plain and with ``infer=N``.

Run: ``python benchmarks/ismcts_infer.py [--games 6] [--worlds 300] [--iterations 1000]``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

from cardroom import native
from cardroom.agents import make
from cardroom.games import baha


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=300)
    parser.add_argument("--epsilon", type=float, default=0.25)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--every", type=int, default=6, help="card plays between two positions")
    args = parser.parse_args(argv)
    if not native.native_for("baha"):
        print("the native engine is not in use for Baha: build it and leave CARDROOM_ENGINE unset",
              file=sys.stderr)
        return 2
    rows: list[tuple[int, float, float, float, float]] = []  # (judged, plain, weighted, ess, above truth)
    cpu = {"plain": 0.0, "infer": 0.0}
    searches = 0
    for game in range(args.games):
        seed = args.seed + game
        state = baha.Rules(players=4).new_game(seed)
        bots = [make("heuristic", seed=seed * 10 + s) for s in range(4)]
        plays = 0
        while not state.is_over and state.deal_number == 1:
            seat = state.current_player
            assert seat is not None
            if state.phase_code == 1 and plays and plays % args.every == 0:
                rows.append(judge(state, seat, args.worlds, args.epsilon, seed))
                for name, options in (("plain", {}), ("infer", {"infer": args.iterations})):
                    bot = make("ismcts", seed=seed, iterations=args.iterations, **options)
                    start = time.process_time()
                    bot.act(state, seat)
                    cpu[name] += time.process_time() - start
                searches += 1
            action = bots[seat].act(state, seat)
            plays += state.phase_code == 1
            state.apply(action)
    print(f"{len(rows)} positions from {args.games} games, {args.worlds} worlds each, epsilon {args.epsilon}")
    print("plays judged | right cards, plain worlds | right cards, weighted | effective pool share "
          "| worlds above the truth")
    for low, high in ((1, 13), (13, 26), (26, 52)):
        chosen = [r for r in rows if low <= r[0] < high]
        if chosen:
            mean = [sum(r[k] for r in chosen) / len(chosen) for k in (1, 2, 3, 4)]
            shown = " | ".join(f"{m:.3f}" for m in mean)
            print(f"{low:>2}-{high - 1:<2} ({len(chosen):>2}) | {shown}")
    mean = [sum(r[k] for r in rows) / len(rows) for k in (1, 2, 3, 4)]
    print(f"all ({len(rows)}) | " + " | ".join(f"{m:.3f}" for m in mean))
    print(f"CPU seconds a search, {args.iterations} iterations: plain {cpu['plain'] / searches:.4f}, "
          f"infer={args.iterations} {cpu['infer'] / searches:.4f} ({searches} searches)")
    return 0


def judge(
    state: baha.BahaState, seat: int, worlds: int, epsilon: float, seed: int,
) -> tuple[int, float, float, float, float]:
    """(plays of others judged, plain right share, weighted right share, effective size share,
    share of the worlds weighing more than the true deal)."""
    shares, logs = [], []
    judged = 0
    for k in range(worlds):
        world = state.native_determinize(seat, seed * 100_003 + k)  # type: ignore[attr-defined]
        chances = state.native_infer_chances(seat, world, epsilon)  # type: ignore[attr-defined]
        judged = len(chances)
        logs.append(sum(math.log(c) for *_, c in chances))
        right = total = 0
        for p in range(state.n):
            if p == seat:
                continue
            right += (world.hands[p] & state.hands[p]).bit_count()
            total += state.hands[p].bit_count()
        shares.append(right / total if total else 1.0)
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    total_weight = sum(weights)
    weighted = sum(w * s for w, s in zip(weights, shares, strict=True)) / total_weight
    ess = total_weight**2 / sum(w * w for w in weights)
    truth = sum(math.log(c) for *_, c in state.native_infer_chances(seat, state, epsilon))  # type: ignore[attr-defined]
    above = sum(x > truth for x in logs) / worlds
    return judged, sum(shares) / len(shares), weighted, ess / worlds, above


if __name__ == "__main__":
    sys.exit(main())
