"""Baha: a trick-taking game of avoiding horned cards (see ``docs/rules-baha.md``).

>>> from cardroom.games import baha
>>> state = baha.Rules(players=4).new_game(seed=1)
>>> state.phase.value, len(state.view(0)["hand"])
('pass', 13)
"""

from cardroom.games.baha.rules import Deal, Rules
from cardroom.games.baha.state import HIDDEN, NUM_ACTIONS, PASS_BASE, BahaState, Phase

__all__ = ["Rules", "Deal", "BahaState", "Phase", "PASS_BASE", "NUM_ACTIONS", "HIDDEN"]
