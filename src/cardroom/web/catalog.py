"""What a web table may be created with: games, their rule options, project decks, bots.

Each game comes with its title, whether it takes decks, and its renderer: the JavaScript
module the pages load to draw it, so the common pages name no game.

Rule options are described for people here (name, default, kind, bounds, a line of text);
the games' ``Rules`` classes stay the authority on what is valid.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from cardroom import games
from cardroom.games import make_rules
from cardroom.games.baebae.deck import CardDef, find_deck, project_decks
from cardroom.web.pages import has_rules

__all__ = ["BOTS", "catalog", "card_rows", "option_names", "players_range"]

BOTS = ["random", "heuristic", "ismcts"]
"""The bots a web table may seat (``human`` is a seat kind, not a bot)."""


def option_names(game: str) -> list[str]:
    """Rule options a web table may set for ``game`` (``players`` and ``deck`` apart)."""
    return [o.name for o in games.get(game).options]


@functools.cache
def _defaults(game: str) -> dict[str, Any]:
    # An option whose default depends on the number of players has none to show (null).
    unset = {o.name: None for o in games.get(game).options if o.by_players}
    return make_rules(game, {}).to_dict() | unset


def players_range(game: str) -> tuple[int, int]:
    """Fewest and most players of ``game`` with its default options."""
    return games.get(game).players()


def catalog() -> dict[str, Any]:
    """The answer of ``GET /api/catalog``."""
    described: dict[str, Any] = {}
    for game in games.names():
        spec = games.get(game)
        defaults = _defaults(game)
        described[game] = {
            "title": spec.title,
            "options": [{**o.describe(), "default": defaults[o.name]} for o in spec.options],
            "players": list(players_range(game)),
            "decks": spec.decks,
            # The pages import this module to draw the game (static/games/*.js).
            "renderer": f"/static/{spec.web_renderer}" if spec.web_renderer else None,
            "rules": f"/rules/{game}" if has_rules(game) else None,
        }
    decks = []
    for name in project_decks():
        deck = find_deck(name)
        decks.append({"name": name, "title": deck.name, "cards": deck.size})
    return {"games": described, "decks": decks, "bots": list(BOTS)}


def card_rows(cards: Sequence[CardDef]) -> list[dict[str, Any]]:
    """A BAEBAE deck's designs for the ``welcome`` message."""
    return [
        {
            "key": c.key, "rank": c.rank_text, "suit": c.suit_text, "name": c.name,
            "types": sorted(c.types), "marks": sorted(c.marks), "text": c.text,
            "optional": c.optional, "can_win": c.can_win, "notes": list(c.notes), "copies": c.copies,
        }
        for c in cards
    ]
