"""Playing strength: the native ISMCTS against the Python ISMCTS at equal iterations, duplicate deals.

Both are Cardroom's ``ismcts`` with the same options (``--iterations`` per move, heuristic
roll-outs unless ``--rollout random``, Baha's UCB constant): ``engine=native`` in seats 0 and
2, ``engine=python`` in seats 1 and 3, and every deal played again with the seats turned
(``cardroom.sim.duplicate``), so both sides hold the same cards. A deal is one Baha hand
(four players, default rules, ``target=1``: the game ends when the hand is scored, unless the
lowest score is shared); with ``--game baebae``, one round of 4-player BAEBAE (default rules,
``rounds=1``), BAEBAE's UCB constant, in penalty points. Reported: each side's mean horns
(points) per deal and the paired difference native minus Python with its 95% interval: within
noise, the interval holds 0.

Run: ``python benchmarks/ismcts_native_strength.py --deals 24 --iterations 100`` (a strength
check, not a timed figure; about a minute on one core at these sizes).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from harness import STREAM

from cardroom import native
from cardroom.games import baebae, baha
from cardroom.sim import Lineup
from cardroom.sim.duplicate import run_duplicate, summarize_duplicate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--rollout", choices=("heuristic", "random"), default="heuristic")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--game", choices=("baha", "baebae"), default="baha")
    args = parser.parse_args(argv)
    if not native.native_for(args.game):
        print(f"the native engine is not in use for {args.game}: build it and leave CARDROOM_ENGINE unset",
              file=sys.stderr)
        return 2
    unit = "horns/hand" if args.game == "baha" else "points/round"
    common = f"ismcts:iterations={args.iterations}:rollout={args.rollout}"
    ours, theirs = f"{common}:engine=native", f"{common}:engine=python"
    lineup = Lineup((ours, theirs, ours, theirs))
    rules: baha.Rules | baebae.Rules = (
        baha.Rules(players=4, target=1, stream=STREAM) if args.game == "baha"
        else baebae.Rules(players=4, rounds=1, stream=STREAM))
    start = time.perf_counter()
    lineups, results = run_duplicate(rules, args.deals, args.seed, lineup, workers=args.workers)
    seconds = time.perf_counter() - start
    summary = summarize_duplicate(rules, lineup, lineups, results, args.seed, seconds)
    for agent in summary["agents"]:
        ci = agent["mean_points"]
        low, high = ci["low"], ci["high"]
        print(f"{agent['agent']:<50} {ci['value']:7.3f} {unit} (95% {low:.3f} to {high:.3f})")
    diff = summary["pairs"][0]["difference"]
    interval = f"95% {diff['low']:+.3f} to {diff['high']:+.3f}"
    print(f"native - python: {diff['value']:+.3f} {unit} ({interval}), "
          f"{summary['deals']} deals, {summary['games']} games, {seconds:.1f} s")
    print(json.dumps({"difference": diff, "deals": summary["deals"], "games": summary["games"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
