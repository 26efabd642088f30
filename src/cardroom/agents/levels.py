"""The shipped agents on one ladder, and the difficulty levels people choose opponents by.

``SHIPPED`` is the list of agents ``cardroom ladder`` rates when none are named (and
``make strength`` puts in docs/strength.md and the ladder file shipped with the package);
``LEVELS`` maps each named level to an agent spec. A level's rating is that spec's rung on
the shipped ladder of the game (``rating``), so every level must be among ``SHIPPED``.

>>> resolve("casual")
'heuristic'
>>> resolve("ismcts:iterations=30")
'ismcts:iterations=30'
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

__all__ = [
    "Level",
    "LEVELS",
    "SHIPPED",
    "resolve",
    "resolve_all",
    "searching_level",
    "shipped_ladder",
    "rating",
    "describe",
    "bot_ratings",
]


@dataclass(frozen=True)
class Level:
    """A difficulty level: the agent that plays it and a line for people."""

    spec: str
    about: str


LEVELS: dict[str, Level] = {
    "beginner": Level("random", "plays any legal card, at random"),
    "casual": Level("heuristic", "plays by rules of thumb"),
    "strong": Level("ismcts:iterations=300", "searches 300 dealt worlds a move"),
    "expert": Level("ismcts:iterations=1000", "searches 1000 dealt worlds a move"),
}
"""The levels, weakest first: name -> agent spec. The learned agent is on the ladder but is no
level: its weights play four-player tables of the project deck only, and a level seats any table."""

SHIPPED: tuple[str, ...] = (
    "random",
    "heuristic",
    "learned",
    "ismcts:iterations=100",
    "ismcts:iterations=300",
    "ismcts:iterations=1000",
)
"""Every shipped agent as the ladder rates it: the learned network, ISMCTS at a few budgets."""

LADDER_FILE = "ladder.json"
"""The ladder shipped in this package (``cardroom ladder GAME --save``, ``make strength``)."""


def resolve(spec: str) -> str:
    """A level's agent spec for a level name (any case); any other spec as it is."""
    level = LEVELS.get(spec.strip().lower())
    return level.spec if level is not None else spec.strip()


def searching_level(spec: str) -> str | None:
    """The level a bot spec with options plays (``ismcts:iterations=1000`` is ``expert``), by
    which a table names the bot ("Expert 2", not "ISMCTS 2"); ``None`` for any other spec (a
    plain kind such as ``heuristic`` keeps its kind's name).

    >>> searching_level("ismcts:iterations=1000"), searching_level("heuristic")
    ('expert', None)
    """
    for name, level in LEVELS.items():
        if ":" in level.spec and level.spec == spec.strip():
            return name
    return None


def resolve_all(specs: str) -> str:
    """Every comma-separated entry of a line-up resolved (``"casual,expert"``)."""
    return ",".join(resolve(spec) for spec in specs.split(","))


@functools.cache
def shipped_ladder() -> dict[str, Any]:
    """The ladder file shipped with the package (``{"games": {}}`` if it is missing)."""
    try:
        text = resources.files("cardroom.agents").joinpath(LADDER_FILE).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return {"format": 1, "games": {}}
    data: dict[str, Any] = json.loads(text)
    return data


def rating(game: str, spec: str) -> dict[str, Any] | None:
    """The rung of ``spec`` (a level name or an agent spec) on ``game``'s shipped ladder:
    ``agent``, ``mu``, ``sigma``, ``ordinal``, ``mu_interval`` and ``place`` (1: best) of
    ``places``; ``None`` where the ladder does not rate it."""
    entry = shipped_ladder()["games"].get(game)
    if entry is None:
        return None
    wanted = resolve(spec)
    for place, rung in enumerate(entry["rungs"], start=1):
        if rung["agent"] == wanted:
            return {
                **rung,
                "place": place,
                "places": len(entry["rungs"]),
                "deals": entry["deals"],
                "made": entry.get("made"),
            }
    return None


def describe(games: list[str]) -> list[dict[str, Any]]:
    """The levels for a front: name, spec, words, and the rating on each game's ladder."""
    return [
        {
            "name": name,
            "spec": level.spec,
            "about": level.about,
            "ratings": {game: rating(game, level.spec) for game in games},
        }
        for name, level in LEVELS.items()
    ]


def bot_ratings(game: str) -> dict[str, Any]:
    """The bots of ``game``'s shipped ladder for the site's leaderboard and player pages: each
    rung with its level's name (``None``: a bot no level names), and what the ratings are from
    (``source``: ``None`` where the game has no ladder)."""
    entry = shipped_ladder()["games"].get(game)
    if entry is None:
        return {"game": game, "bots": [], "source": None}
    named = {level.spec: name for name, level in LEVELS.items()}
    bots = [
        {**rung, "place": place, "level": named.get(rung["agent"])}
        for place, rung in enumerate(entry["rungs"], start=1)
    ]
    source = {key: entry.get(key) for key in ("deals", "games", "seed", "made", "command", "model", "rules")}
    return {"game": game, "bots": bots, "source": source}
