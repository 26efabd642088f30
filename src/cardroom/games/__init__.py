"""The games Cardroom plays, by name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardroom.engine import Rules, RulesError

__all__ = ["GAMES", "make_rules"]

GAMES = ("baha",)


def make_rules(game: str, options: Mapping[str, Any] | None = None) -> Rules:
    """The rules of ``game`` with ``options`` (values may be text, as typed on a command line)."""
    if game == "baha":
        from cardroom.games.baha import Rules as BahaRules

        return BahaRules.from_dict(options or {})
    raise RulesError(f"unknown game {game!r}; the games are {', '.join(GAMES)}")
