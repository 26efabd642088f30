"""What a web table may be created with: games, their rule options, project decks, bots.

Rule options are described for people here (name, default, kind, bounds, a line of text);
the games' ``Rules`` classes stay the authority on what is valid.
"""

from __future__ import annotations

import functools
from typing import Any

from cardroom.games import GAMES, make_rules
from cardroom.games.baebae.deck import CardDef, Deck, find_deck, project_decks
from cardroom.games.baebae.rules import MAX_HAND, MAX_ROUNDS, MAX_TURN_LIMIT
from cardroom.games.baebae.rules import MIN_PLAYERS as BAEBAE_MIN_PLAYERS
from cardroom.games.baha.rules import MAX_PLAYERS as BAHA_MAX_PLAYERS
from cardroom.games.baha.rules import MAX_TARGET, SCORINGS
from cardroom.games.baha.rules import MIN_PLAYERS as BAHA_MIN_PLAYERS

__all__ = ["BOTS", "catalog", "card_rows", "option_names", "players_range"]

BOTS = ["random", "heuristic", "ismcts"]
"""The bots a web table may seat (``human`` is a seat kind, not a bot)."""

_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "baha": [
        {"name": "scoring", "kind": "choice", "choices": list(SCORINGS),
         "text": "How taken cards score: horns (9 to 13 carry 1 to 5) or face value of 9 and up."},
        {"name": "passing", "kind": "bool", "text": "Pass three cards before each hand (right, left, keep)."},
        {"name": "moon", "kind": "bool",
         "text": "Shooting the moon: whoever takes every point gives the hand's points to everyone else."},
        {"name": "target", "kind": "int", "min": 1, "max": MAX_TARGET,
         "text": "The game ends when a total reaches this many points; the lowest total wins."},
        {"name": "draw_pile", "kind": "bool",
         "text": "Draw-pile variant for 2 or 3 players (by default on for 2 players, off for 3)."},
        {"name": "random_dealer", "kind": "bool", "text": "Choose the first dealer at random."},
    ],
    "baebae": [
        {"name": "rounds", "kind": "int", "min": 1, "max": MAX_ROUNDS, "text": "Rounds in the game."},
        {"name": "ace_penalty", "kind": "int", "min": 0, "max": 20,
         "text": "Penalty points of an ace left in hand."},
        {"name": "draw_when_able", "kind": "bool", "text": "A player who can play may draw instead."},
        {"name": "hand_size", "kind": "int", "min": 1, "max": MAX_HAND,
         "text": "Cards dealt to each player (by default 7 with two players, else 5)."},
        {"name": "decks", "kind": "int", "min": 1, "max": 8, "text": "Copies of the deck shuffled together."},
        {"name": "turn_limit", "kind": "int", "min": 10, "max": MAX_TURN_LIMIT,
         "text": "Turns after which a round stops (a guard against endless rounds)."},
    ],
}
"""Rule options offered by the web table, without ``players`` (a field of its own) and
without ``deck`` (chosen by name or uploaded, never a server path)."""


def option_names(game: str) -> list[str]:
    """Rule options a web table may set for ``game``."""
    return [o["name"] for o in _OPTIONS[game]]


@functools.cache
def _defaults(game: str) -> dict[str, Any]:
    return make_rules(game, {}).to_dict() | {"hand_size": None, "draw_pile": None}


def _sample_deck() -> Deck:
    return find_deck("sample")


def players_range(game: str) -> tuple[int, int]:
    """Fewest and most players of ``game`` (BAEBAE's most: as many as the sample deck deals)."""
    if game == "baha":
        return BAHA_MIN_PLAYERS, BAHA_MAX_PLAYERS
    size = _sample_deck().size
    most = max(p for p in range(BAEBAE_MIN_PLAYERS, size) if p * (7 if p == 2 else 5) + 1 <= size)
    return BAEBAE_MIN_PLAYERS, most


def catalog() -> dict[str, Any]:
    """The answer of ``GET /api/catalog``."""
    games: dict[str, Any] = {}
    for game in GAMES:
        defaults = _defaults(game)
        games[game] = {
            "options": [{**o, "default": defaults[o["name"]]} for o in _OPTIONS[game]],
            "players": list(players_range(game)),
        }
    decks = []
    for name in project_decks():
        deck = find_deck(name)
        decks.append({"name": name, "title": deck.name, "cards": deck.size})
    return {"games": games, "decks": decks, "bots": list(BOTS)}


def card_rows(cards: tuple[CardDef, ...]) -> list[dict[str, Any]]:
    """A BAEBAE deck's designs for the ``welcome`` message."""
    return [
        {
            "key": c.key, "rank": c.rank_text, "suit": c.suit_text, "name": c.name,
            "types": sorted(c.types), "marks": sorted(c.marks), "text": c.text,
            "optional": c.optional, "can_win": c.can_win, "notes": list(c.notes), "copies": c.copies,
        }
        for c in cards
    ]
