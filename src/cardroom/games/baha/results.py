"""Baha's results as tables (``simulate --out``): hands, tricks and cards read from the log.

Baha adds to ``deals`` who shot the moon and the hand's pass; to ``cards`` the trick, whether
the card led it or won it, its own horns and who took them; to ``hands`` whether a card was
passed away or came in the pass; and a ``tricks`` table. docs/results.md lists every column.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.engine import Event, Rules
from cardroom.games.baha.cards import parse_baha_card
from cardroom.games.baha.events import baha_events
from cardroom.games.baha.rules import Rules as BahaRules
from cardroom.games.contracts import Decisions, GameRows, GameTables

__all__ = ["TABLES", "rows"]


def rows(log: Sequence[Event], rules: Rules, decisions: Decisions) -> GameRows:
    """The rows of one finished (or stopped) game of Baha, from its log alone."""
    assert isinstance(rules, BahaRules)
    deals: list[dict[str, Any]] = []
    cards: list[dict[str, Any]] = []
    hands: list[dict[str, Any]] = []
    tricks: list[dict[str, Any]] = []
    deal = 0
    start = 0  # the log index of the current hand's first event
    first = 0  # the first decision of the current hand
    trick: list[dict[str, Any]] = []  # the card rows of the trick being played
    pass_word = "none"
    places: list[int] | None = None
    for index, event in enumerate(baha_events(log)):
        if event["t"] == "hand":
            deal, start, first, pass_word = event["n"], index, decisions.first(index), event["pass"]
            dealt = {card: seat for seat, hand in enumerate(event["hands"]) for card in hand}
            hands.extend({"deal": deal, "seat": seat, "card": card, "design": card, "passed": False,
                          "received": False} for card, seat in dealt.items())
            held = {(row["seat"], row["card"]): row for row in hands[-len(dealt):]}
        elif event["t"] == "pass":
            for card in event["cards"]:
                held[(event["from"], card)]["passed"] = True
                hands.append({"deal": deal, "seat": event["to"], "card": card, "design": card,
                              "passed": False, "received": True})
        elif event["t"] == "play":
            trick.append({
                "deal": deal, "turn": decisions.at(index) - first + 1, "seat": event["p"],
                "card": event["card"], "design": event["card"], "trick": 0, "led": not trick,
                "won_trick": False, "horns": rules.points[parse_baha_card(event["card"])],
                "horns_taken_by": None,
            })
        elif event["t"] == "trick":
            winner = event["winner"]
            for row in trick:
                row.update(trick=event["n"], won_trick=row["seat"] == winner, horns_taken_by=winner)
            cards.extend(trick)
            tricks.append({"deal": deal, "trick": event["n"], "leader": trick[0]["seat"], "winner": winner,
                           "cards": [row["card"] for row in trick], "horns": event["horns"]})
            trick = []
        elif event["t"] == "score":
            deals.append({"deal": deal, "points": event["points"], "totals": event["totals"],
                          "decisions": decisions.between(start, index + 1), "moon": event["moon"],
                          "pass": pass_word})
        elif event["t"] == "end":
            totals = event["totals"]
            places = [1 + sum(other < mine for other in totals) for mine in totals]
    cards.extend(trick)  # a trick cut short by the action guard: its cards were played all the same
    return GameRows(places, {"deals": deals, "cards": cards, "hands": hands, "tricks": tricks})


TABLES = GameTables(
    columns={
        "deals": (("moon", "int8"), ("pass", "string")),
        "cards": (("trick", "int32"), ("led", "bool"), ("won_trick", "bool"),
                  ("horns", "int32"), ("horns_taken_by", "int8")),
        "hands": (("passed", "bool"), ("received", "bool")),
    },
    tables={"tricks": (("deal", "int32"), ("trick", "int32"), ("leader", "int8"),
                       ("winner", "int8"), ("cards", "list[string]"), ("horns", "int32"))},
    rows=rows,
)
"""Baha's part of the results tables (its spec's ``results``)."""
