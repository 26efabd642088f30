"""Baha's results tables from native games: the columns ``simulate --out`` writes, as Arrow arrays.

The native engine (``native/cardroom/baha_tables.hpp``) plays whole games of simulate's agents
and records, as it plays, every fact that :func:`cardroom.games.baha.results.rows` reads from a
finished game's log, column by column in flat arrays; here they become Arrow arrays without a
Python object a row. The rows are those of the Python path, value for value and in the same
order (``tests/native/test_tables_native.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.extras import needs_extra
from cardroom.games.baha.actions import CARD_TEXT
from cardroom.games.baha.rules import Rules
from cardroom.native import core

try:
    import pyarrow as pa
    import pyarrow.compute as pc

    from cardroom.native.tables import (  # pyarrow's too
        arrays,
        deal_rows,
        lists,
        nulls_below_zero,
        per_seat,
        places,
    )
except ModuleNotFoundError as err:  # an install without the results extra: say which to add
    raise needs_extra(err, f"{__name__}.table_games") from None

__all__ = ["TableGames", "table_games"]

_CARDS = pa.array(CARD_TEXT, pa.string())
_PASS = pa.array(["left", "none", "right"], pa.string())  # by the pass offset's sign, plus one
class TableGames:
    """A batch of native games: per game what :class:`~cardroom.sim.tournament.GameResult`
    holds (``totals``, ``winners``, ``deal_points``, ``actions``, ``extras``) and the ``places``
    of the ``games`` table, and per table of Baha's its columns (:meth:`columns`) with the game
    of each row (:meth:`row_games`)."""

    def __init__(self, players: int, found: dict[str, tuple[bytes, str]]) -> None:
        self.players = players
        self._found = got = arrays(found)
        self.totals: list[list[int]] = per_seat(got["totals"].to_pylist(), players)
        self.winners: list[int] = got["winner"].to_pylist()
        self.actions: list[int] = got["actions"].to_pylist()
        self.extras = [{"moons": moons} for moons in got["moons"].to_pylist()]  # the spec's result_extras
        self.deal_points = deal_rows(got, players)
        # as results.rows: from the end event's totals, none for a game the guard stopped
        self.places = places(self.totals, [winner < 0 for winner in self.winners])

    def row_games(self) -> dict[str, pa.Array]:
        """Per table, the game (its place in the batch) of each row."""
        got = self._found
        return {"deals": got["deal_game"], "cards": got["card_game"], "hands": got["hand_game"],
                "tricks": got["trick_game"]}

    def columns(self) -> dict[str, dict[str, pa.Array]]:
        """Per table, its columns after the key (``game_index``, ``seed``), by name."""
        got, n = self._found, self.players
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


def table_games(
    rules: Rules, core_rules: Any, seeds: Sequence[int], seats: Sequence[Sequence[bool]],
    max_actions: int,
) -> TableGames:
    """Games of ``seeds`` (game ``i`` seed ``seeds[i]``, seat ``s`` the heuristic where
    ``seats[i][s]``, else the random agent, seeded as simulate seeds them), natively, with every
    fact of their tables; ``core_rules``: the rules as the core takes them (``native.core_rules``)."""
    found = core().baha_table_games(
        core_rules, seeds=list(seeds), heuristic=[flag for game in seats for flag in game],
        max_actions=max_actions,
    )
    return TableGames(rules.players, found)
