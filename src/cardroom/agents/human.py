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
            from cardroom.agents.base import AgentError

            raise AgentError(
                "human is a person at a front (the terminal's seat 0, a web seat), not a bot: the bots are "
                "random, heuristic, learned and ismcts; a front gives it ask=(state, seat) -> action"
            )
        self.ask = ask

    def act(self, state: State, seat: int) -> Action:
        return self.ask(state, seat)
