"""BAEBAE's results tables from native games: the columns ``simulate --out`` writes, as Arrow arrays.

The native engine (``native/cardroom/baebae_tables.hpp``) plays whole games of simulate's agents
and records, as it plays, every fact that :func:`cardroom.games.baebae.results.rows` reads from
a finished game's log, column by column in flat arrays; here they become Arrow arrays without a
Python object a row. The rows are those of the Python path, value for value and in the same
order (``tests/native/test_baebae_tables_native.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.extras import needs_extra
from cardroom.games.baebae.rules import Rules
from cardroom.native import core

try:
    import pyarrow as pa

    from cardroom.native.tables import (  # pyarrow's too
        arrays,
        deal_rows,
        lists,
        nulls_below_zero,
        per_seat,
        places,
        texts,
    )
except ModuleNotFoundError as err:  # an install without the results extra: say which to add
    raise needs_extra(err, f"{__name__}.table_games") from None

__all__ = ["TableGames", "table_games"]

_SUITS = pa.array(["C", "D", "H", "S"], pa.string())
_COINS = pa.array(["tails", "heads"], pa.string())


class TableGames:
    """A batch of native games: per game what :class:`~cardroom.sim.tournament.GameResult`
    holds (``totals``, ``winners``, ``winner_lists``, ``deal_points``, ``actions``, ``extras``)
    and the ``places`` of the ``games`` table, and per table of BAEBAE's its columns
    (:meth:`columns`) with the game of each row (:meth:`row_games`)."""

    def __init__(self, rules: Rules, found: dict[str, tuple[bytes, str]]) -> None:
        self.players = players = rules.players
        self._rules = rules
        self._found = got = arrays(found)
        self.totals: list[list[int]] = per_seat(got["totals"].to_pylist(), players)
        stopped = got["stopped"].to_pylist()
        firsts = per_seat(got["winners"].to_pylist(), players)
        self.winner_lists = [[s for s, first in enumerate(row) if first] for row in firsts]
        self.winners: list[int] = [-1 if stop else row[0]
                                   for stop, row in zip(stopped, self.winner_lists, strict=True)]
        """The first winner of each game, -1 when the action guard stopped it."""
        self.actions: list[int] = got["actions"].to_pylist()
        self.extras = [{"blocked_rounds": b, "guard_rounds": g}  # the spec's result_extras
                       for b, g in zip(got["blocked"].to_pylist(), got["guarded"].to_pylist(), strict=True)]
        self.deal_points = deal_rows(got, players)
        # as results.rows: from the end event's ranking, none for a game the guard stopped
        self.places = places(self.totals, stopped)

    def row_games(self) -> dict[str, pa.Array]:
        """Per table, the game (its place in the batch) of each row."""
        got = self._found
        return {"deals": got["deal_game"], "cards": got["card_game"], "hands": got["hand_game"]}

    def columns(self) -> dict[str, dict[str, pa.Array]]:
        """Per table, its columns after the key (``game_index``, ``seed``), by name."""
        got, n, rules = self._found, self.players, self._rules
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


def table_games(
    rules: Rules, core_rules: Any, seeds: Sequence[int], seats: Sequence[Sequence[bool]],
    max_actions: int,
) -> TableGames:
    """Games of ``seeds`` (game ``i`` seed ``seeds[i]``, seat ``s`` the heuristic where
    ``seats[i][s]``, else the random agent, seeded as simulate seeds them), natively, with every
    fact of their tables; ``core_rules``: the rules as the core takes them (``native.core_rules``)."""
    found = core().baebae_table_games(
        core_rules, seeds=list(seeds), heuristic=[flag for game in seats for flag in game],
        max_actions=max_actions,
    )
    return TableGames(rules, found)
