"""What a new table may seat and play, checked before anything is made: the game a request
names, its rule options and number of players, each seat (a person, a level or a bot the web
table allows, within its budgets), the deck, and whether a learned bot's weights fit the table.

Every check refuses with a :class:`~cardroom.web.live.TableError` (400) that says what was
wrong and what is allowed. The game is asked of the registry once, at the request's edge
(:func:`game_spec`); the rest is given its spec.
"""

from __future__ import annotations

from typing import Any

from cardroom import games
from cardroom.agents import AgentError, format_spec, make, parse_spec
from cardroom.agents.levels import LEVELS
from cardroom.agents.levels import resolve as resolve_level
from cardroom.engine import Rules, is_whole
from cardroom.games import GameSpec
from cardroom.text import plural
from cardroom.web.catalog import BOTS, WEB_REFUSED, option_names
from cardroom.web.live import TableError
from cardroom.web.protocol import MAX_PLAYERS, CreateBody
from cardroom.web.store import SeatData

__all__ = ["BOT_LIMITS", "game_spec", "seat_of", "check_fits", "table_plan", "project_deck", "quick_bot"]

BOT_LIMITS = {"iterations": 5000, "seconds": 5.0, "infer": 1000}
"""The largest search budgets a web table grants a bot per move (``infer``: the worlds a search
weighs, each kept in memory per search tree)."""


def game_spec(game: str) -> GameSpec:
    """The game a request names, from the registry; a 400 naming the games if there is none."""
    if game not in games.names():
        raise TableError(400, f"unknown game {game!r:.40}; the games are {', '.join(games.names())}")
    return games.get(game)


def seat_of(seat: int, text: str) -> SeatData:
    """Seat ``seat`` as a request gives it: ``"human"``, a level's name (its agent) or a bot's
    spec the web table allows, within :data:`BOT_LIMITS`."""
    text = resolve_level(text)  # a level's name stands for its agent (cardroom.agents.levels)
    if text == "human":
        return SeatData(seat, "human")
    try:
        name, options = parse_spec(text)
        if name not in BOTS:
            raise AgentError(f"unknown bot {name!r:.40}")
        for key, why in WEB_REFUSED.get(name, {}).items():
            if key in options:
                raise AgentError(f"{name}: no {key} option on the web table: {why}")
        for key, most in BOT_LIMITS.items():
            value = options.get(key)
            if isinstance(value, int | float) and value > most:
                raise AgentError(f"{name}: {key} may be at most {most:g} on the web table, not {value}")
        make(name, seed=0, **options)
    except AgentError as err:
        raise TableError(
            400, f"seat {seat}: {err} (a seat is \"human\", a level: {', '.join(LEVELS)}, or a bot: "
                 f"{', '.join(BOTS)}, with options after colons, e.g. ismcts:iterations=300)"
        ) from None
    # Kept in its shortest form: every summary repeats it, so padding must not be stored.
    return SeatData(seat, "bot", bot=format_spec(name, options))


def check_fits(seat: int, bot: str, rules: Rules) -> None:
    """Refuse a learned bot (or a search with its network) at a table its weights cannot play."""
    name, options = parse_spec(bot)
    if name == "learned" or (name == "ismcts" and options.get("policy") == "learned"):
        from cardroom.agents.learned import check_table

        try:
            check_table(rules, options.get("weights") if name == "learned" else None)
        except AgentError as err:
            raise TableError(400, f"seat {seat}: {err}; choose another bot for this table") from None


def table_plan(spec: GameSpec, body: CreateBody) -> tuple[dict[str, Any], int, list[SeatData]]:
    """A create request's rule options (``players`` among them), its number of players and its
    seats, each checked."""
    options = dict(body.rules)
    allowed = option_names(spec)
    for name in options:
        if name not in allowed and name != "players":
            extra = " (choose the deck with \"deck\" or \"deck_toml\")" if name == "deck" else ""
            raise TableError(400, f"unknown {spec.name} rule {name!r:.40}{extra}; the rules are "
                                  f"{', '.join(allowed)}")
    players = body.players
    if "players" in options:
        if players is not None and options["players"] != players:
            raise TableError(400, "give the number of players once: \"players\" or rules.players")
        players = options.pop("players")
    if players is None:
        players = len(body.seats) if body.seats else spec.make_rules().players
    if not is_whole(players) or not 2 <= players <= MAX_PLAYERS:
        # checked before anything is built per seat: rules.players is not bounded by the body
        raise TableError(
            400, f"players must be a whole number from 2 to {MAX_PLAYERS}, not {players!r:.40}"
        )
    options["players"] = players
    seats = body.seats if body.seats is not None else ["human"] + ["heuristic"] * (players - 1)
    if len(seats) != players:
        raise TableError(
            400, f"seats lists {plural(len(seats), 'seat')}; a table of {players} players needs {players}"
        )
    return options, players, [seat_of(k, text) for k, text in enumerate(seats)]


def project_deck(spec: GameSpec, body: CreateBody) -> str | None:
    """The project deck a create request plays with (its own, or the game's default), checked;
    ``None`` for a game without decks or an uploaded deck (``deck_toml``, checked apart)."""
    decks = spec.decks
    if decks is None:
        if body.deck is not None or body.deck_toml is not None:
            raise TableError(400, f"{spec.name} is played without a deck file; leave out deck and deck_toml")
        return None
    if body.deck is not None and body.deck_toml is not None:
        raise TableError(
            400, "give one deck: \"deck\" (a project deck's name) or \"deck_toml\" (a deck file)"
        )
    if body.deck_toml is not None:
        return None
    deck = body.deck if body.deck is not None else decks.default
    if deck not in decks.names():
        raise TableError(400, f"unknown deck {deck!r:.40}; the project's decks are "
                              f"{', '.join(decks.names())} (or upload one as deck_toml)")
    return deck


def quick_bot(spec: GameSpec, players: int, bot: str) -> str:
    """Refuse, in words, a Play now of a size or bot the game or the web table does not allow
    (nothing is made); the bot's spec as a seat keeps it (a level's name is its agent's spec)."""
    fewest, most = spec.players()
    if not fewest <= players <= most:
        raise TableError(400, f"{spec.title} is played by {fewest} to {most} players, not {players}")
    seat = seat_of(1, bot)  # a bot the web table may seat, or a 400 saying which are
    if seat.bot is None:
        raise TableError(400, f"Play now's free seats go to bots: a level ({', '.join(LEVELS)}) or a bot "
                              f"({', '.join(BOTS)}), not {bot!r:.40}")
    check_fits(1, seat.bot, spec.make_rules({"players": players}))
    return seat.bot
