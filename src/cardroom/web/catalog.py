"""What a web table may be created with: games, their rule options, project decks, bots, levels.

Each game comes with its title, whether it takes decks (and whether the designer's studio
edits them), and its renderer: the JavaScript
module the pages load to draw it, so the common pages name no game.

Rule options are described for people here (name, default, kind, bounds, a line of text);
the games' ``Rules`` classes stay the authority on what is valid.
"""

from __future__ import annotations

from typing import Any

from cardroom import games
from cardroom.agents import levels
from cardroom.games import GameSpec
from cardroom.web.pages import has_rules

__all__ = ["BOTS", "WEB_REFUSED", "catalog", "option_names", "players_range"]

BOTS = ["random", "heuristic", "learned", "ismcts"]
"""The bots a web table may seat (``human`` is a seat kind, not a bot). ``learned`` plays only the
weights shipped with Cardroom here (see ``WEB_REFUSED``)."""

WEB_REFUSED = {
    "learned": {"path": "the web table plays only the weights shipped with Cardroom (weights=NAME)"},
}
"""Bot options the web table refuses, with the reason: no file a request names is ever loaded."""


def option_names(spec: GameSpec) -> list[str]:
    """Rule options a web table may set for the game ``spec`` (``players`` and ``deck`` apart)."""
    return [o.name for o in spec.options]


_DEFAULTS: dict[str, dict[str, Any]] = {}
"""Each game's default options, by name, worked out once."""


def _defaults(spec: GameSpec) -> dict[str, Any]:
    if spec.name not in _DEFAULTS:
        # An option whose default depends on the number of players has none to show (null).
        unset = {o.name: None for o in spec.options if o.by_players}
        _DEFAULTS[spec.name] = spec.make_rules({}).to_dict() | unset
    return _DEFAULTS[spec.name]


def players_range(spec: GameSpec) -> tuple[int, int]:
    """Fewest and most players of the game ``spec`` with its default options."""
    return spec.players()


def catalog() -> dict[str, Any]:
    """The answer of ``GET /api/catalog``: every game of the registry, each asked for once."""
    specs = {game: games.get(game) for game in games.names()}
    described: dict[str, Any] = {}
    for game, spec in specs.items():
        defaults = _defaults(spec)
        described[game] = {
            "title": spec.title,
            "options": [{**o.describe(), "default": defaults[o.name]} for o in spec.options],
            "players": list(players_range(spec)),
            "decks": spec.decks is not None,
            # The pages import this module to draw the game (static/games/*.js).
            "renderer": f"/static/{spec.web_renderer}" if spec.web_renderer else None,
            "rules": f"/rules/{game}" if has_rules(game) else None,
            # Whether the designer's studio edits its decks (its spec has a deck_editing).
            "studio": spec.deck_editing is not None,
        }
    decks = []
    for game, spec in specs.items():
        support = spec.decks
        if support is None:
            continue
        for name in support.names():
            deck = support.find(name)
            decks.append({"name": name, "game": game, "title": deck.title, "cards": deck.size})
    # The difficulty levels, each with its rating on every game's shipped ladder (null: not rated).
    return {"games": described, "decks": decks, "bots": list(BOTS), "levels": levels.describe(games.names())}
