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

import itertools
import sys
import time
from typing import Any

from harness import Pick, Runner, run_benchmark

from cardroom.games import baha

GOAL = 2.0
"""The ratio Baha / hearts in hands per second that the project aims for."""


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


if __name__ == "__main__":
    sys.exit(run_benchmark(
        "baha_vs_openspiel", __doc__.split("\n\n")[0], ("baha", baha_runner),
        ("hearts", hearts_runner), unit="hands", goal=GOAL,
    ))
