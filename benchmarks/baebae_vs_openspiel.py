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

import sys
from typing import Any

from harness import STREAM, Pick, Runner, cardroom_runner, openspiel_runner, run_benchmark

from cardroom.games import baebae

GOAL = 3.0
"""The ratio BAEBAE rounds / crazy_eights games per second that the project aims for."""


def baebae_runner(pick: Pick) -> Runner:
    """Play 4-player BAEBAE games of one round with the sample deck."""
    rules = baebae.Rules(players=4, rounds=1, stream=STREAM)
    return cardroom_runner(rules.new_game, lambda state: state.round_no, pick)


def crazy_eights_runner(pick: Pick, pyspiel: Any) -> Runner:
    """Play OpenSpiel ``crazy_eights(players=4)`` games with its other parameters default."""
    return openspiel_runner("crazy_eights(players=4)", pick, pyspiel)


if __name__ == "__main__":
    sys.exit(run_benchmark(
        "baebae_vs_openspiel", __doc__.split("\n\n")[0], ("baebae", baebae_runner),
        [("crazy_eights", crazy_eights_runner)], unit="rounds", goals={"crazy_eights": GOAL},
    ))
