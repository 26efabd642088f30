"""BAEBAE: a shedding game whose cards are characters with actions (``docs/rules-baebae.md``).

>>> from cardroom.games import baebae
>>> state = baebae.Rules(players=4).new_game(seed=1)
>>> state.phase.value, len(state.view(1)["hand"])
('play', 5)
"""

from cardroom.games.baebae.deck import CardDef, Deck, DeckError, load_deck, parse_deck
from cardroom.games.baebae.rules import Rules
from cardroom.games.baebae.state import HIDDEN, ActionSpace, BaebaeState, Deal, Decision, Phase

__all__ = [
    "Rules", "Deal", "BaebaeState", "Phase", "Decision", "ActionSpace", "HIDDEN",
    "CardDef", "Deck", "DeckError", "load_deck", "parse_deck",
]
