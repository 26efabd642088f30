"""The games Cardroom plays, by name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardroom.engine import Rules, RulesError, State

__all__ = ["GAMES", "make_rules", "start_game"]

GAMES = ("baha", "baebae")


def make_rules(game: str, options: Mapping[str, Any] | None = None) -> Rules:
    """The rules of ``game`` with ``options`` (values may be text, as typed on a command line)."""
    if game == "baha":
        from cardroom.games.baha import Rules as BahaRules

        return BahaRules.from_dict(options or {})
    if game == "baebae":
        from cardroom.games.baebae import Rules as BaebaeRules

        return BaebaeRules.from_dict(options or {})
    raise RulesError(f"unknown game {game!r}; the games are {', '.join(GAMES)}")


def start_game(rules: Rules, seed: int, start: Mapping[str, Any] | None = None) -> State:
    """A new game of ``rules``; ``start`` is a record's description of a hand-made beginning."""
    if not start:
        return rules.new_game(seed)
    if rules.game == "baha":
        from cardroom.games.baha import Deal

        deal = start.get("deal")
        if deal is not None and not isinstance(deal, Mapping):
            raise RulesError("start.deal must be an object with hands, leftover, draw_pile, dealer")
        unknown = set(start) - {"deal", "totals", "hand"}
        if unknown:
            raise RulesError(f"start has unknown field {sorted(unknown)[0]!r}")
        return rules.new_game(  # type: ignore[call-arg]
            seed,
            deal=Deal(**deal) if deal is not None else None,
            totals=start.get("totals"),
            hand=start.get("hand", 1),
        )
    if rules.game == "baebae":
        from cardroom.games.baebae import Deal as BaebaeDeal

        deal = start.get("deal")
        if deal is not None and not isinstance(deal, Mapping):
            raise RulesError("start.deal must be an object with hands, starter, stock, dealer")
        unknown = set(start) - {"deal", "totals"}
        if unknown:
            raise RulesError(f"start has unknown field {sorted(unknown)[0]!r}")
        return rules.new_game(  # type: ignore[call-arg]
            seed, deal=BaebaeDeal(**deal) if deal is not None else None, totals=start.get("totals")
        )
    raise RulesError(f"{rules.game} games cannot start from a given position")
