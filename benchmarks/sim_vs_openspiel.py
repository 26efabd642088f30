"""Simulation speed on every core: Cardroom's ``run_games`` against OpenSpiel's C++ ``evaluate_bots``.

Cardroom plays 4-player Baha games of target 1 (one hand each) between random bots with
:func:`cardroom.sim.tournament.run_games` and ``workers=0`` (one process per core), the way
``cardroom simulate`` runs; the time includes starting the worker processes. OpenSpiel plays
``hearts`` games (one hand each) with ``pyspiel.evaluate_bots`` and four C++ uniform random bots
in this one process: the whole game loop in C++. Rounds alternate (the order turning) with the
Python engine (``CARDROOM_ENGINE=python``, in a subprocess) where the game runs native.
Reported: hands per second of each and the median ratios; the goal is Cardroom on all cores at
least equal to OpenSpiel's C++ on one.

Run with ``make bench`` or ``python benchmarks/sim_vs_openspiel.py [--games 4000] [--json]``.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from harness import STREAM, Pick, Runner, run_benchmark

from cardroom.games import baha
from cardroom.sim.tournament import Lineup, run_games

GOAL = 1.0
"""Cardroom's hands per second on all cores over OpenSpiel's C++ evaluation on one core."""
GAMES = 4000
"""Games per batch: enough that starting the workers is a small part of a batch."""


def cardroom_runner(pick: Pick) -> Runner:
    """Batches of ``GAMES`` one-hand Baha games of random bots on every core."""
    rules = baha.Rules(players=4, target=1, stream=STREAM)
    lineup = Lineup.parse("random", 4)
    seeds = iter(range(0, 1 << 62, GAMES))

    def run(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        hands = actions = 0
        start = clock()
        while True:
            results = run_games(rules, GAMES, next(seeds), lineup, workers=0)
            hands += sum(r.deals for r in results)
            actions += sum(r.actions for r in results)
            now = clock()
            if now - start >= seconds:
                return hands, actions, now - start

    return run


def evaluate_bots_runner(pick: Pick, pyspiel: Any) -> Runner:
    """``hearts`` games of four C++ uniform random bots through ``pyspiel.evaluate_bots``."""
    game = pyspiel.load_game("hearts")
    seeds = iter(range(1 << 30))

    def run(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        games = 0
        start = clock()
        end = start + seconds
        while True:
            seed = next(seeds)
            bots = [pyspiel.make_uniform_random_bot(p, seed * 4 + p) for p in range(4)]
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
            games += 1
            now = clock()
            if now >= end:
                return games, 0, now - start  # decisions are not counted by evaluate_bots

    return run


if __name__ == "__main__":
    sys.exit(run_benchmark(
        "sim_vs_openspiel", __doc__.split("\n\n")[0], ("baha_sim", cardroom_runner),
        [("openspiel_cpp_evaluate_bots", evaluate_bots_runner)], unit="hands",
        goals={"openspiel_cpp_evaluate_bots": GOAL}, game="baha",
    ))
