"""Playing strength: Cardroom's ISMCTS against OpenSpiel's ``ISMCTSBot`` on Baha, duplicate deals.

Each deal is one Baha hand (four players, default rules), played twice through the OpenSpiel
adapter (``cardroom.openspiel``): Cardroom's ``ismcts`` in seats 0 and 2 and OpenSpiel's
``ISMCTSBot`` in seats 1 and 3, then the seats swapped, so both sides hold the same cards. A
side's score for a deal is the mean of the four hands it played; the paired difference is
Cardroom's minus OpenSpiel's, deal by deal (negative: Cardroom took fewer horns).

Budgets per move (``--budget``):

- ``time``: ``--seconds`` of thinking each (default 0.2). OpenSpiel's ``ISMCTSBot`` counts
  simulations only, so it runs here as :class:`TimedISMCTSBot`: its own search, simulations
  run until the deadline instead of to a count (at least two, which its final choice needs).
- ``iterations``: ``--iterations`` each (default 200): Cardroom's iterations, OpenSpiel's
  simulations.

Cardroom's bot is ``ismcts`` with its defaults (heuristic rollouts, the game's UCB constant;
``--rollout random`` for random rollouts like OpenSpiel's);
OpenSpiel's is ``ISMCTSBot`` with a one-rollout ``RandomRolloutEvaluator`` (OpenSpiel's
standard evaluator), the same UCB constant as Cardroom's for Baha (``--uct``; both searches
back up ``returns()``, so the same constant means the same exploration), and the final move
the most visited (``MAX_VISIT_COUNT``), as Cardroom's.

Run: ``python benchmarks/ismcts_head_to_head.py --deals 100 --budget time --seconds 0.2``. A run
written with ``--json`` can be continued from another deal (``--first``), and
``--report FILE...`` gives the figures of its parts together.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

try:
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError:
    print("OpenSpiel is not installed: run `make install` (the openspiel extra)", file=sys.stderr)
    sys.exit(2)

from cardroom import games, openspiel
from cardroom.agents import make
from cardroom.agents.ismcts import ISMCTSAgent

GAME = "baha"
OURS, THEIRS = "cardroom", "openspiel"


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS with a deadline per move instead of a number of simulations:
    ``run_search`` as OpenSpiel writes it, the loop bounded by the clock."""

    def __init__(self, *args: Any, seconds: float, **kwargs: Any) -> None:
        super().__init__(*args, max_simulations=1, **kwargs)
        self.seconds = seconds
        self.last_simulations = 0

    def run_search(self, state: Any) -> Any:
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            self.last_simulations = 0
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        deadline = time.perf_counter() + self.seconds
        done = 0
        # two at least: the first simulation only expands the root, and OpenSpiel's final
        # policy needs a visit below it
        while done < 2 or time.perf_counter() < deadline:
            sampled = self.sample_root_state(state)
            assert root_key == self.get_state_key(sampled)
            self.run_simulation(sampled)
            done += 1
        self.last_simulations = done
        return self.get_final_policy(state, self._root_node)


class CountingISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS as it is, counting the simulations of its last search."""

    last_simulations = 0

    def run_search(self, state: Any) -> Any:
        forced = len(state.legal_actions()) == 1
        self.last_simulations = 0 if forced else self._max_simulations
        return super().run_search(state)


def play(deal: int, ours_seats: Sequence[int], args: argparse.Namespace, game: Any,
         counts: dict[str, list[int]]) -> list[int]:
    """One hand from the seed ``deal``; the points each seat took."""
    seed = 1000 * args.seed + deal
    ours = make("ismcts", seed=seed, **_our_options(args))
    assert isinstance(ours, ISMCTSAgent)
    theirs = _their_bot(game, args, seed)
    state = game.new_initial_state()
    state.apply_action(deal)
    while not state.is_terminal():
        seat = state.current_player()
        if seat in ours_seats:
            action = ours.act(state.cardroom, seat)
            done, side = ours.last_iterations, OURS
        else:
            action = theirs.step(state)
            done, side = theirs.last_simulations, THEIRS
        if done:
            counts[side].append(done)
        state.apply_action(action)
    spec = games.get(GAME)
    points = next(p for p in map(spec.deal_points, state.cardroom.log) if p is not None)
    return points


def _our_options(args: argparse.Namespace) -> dict[str, Any]:
    if args.budget == "time":
        return {"seconds": args.seconds, "rollout": args.rollout}
    return {"iterations": args.iterations, "rollout": args.rollout}


def _their_bot(game: Any, args: argparse.Namespace, seed: int) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed % 2**32))
    options: dict[str, Any] = {
        "uct_c": args.uct, "random_state": np.random.RandomState((seed + 1) % 2**32),
        "final_policy_type": ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    }
    if args.budget == "time":
        return TimedISMCTSBot(game, evaluator, seconds=args.seconds, **options)
    return CountingISMCTSBot(game, evaluator, max_simulations=args.iterations, **options)


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% interval (normal approximation over deals)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="deals, each played twice (default 20)")
    parser.add_argument("--first", type=int, default=0, help="seed of the first deal (default 0)")
    parser.add_argument("--budget", choices=("time", "iterations"), default="time")
    parser.add_argument("--seconds", type=float, default=0.2, help="thinking time per move (time budget)")
    parser.add_argument("--iterations", type=int, default=200, help="iterations per move (iterations budget)")
    parser.add_argument("--rollout", choices=("heuristic", "random"), default="heuristic",
                        help="Cardroom's rollouts (default heuristic, its default)")
    parser.add_argument("--uct", type=float, default=games.get(GAME).exploration,
                        help="OpenSpiel's UCB constant (default: Cardroom's for Baha)")
    parser.add_argument("--seed", type=int, default=0, help="seed of both bots' own choices")
    parser.add_argument("--json", metavar="FILE", help="also write every deal's figures to FILE")
    parser.add_argument("--report", metavar="FILE", nargs="+",
                        help="play nothing: the figures of runs written with --json, together")
    args = parser.parse_args(argv)
    if args.report:
        return report_files(args.report)
    if args.deals < 1 or args.first < 0 or args.first + args.deals > openspiel.DEAL_OUTCOMES:
        parser.error(f"deals must lie within the adapter's seeds 0 to {openspiel.DEAL_OUTCOMES - 1}")

    game = openspiel.load(GAME)
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    counts: dict[str, list[int]] = {OURS: [], THEIRS: []}
    rows = []
    for deal in range(args.first, args.first + args.deals):
        a = play(deal, (0, 2), args, game, counts)
        b = play(deal, (1, 3), args, game, counts)
        ours = (a[0] + a[2] + b[1] + b[3]) / 4
        theirs = (a[1] + a[3] + b[0] + b[2]) / 4
        rows.append({"deal": deal, OURS: ours, THEIRS: theirs, "first": a, "swapped": b})
        print(f"deal {deal}: cardroom {ours:.2f}, openspiel {theirs:.2f} horns a hand "
              f"({time.perf_counter() - started:.0f} s)", flush=True)
        if args.json:  # written after every deal, so that a run cut short still tells its deals
            with open(args.json, "w") as out:
                json.dump({"args": vars(args), "deals": rows, "iterations": counts}, out)

    budget = f"{args.seconds} s a move" if args.budget == "time" else f"{args.iterations} iterations a move"
    budget += f", Cardroom's rollouts {args.rollout}"
    print(f"\n{time.perf_counter() - started:.0f} s; load average {load_before:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after")
    summary = report(rows, counts, budget)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"args": vars(args), "summary": summary, "deals": rows, "iterations": counts}, out)
    return 0


def report(rows: Sequence[dict[str, Any]], counts: dict[str, list[int]], budget: str) -> dict[str, Any]:
    """Print the figures of ``rows`` (one per deal); the same as a dict."""
    print(f"Baha, {len(rows)} duplicate deals ({4 * len(rows)} seat-hands a side), {budget}:")
    summary: dict[str, Any] = {"deals": len(rows), "budget": budget}
    for side in (OURS, THEIRS):
        mean, low, high = interval([r[side] for r in rows])
        searched = counts[side]
        per_move = statistics.fmean(searched) if searched else 0.0
        print(f"  {side:9} {mean:6.2f} horns a hand [{low:.2f}, {high:.2f}]; "
              f"{per_move:.0f} iterations a searched move on average")
        summary[side] = {"mean": mean, "interval": [low, high], "iterations_per_move": per_move}
    mean, low, high = interval([r[OURS] - r[THEIRS] for r in rows])
    print(f"  paired difference, cardroom - openspiel: {mean:.2f} [{low:.2f}, {high:.2f}] horns a hand")
    summary["difference"] = {"mean": mean, "interval": [low, high]}
    return summary


def report_files(paths: Sequence[str]) -> int:
    """The figures of runs written with ``--json`` (parts of one run: other deals, the same
    options), taken together."""
    rows: list[dict[str, Any]] = []
    counts: dict[str, list[int]] = {OURS: [], THEIRS: []}
    budgets = set()
    for path in paths:
        with open(path) as source:
            run = json.load(source)
        options = run["args"]
        budgets.add((options["budget"], options["seconds"] if options["budget"] == "time"
                     else options["iterations"], options.get("rollout", "heuristic")))
        rows += run["deals"]
        for side in (OURS, THEIRS):
            counts[side] += run["iterations"][side]
    if len(budgets) != 1:
        print(f"the runs have different budgets: {sorted(budgets)}", file=sys.stderr)
        return 2
    deals = [r["deal"] for r in rows]
    if len(set(deals)) != len(deals):
        print("the runs share deals: give each deal once", file=sys.stderr)
        return 2
    kind, amount, rollout = budgets.pop()
    unit = "s a move" if kind == "time" else "iterations a move"
    report(rows, counts, f"{amount} {unit}, Cardroom's rollouts {rollout}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
