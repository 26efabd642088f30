"""BAEBAE's results tables from native games: what its columns mean, as Arrow arrays.

The native engine (``native/cardroom/baebae_tables.hpp``) plays whole games of simulate's agents
and records, as it plays, every fact that :func:`cardroom.games.baebae.results.rows` reads from
a finished game's log, column by column in flat arrays; the batch, every game's alike, is
:class:`cardroom.native.tables.TableGames`, and here is BAEBAE's descriptor: its tables, its
extras and its columns. The rows are those of the Python path, value for value and in the same
order (``tests/native/test_games_tables.py``).
"""

from __future__ import annotations

from typing import Any

from cardroom.extras import needs_extra

try:
    import pyarrow as pa

    from cardroom.native.tables import Columns, Tables, lists, nulls_below_zero, texts  # pyarrow's too
except ModuleNotFoundError as err:  # an install without the results extra: say which to add
    raise needs_extra(err, f"{__name__}.table_games") from None

__all__ = ["TABLES", "table_games"]

_SUITS = pa.array(["C", "D", "H", "S"], pa.string())
_COINS = pa.array(["tails", "heads"], pa.string())


def _columns(got: dict[str, pa.Array], rules: Any) -> Columns:
    n = rules.players
    keys = pa.array(rules.card_texts, pa.string())
    designs = pa.array([rules.cards[d].name for d in rules.card_of], pa.string())
    return {
        "deals": {
            "deal": got["deal_no"], "points": lists(got["deal_points"].cast(pa.int32()), n),
            "totals": lists(got["deal_totals"].cast(pa.int32()), n), "decisions": got["deal_decisions"],
            "out": nulls_below_zero(got["deal_out"]), "blocked": got["deal_blocked"].cast(pa.bool_()),
            "guard": got["deal_guard"].cast(pa.bool_()),
        },
        "cards": {
            "deal": got["card_deal"], "turn": got["card_turn"], "seat": got["card_seat"],
            "card": keys.take(got["card_card"]), "design": designs.take(got["card_card"]),
            "action_ran": got["card_ran"].cast(pa.bool_()), "draws_forced": got["card_draws"],
            "skips": got["card_skips"], "penalties": got["card_penalties"],
            "reversals": got["card_reversals"], "moves": got["card_moves"],
            "suit_named": texts(_SUITS, got["card_suit"]), "coin": texts(_COINS, got["card_coin"]),
            "under": got["card_under"].cast(pa.bool_()),
        },
        "hands": {
            "deal": got["hand_deal"], "seat": got["hand_seat"], "card": keys.take(got["hand_card"]),
            "design": designs.take(got["hand_card"]),
        },
    }


TABLES = Tables(
    function="baebae_table_games",
    tables={"deals": "deal", "cards": "card", "hands": "hand"},
    extras={"blocked_rounds": "blocked", "guard_rounds": "guarded"},  # the spec's result_extras
    shared_first=True,  # first place may be shared: winner_lists
    columns=_columns,
)
"""BAEBAE's results tables from native games (:class:`cardroom.native.tables.Tables`)."""
table_games = TABLES.table_games
