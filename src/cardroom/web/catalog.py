"""What a web table may be created with: games, their rule options, project decks, bots, levels.

Each game comes with its title, whether it takes decks (and whether the designer's studio
edits them), and its renderer: the JavaScript
module the pages load to draw it, so the common pages name no game.

Rule options are described for people here (name, default, kind, bounds, a line of text);
the games' ``Rules`` classes stay the authority on what is valid.
"""

from __future__ import annotations

import functools
from typing import Any

from cardroom import games
from cardroom.agents import levels
from cardroom.games import make_rules
from cardroom.web.pages import has_rules

__all__ = ["BOTS", "WEB_REFUSED", "catalog", "option_names", "players_range"]

BOTS = ["random", "heuristic", "learned", "ismcts"]
"""The bots a web table may seat (``human`` is a seat kind, not a bot). ``learned`` plays only the
weights shipped with Cardroom here (see ``WEB_REFUSED``)."""

WEB_REFUSED = {
    "learned": {"path": "the web table plays only the weights shipped with Cardroom (weights=NAME)"},
}
"""Bot options the web table refuses, with the reason: no file a request names is ever loaded."""


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
            "decks": spec.decks is not None,
            # The pages import this module to draw the game (static/games/*.js).
            "renderer": f"/static/{spec.web_renderer}" if spec.web_renderer else None,
            "rules": f"/rules/{game}" if has_rules(game) else None,
            # Whether the designer's studio edits its decks (its spec has a deck_editing).
            "studio": spec.deck_editing is not None,
        }
    decks = []
    for game in games.names():
        support = games.get(game).decks
        if support is None:
            continue
        for name in support.names():
            deck = support.find(name)
            decks.append({"name": name, "game": game, "title": deck.title, "cards": deck.size})
    # The difficulty levels, each with its rating on every game's shipped ladder (null: not rated).
    return {"games": described, "decks": decks, "bots": list(BOTS), "levels": levels.describe(games.names())}
