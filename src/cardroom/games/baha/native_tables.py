"""Baha's results tables from native games: what its columns mean, as Arrow arrays.

The native engine (``native/cardroom/baha_tables.hpp``) plays whole games of simulate's agents
and records, as it plays, every fact that :func:`cardroom.games.baha.results.rows` reads from a
finished game's log, column by column in flat arrays; the batch, every game's alike, is
:class:`cardroom.native.tables.TableGames`, and here is Baha's descriptor: its tables, its extras
and its columns. The rows are those of the Python path, value for value and in the same order
(``tests/native/test_games_tables.py``).
"""

from __future__ import annotations

from typing import Any

from cardroom.extras import needs_extra
from cardroom.games.baha.actions import CARD_TEXT

try:
    import pyarrow as pa
    import pyarrow.compute as pc

    from cardroom.native.tables import Columns, Tables, lists, nulls_below_zero  # pyarrow's too
except ModuleNotFoundError as err:  # an install without the results extra: say which to add
    raise needs_extra(err, f"{__name__}.table_games") from None

__all__ = ["TABLES", "table_games"]

_CARDS = pa.array(CARD_TEXT, pa.string())
_PASS = pa.array(["left", "none", "right"], pa.string())  # by the pass offset's sign, plus one


def _columns(got: dict[str, pa.Array], rules: Any) -> Columns:
    n = rules.players
    cards = _CARDS.take(got["card_card"])
    hand_cards = _CARDS.take(got["hand_card"])
    return {
        "deals": {
            "deal": got["deal_no"], "points": lists(got["deal_points"].cast(pa.int32()), n),
            "totals": lists(got["deal_totals"].cast(pa.int32()), n), "decisions": got["deal_decisions"],
            "moon": nulls_below_zero(got["deal_moon"]),
            "pass": _PASS.take(pc.add(got["deal_pass"].cast(pa.int32()), 1)),
        },
        "cards": {
            "deal": got["card_deal"], "turn": got["card_turn"], "seat": got["card_seat"], "card": cards,
            "design": cards, "trick": got["card_trick"], "led": got["card_led"].cast(pa.bool_()),
            "won_trick": got["card_won"].cast(pa.bool_()), "horns": got["card_horns"],
            "horns_taken_by": nulls_below_zero(got["card_taken_by"]),
        },
        "hands": {
            "deal": got["hand_deal"], "seat": got["hand_seat"], "card": hand_cards, "design": hand_cards,
            "passed": got["hand_passed"].cast(pa.bool_()),
            "received": got["hand_received"].cast(pa.bool_()),
        },
        "tricks": {
            "deal": got["trick_deal"], "trick": got["trick_no"], "leader": got["trick_leader"],
            "winner": got["trick_winner"], "cards": lists(_CARDS.take(got["trick_cards"]), n),
            "horns": got["trick_horns"],
        },
    }


TABLES = Tables(
    function="baha_table_games",
    tables={"deals": "deal", "cards": "card", "hands": "hand", "tricks": "trick"},
    extras={"moons": "moons"},  # the spec's result_extras
    shared_first=False,  # one winner a game, -1 for a game the guard stopped
    columns=_columns,
)
"""Baha's results tables from native games (:class:`cardroom.native.tables.Tables`)."""
table_games = TABLES.table_games
