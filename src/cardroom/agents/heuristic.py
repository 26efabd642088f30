"""The heuristic agent: one readable rule list per game, chosen by the game being played."""

from __future__ import annotations

from typing import Any

from cardroom.engine import Action, State

__all__ = ["HeuristicAgent"]


class HeuristicAgent:
    """Plays each game with that game's rules of thumb (see ``baha_heuristic`` and
    ``baebae_heuristic``); reads only its seat's view and legal actions."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._players: dict[str, Any] = {}

    def act(self, state: State, seat: int) -> Action:
        game = state.rules.game
        player = self._players.get(game)
        if player is None:
            if game == "baha":
                from cardroom.agents.baha_heuristic import BahaHeuristic

                player = BahaHeuristic(self.seed)
            else:
                from cardroom.agents.baebae_heuristic import BaebaeHeuristic

                player = BaebaeHeuristic(self.seed)
            self._players[game] = player
        return player.act(state, seat)
