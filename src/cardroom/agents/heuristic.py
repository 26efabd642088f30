"""The heuristic agent: one readable rule list per game, found through the game's spec."""

from __future__ import annotations

from typing import Any

from cardroom.engine import Action, State

__all__ = ["HeuristicAgent"]


class HeuristicAgent:
    """Plays each game with that game's rules of thumb (the spec's ``heuristic``, such as
    ``baha_heuristic`` and ``baebae_heuristic``); reads only its seat's view and legal actions.
    A game without one is an :class:`~cardroom.agents.AgentError` naming the game."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._players: dict[str, Any] = {}

    def act(self, state: State, seat: int) -> Action:
        game = state.rules.game
        player = self._players.get(game)
        if player is None:
            spec = state.rules.spec
            if spec.heuristic is None:
                from cardroom.agents.base import AgentError

                raise AgentError(f"{game} has no heuristic bot: play it with random or ismcts:rollout=random")
            player = self._players[game] = spec.load("heuristic")(self.seed)
        action: Action = player.act(state, seat)
        return action
