"""BAEBAE's results as tables (``simulate --out``): rounds, hands and cards read from the log.

Each card played is credited with what its play did until the next turn began: cards drawn
by force, turns skipped, penalty points given, reversals, cards moved, the suit named and the
coin's fall, and whether its action ran at all. docs/results.md lists every column.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.engine import Event, Rules
from cardroom.games.baebae.events import baebae_events
from cardroom.games.baebae.rules import Rules as BaebaeRules
from cardroom.games.contracts import Decisions, GameRows, GameTables

__all__ = ["TABLES", "rows"]

_TURN_ENDS = frozenset({"pass", "round", "round_end", "end"})
"""Events after which nothing is credited to the card played before: the next turn (or round)
has begun. A voluntary draw and the next card played end it too."""


def _card_row(rules: BaebaeRules, deal: int, turn: int, seat: int, key: str, under: bool) -> dict[str, Any]:
    design = rules.cards[rules.design_of_key[key.upper()]]
    return {"deal": deal, "turn": turn, "seat": seat, "card": key, "design": design.name,
            "action_ran": False, "draws_forced": 0, "skips": 0, "penalties": 0, "reversals": 0, "moves": 0,
            "suit_named": None, "coin": None, "under": under}


def rows(log: Sequence[Event], rules: Rules, decisions: Decisions) -> GameRows:
    """The rows of one finished (or stopped) game of BAEBAE, from its log alone."""
    assert isinstance(rules, BaebaeRules)
    deals: list[dict[str, Any]] = []
    cards: list[dict[str, Any]] = []
    hands: list[dict[str, Any]] = []
    deal = start = first = 0
    acting: dict[str, Any] | None = None  # the card whose play is still having its effects
    places: list[int] | None = None
    events = baebae_events(log)
    for index, event in enumerate(events):
        kind = event["t"]
        if kind == "round_end" and acting is not None and events[index - 1]["t"] == "play":
            acting["action_ran"] = False  # the round's last card: it has no effect (E10)
        if kind in _TURN_ENDS or (event["t"] == "draw" and not event["forced"]):
            acting = None
        if event["t"] == "round":
            deal, start, first = event["n"], index, decisions.first(index)
            for seat, hand in enumerate(event["hands"]):
                for key in hand:
                    design = rules.cards[rules.design_of_key[key.upper()]]
                    hands.append({"deal": deal, "seat": seat, "card": key, "design": design.name})
        elif event["t"] == "play":
            turn = decisions.at(index) - first + 1
            row = _card_row(rules, deal, turn, event["p"], event["card"], event["under"])
            cards.append(row)
            if not event["under"]:  # a card discarded under another is part of that card's action
                acting = row
                design = rules.cards[rules.design_of_key[event["card"].upper()]]
                # an optional action runs only when its player says so (the "optional" effect)
                row["action_ran"] = design.has_action and not design.optional
        elif acting is None:
            pass  # a starter's action, or a voluntary draw: no card played to credit
        elif event["t"] == "effect":
            if event["op"] == "optional":
                acting["action_ran"] = bool(event["carried_out"])
            elif event["op"] == "skip":
                acting["skips"] += 1
        elif event["t"] == "draw":
            acting["draws_forced"] += 1
        elif event["t"] == "penalty":
            acting["penalties"] += event["points"]
        elif event["t"] == "reverse":
            acting["reversals"] += 1
        elif event["t"] == "move":
            acting["moves"] += len(event["cards"])
        elif event["t"] == "declare":
            acting["suit_named"] = event["suit"]
        elif event["t"] == "coin":
            acting["coin"] = event["result"]
        if event["t"] == "round_end":
            deals.append({"deal": deal, "points": event["penalties"], "totals": event["totals"],
                          "decisions": decisions.between(start, index + 1), "out": event["out"],
                          "blocked": event["blocked"], "guard": event["guard"]})
        elif event["t"] == "end":
            by_seat = {r["seat"]: r["place"] for r in event["ranking"]}
            places = [by_seat[seat] for seat in range(len(by_seat))]
    return GameRows(places, {"deals": deals, "cards": cards, "hands": hands})


TABLES = GameTables(
    columns={
        "deals": (("out", "int8"), ("blocked", "bool"), ("guard", "bool")),
        "cards": (("action_ran", "bool"), ("draws_forced", "int32"), ("skips", "int32"),
                  ("penalties", "int32"), ("reversals", "int32"), ("moves", "int32"),
                  ("suit_named", "string"), ("coin", "string"), ("under", "bool")),
    },
    tables={},
    rows=rows,
)
"""BAEBAE's part of the results tables (its spec's ``results``)."""
