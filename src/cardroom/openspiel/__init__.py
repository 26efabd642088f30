"""Cardroom's games as OpenSpiel games, so that OpenSpiel's algorithms play them.

Importing this module registers every game in Cardroom's registry with ``pyspiel`` as a
Python game named ``python_cardroom_<name>`` (``python_cardroom_baha``,
``python_cardroom_baebae``), as OpenSpiel's own Python games register on import
(:func:`register` adds games registered with Cardroom since). The parameters are the game's
rule options, ``players``, and ``deals`` (how many deals one OpenSpiel episode lasts). The
adapter names no game: it reads each game's options, players, action space, bounds and
observation from the registry. See ``docs/openspiel.md``.

>>> from cardroom import openspiel
>>> game = openspiel.load("baha", target=1)
>>> game.get_type().short_name, game.num_players(), game.num_distinct_actions()
('python_cardroom_baha', 4, 104)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()) == openspiel.DEAL_OUTCOMES
(True, True)
>>> state.apply_action(7)     # the deal: the engine shuffles from seed 7
>>> state.current_player()
1
"""

from __future__ import annotations

from cardroom.openspiel.game import (
    BY_PLAYERS,
    DEAL_OUTCOMES,
    PREFIX,
    CardroomGame,
    CardroomObserver,
    CardroomState,
    ObserverError,
    game_name,
    load,
    register,
)

__all__ = [
    "BY_PLAYERS",
    "DEAL_OUTCOMES",
    "PREFIX",
    "CardroomGame",
    "CardroomObserver",
    "CardroomState",
    "ObserverError",
    "game_name",
    "load",
    "register",
]

register()
