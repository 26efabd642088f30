"""Random self-play speed: Cardroom's BAEBAE against OpenSpiel's ``crazy_eights``, from Python.

Both engines are driven the same way through their public state API: the player to act takes
a uniformly random legal action, and the same ``pick`` chooses for both. BAEBAE is played by
4 with the project's sample deck and default rules except ``rounds=1``, so a game is one
round (deal, play until a hand is empty); every card action, coin and choice is carried out.
An OpenSpiel ``crazy_eights(players=4)`` game is one deal played out, its chance outcomes
(the dealer, the deal one card at a time, draws) sampled through ``chance_outcomes()``.

Rounds of ``--seconds`` alternate the two engines; reported: the median rounds (games) per
second of each, the per-round ratio BAEBAE / crazy_eights and its median, and decisions per
second as a supplement.

Run with ``make bench`` or ``python benchmarks/baebae_vs_openspiel.py [--json]``.
"""

from __future__ import annotations

import itertools
import sys
import time
from typing import Any

from harness import Pick, Runner, run_benchmark

from cardroom.games import baebae

GOAL = 2.0
"""The ratio BAEBAE rounds / crazy_eights games per second that the project aims for."""


def baebae_runner(pick: Pick) -> Runner:
    """Play 4-player BAEBAE games of one round with the sample deck."""
    rules = baebae.Rules(players=4, rounds=1)
    seeds = itertools.count()

    def run(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        rounds = decisions = 0
        start = clock()
        end = start + seconds
        while True:
            state = rules.new_game(seed=next(seeds))
            while not state.is_over:
                actions = state.legal_actions()
                state.apply(actions[pick(len(actions))])
                decisions += 1
            rounds += state.round_no
            now = clock()
            if now >= end:
                return rounds, decisions, now - start

    return run


def crazy_eights_runner(pick: Pick, pyspiel: Any) -> Runner:
    """Play OpenSpiel ``crazy_eights(players=4)`` games with its other parameters default."""
    game = pyspiel.load_game("crazy_eights(players=4)")

    def run(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        games = decisions = 0
        start = clock()
        end = start + seconds
        while True:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()  # uniform in crazy_eights
                    action = outcomes[pick(len(outcomes))][0]
                else:
                    actions = state.legal_actions()
                    action = actions[pick(len(actions))]
                    decisions += 1
                state.apply_action(action)
            games += 1
            now = clock()
            if now >= end:
                return games, decisions, now - start

    return run


if __name__ == "__main__":
    sys.exit(run_benchmark(
        "baebae_vs_openspiel", __doc__.split("\n\n")[0], ("baebae", baebae_runner),
        ("crazy_eights", crazy_eights_runner), unit="rounds", goal=GOAL,
    ))
