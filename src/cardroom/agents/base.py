"""What an agent is, and the error a bad agent name or option raises: the base every bot's
module imports (the registry in :mod:`cardroom.agents` imports the bots, never the reverse)."""

from __future__ import annotations

from typing import Protocol

from cardroom.engine import Action, State

__all__ = ["Agent", "AgentError"]


class Agent(Protocol):
    """Chooses an action for a seat."""

    name: str

    def act(self, state: State, seat: int) -> Action:
        """The action ``seat`` takes in ``state`` (it is ``seat``'s turn)."""


class AgentError(ValueError):
    """An unknown agent name or a bad agent option; the message says what is allowed."""
