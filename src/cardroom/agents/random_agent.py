"""The random agent: a uniformly random legal action, from its own seeded generator."""

from __future__ import annotations

import random

from cardroom.engine import Action, State

__all__ = ["RandomAgent"]


class RandomAgent:
    """Plays a uniformly random legal action. Reads nothing but ``legal_actions``."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, state: State, seat: int) -> Action:
        actions = state.legal_actions()
        return actions[self.rng.randrange(len(actions))]
