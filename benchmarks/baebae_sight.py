"""How much BAEBAE's games won depend on what a player knows: the native ISMCTS dealt its
worlds from the seat's knowledge (``sight 0``, the search every agent runs), from every hand as
it is with the stockpile shuffled again (``sight 1``), or from the whole true position, the
stockpile's order too (``sight 2``), one such seat among three heuristics on duplicate deals.

Sights 1 and 2 see cards no seat may see: they are bounds on what knowledge is worth (what
world inference could at best recover), never players. They are built for this script only
(the native binding's ``sight`` argument); no agent option, front or record reaches them.

    python benchmarks/baebae_sight.py --deals 100 --seed 5000 --iterations 1000 --sight 0 1 2
    python benchmarks/baebae_sight.py --deals 100 --seed 5000 --iterations 1000 --sight 1 --reward win

``--agents`` adds agents of the registry (any spec) to the rows, each in the same seat among
three heuristics on the same deals; every row after the first is paired with the first, deal by
deal (its penalty a round and its share of the games won over the deal's four rotations):

    python benchmarks/baebae_sight.py --deals 300 --sight --agents ismcts:iterations=1000 \
        ismcts:iterations=1000:infer=1000
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Any

from cardroom.agents import AGENTS, AgentKind
from cardroom.agents.base import AgentError
from cardroom.analysis.stats import paired_difference
from cardroom.games import baebae, get
from cardroom.native import core
from cardroom.sim.duplicate import run_duplicate, summarize_duplicate
from cardroom.sim.tournament import Lineup


class SightedSearch:
    """The native BAEBAE ISMCTS with its worlds dealt at ``sight`` (see the module)."""

    def __init__(self, seed: int | None, sight: int = 0, iterations: int = 1000, reward: str = "points",
                 horizon: str = "round", epsilon: float = 0.1, exploration: float | None = None) -> None:
        if sight not in (0, 1, 2):
            raise AgentError(f"sight is 0, 1 or 2, not {sight!r}")
        self.rng = random.Random(seed)
        self.sight, self.iterations, self.epsilon = sight, iterations, epsilon
        self.win, self.whole_game = reward == "win", horizon == "game"
        self.exploration = get("baebae").exploration if exploration is None else exploration

    def act(self, state: Any, seat: int) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        action, _, _ = core().baebae_ismcts(state, state.native_knowledge(seat), core().SearchOptions(
            iterations=self.iterations, seconds=0.0, exploration=self.exploration, heuristic=True,
            epsilon=self.epsilon, max_depth=200, seed=self.rng.getrandbits(64), threads=1, win=self.win,
            whole_game=self.whole_game, sight=self.sight))
        return int(action)


AGENTS["sighted"] = AgentKind(lambda seed, **options: SightedSearch(seed, **options), {
    "sight": "0, 1 or 2", "iterations": "per move", "reward": "points or win", "horizon": "round or game",
    "epsilon": "the roll-outs' noise", "exploration": "the UCB constant",
})


def per_deal(spec: str, lineups: list[Lineup], results: list[list[Any]]) -> tuple[list[float], list[float]]:
    """Per deal, ``spec``'s mean penalty a round and its share of the deal's games won."""
    points, wins = [], []
    for row in results:
        total = rounds = 0
        won = 0.0
        for rot, result in enumerate(row):
            seat = lineups[rot].specs.index(spec)
            for deal_points in result.deal_points:
                total += deal_points[seat]
                rounds += 1
            if seat in result.winners:
                won += 1 / len(result.winners)
        points.append(total / rounds)
        wins.append(won / len(row))
    return points, wins


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--sight", type=int, nargs="*", default=[0, 1, 2])
    parser.add_argument("--agents", nargs="*", default=[], help="more rows: agent specs of the registry")
    parser.add_argument("--reward", choices=["points", "win"], default="points")
    parser.add_argument("--horizon", choices=["round", "game"], default="round")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    rules = baebae.Rules()
    print(f"BAEBAE {rules.to_dict()['players']} players, {args.deals} duplicate deals from seed {args.seed}, "
          f"one seat of each row among three heuristics (sights: {args.iterations} iterations, reward "
          f"{args.reward}, horizon {args.horizon}); {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"load {os.getloadavg()[0]:.2f}")
    print("| row | games won [95%] | penalty a round, minus the heuristics' [95%] | minus the first row: "
          "penalty [95%] | games won [95%] | wall |")
    print("| --- | --- | --- | --- | --- | ---: |")
    rows = [(f"sighted:sight={sight}:iterations={args.iterations}:reward={args.reward}"
             f":horizon={args.horizon}", f"sight {sight}") for sight in args.sight]
    rows += [(spec, spec) for spec in args.agents]
    first: tuple[list[float], list[float]] | None = None
    for spec, label in rows:
        lineup = Lineup((spec, "heuristic", "heuristic", "heuristic"))
        started = time.perf_counter()
        lineups, results = run_duplicate(rules, args.deals, args.seed, lineup, workers=args.workers)
        wall = time.perf_counter() - started
        summary = summarize_duplicate(rules, lineup, lineups, results, args.seed, wall)
        won = next(a for a in summary["agents"] if a["agent"] == spec)["win_rate"]
        diff = summary["pairs"][0]["difference"]
        mine = per_deal(spec, lineups, results)
        versus = "| |"
        if first is None:
            first = mine
        else:
            dp = paired_difference(mine[0], first[0])
            dw = paired_difference(mine[1], first[1])
            versus = (f"{dp.value:+.2f} [{dp.low:+.2f}, {dp.high:+.2f}] | "
                      f"{dw.value:+.1%} [{dw.low:+.1%}, {dw.high:+.1%}] |")
        print(f"| {label} | {won['value']:.1%} [{won['low']:.1%}, {won['high']:.1%}] | "
              f"{diff['value']:+.2f} [{diff['low']:+.2f}, {diff['high']:+.2f}] | {versus} {wall:.0f} s |",
              flush=True)


if __name__ == "__main__":
    main()
