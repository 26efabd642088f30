"""The random agent: a uniformly random legal action, from its own seeded generator."""

from __future__ import annotations

from cardroom.agents.base import StreamSeeded
from cardroom.engine import Action, State

__all__ = ["RandomAgent"]


class RandomAgent(StreamSeeded):
    """Plays a uniformly random legal action. Reads nothing but ``legal_actions``."""

    name = "random"

    def act(self, state: State, seat: int) -> Action:
        actions = state.legal_actions()
        return actions[self.follow(state).randrange(len(actions))]
