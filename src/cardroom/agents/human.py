"""A person at a seat: the front (terminal or web) supplies how to ask them."""

from __future__ import annotations

from collections.abc import Callable

from cardroom.engine import Action, State

__all__ = ["HumanAgent"]


class HumanAgent:
    """Asks a person through ``ask(state, seat)``, which a front provides."""

    name = "human"

    def __init__(self, ask: Callable[[State, int], Action] | None = None) -> None:
        if ask is None:
            from cardroom.agents import AgentError

            raise AgentError("the human agent is driven by a front: give it ask=(state, seat) -> action")
        self.ask = ask

    def act(self, state: State, seat: int) -> Action:
        return self.ask(state, seat)
