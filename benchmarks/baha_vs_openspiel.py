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

import sys
from typing import Any

from harness import STREAM, Pick, Runner, cardroom_runner, openspiel_runner, run_benchmark

from cardroom.games import baha

GOAL = 3.0
"""The ratio Baha / hearts in hands per second that the project aims for."""


def baha_runner(pick: Pick) -> Runner:
    """Play 4-player Baha games of target 1 (one hand each, more only on a tie for low)."""
    rules = baha.Rules(players=4, target=1, stream=STREAM)
    return cardroom_runner(rules.new_game, lambda state: state.hand_no, pick)


def hearts_runner(pick: Pick, pyspiel: Any) -> Runner:
    """Play OpenSpiel ``hearts`` games (one hand each) with default parameters."""
    return openspiel_runner("hearts", pick, pyspiel)


if __name__ == "__main__":
    sys.exit(run_benchmark(
        "baha_vs_openspiel", __doc__.split("\n\n")[0], ("baha", baha_runner),
        [("hearts", hearts_runner)], unit="hands", goals={"hearts": GOAL},
    ))
