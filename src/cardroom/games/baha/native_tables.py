"""Baha's results tables from native games: the columns ``simulate --out`` writes, as Arrow arrays.

The native engine (``native/cardroom/baha_tables.hpp``) plays whole games of simulate's agents
and records, as it plays, every fact that :func:`cardroom.games.baha.results.rows` reads from a
finished game's log, column by column in flat arrays; here they become Arrow arrays without a
Python object a row. The rows are those of the Python path, value for value and in the same
order (``tests/native/test_tables_native.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.engine import SPLITMIX
from cardroom.extras import needs_extra
from cardroom.games.baha.actions import CARD_TEXT
from cardroom.games.baha.rules import Rules
from cardroom.native import core

try:
    import pyarrow as pa
    import pyarrow.compute as pc
except ModuleNotFoundError as err:  # an install without the results extra: say which to add
    raise needs_extra(err, f"{__name__}.table_games") from None

__all__ = ["TableGames", "table_games"]

_CARDS = pa.array(CARD_TEXT, pa.string())
_PASS = pa.array(["left", "none", "right"], pa.string())  # by the pass offset's sign, plus one
_TYPES = {"i1": pa.int8(), "u1": pa.uint8(), "i4": pa.int32(), "i8": pa.int64()}
_COLUMNS = {
    "totals": "i8", "winner": "i4", "actions": "i8", "deals": "i4", "moons": "i4",
    "deal_game": "i4", "deal_no": "i4", "deal_decisions": "i4", "deal_points": "i8", "deal_totals": "i8",
    "deal_moon": "i1", "deal_pass": "i1",
    "card_game": "i4", "card_deal": "i4", "card_turn": "i4", "card_trick": "i4", "card_horns": "i4",
    "card_seat": "i1", "card_card": "i1", "card_taken_by": "i1", "card_led": "u1", "card_won": "u1",
    "hand_game": "i4", "hand_deal": "i4", "hand_seat": "i1", "hand_card": "i1", "hand_passed": "u1",
    "hand_received": "u1",
    "trick_game": "i4", "trick_deal": "i4", "trick_no": "i4", "trick_horns": "i4", "trick_leader": "i1",
    "trick_winner": "i1", "trick_cards": "i1",
}
"""Every column the native batch returns, with its element type (as NumPy spells them)."""


def _array(data: bytes, kind: str) -> pa.Array:
    """A column's bytes as an Arrow array (one copy of the bytes, no Python object a value)."""
    dtype = _TYPES[kind]
    return pa.Array.from_buffers(dtype, len(data) // (dtype.bit_width // 8), [None, pa.py_buffer(data)])


def _lists(values: pa.Array, width: int) -> pa.ListArray:
    """``values`` cut into lists of ``width`` (one a row), as the tables' variable-length lists."""
    return pa.FixedSizeListArray.from_arrays(values, width).cast(pa.list_(values.type))


def _nulls_below_zero(values: pa.Array) -> pa.Array:
    """-1 (nobody) as a null, as the Python rows hold ``None``."""
    return pc.if_else(pc.less(values, 0), pa.scalar(None, values.type), values)


class TableGames:
    """A batch of native games: per game what :class:`~cardroom.sim.tournament.GameResult`
    holds (``totals``, ``winners``, ``deal_points``, ``actions``, ``extras``) and the ``places``
    of the ``games`` table, and per table of Baha's its columns (:meth:`columns`) with the game
    of each row (:meth:`row_games`)."""

    def __init__(self, players: int, found: dict[str, bytes]) -> None:
        self.players = players
        self._found = {name: _array(found[name], kind) for name, kind in _COLUMNS.items()}
        got = self._found
        flat = got["totals"].to_pylist()
        self.totals = [flat[i:i + players] for i in range(0, len(flat), players)]
        self.winners: list[int] = got["winner"].to_pylist()
        self.actions: list[int] = got["actions"].to_pylist()
        self.extras = [{"moons": moons} for moons in got["moons"].to_pylist()]  # the spec's result_extras
        points = got["deal_points"].to_pylist()
        rows = [points[i:i + players] for i in range(0, len(points), players)]
        self.deal_points: list[list[list[int]]] = []
        start = 0
        for deals in got["deals"].to_pylist():
            self.deal_points.append(rows[start:start + deals])
            start += deals
        # as results.rows: from the end event's totals, none for a game the guard stopped
        self.places: list[list[int] | None] = [
            None if winner < 0 else [1 + sum(other < mine for other in totals) for mine in totals]
            for winner, totals in zip(self.winners, self.totals, strict=True)
        ]

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
                "deal": got["deal_no"], "points": _lists(got["deal_points"].cast(pa.int32()), n),
                "totals": _lists(got["deal_totals"].cast(pa.int32()), n), "decisions": got["deal_decisions"],
                "moon": _nulls_below_zero(got["deal_moon"]),
                "pass": _PASS.take(pc.add(got["deal_pass"].cast(pa.int32()), 1)),
            },
            "cards": {
                "deal": got["card_deal"], "turn": got["card_turn"], "seat": got["card_seat"], "card": cards,
                "design": cards, "trick": got["card_trick"], "led": got["card_led"].cast(pa.bool_()),
                "won_trick": got["card_won"].cast(pa.bool_()), "horns": got["card_horns"],
                "horns_taken_by": _nulls_below_zero(got["card_taken_by"]),
            },
            "hands": {
                "deal": got["hand_deal"], "seat": got["hand_seat"], "card": hand_cards, "design": hand_cards,
                "passed": got["hand_passed"].cast(pa.bool_()),
                "received": got["hand_received"].cast(pa.bool_()),
            },
            "tricks": {
                "deal": got["trick_deal"], "trick": got["trick_no"], "leader": got["trick_leader"],
                "winner": got["trick_winner"], "cards": _lists(_CARDS.take(got["trick_cards"]), n),
                "horns": got["trick_horns"],
            },
        }


def table_games(
    rules: Rules, seeds: Sequence[int], seats: Sequence[Sequence[bool]], max_actions: int
) -> TableGames:
    """Games of ``seeds`` (game ``i`` seed ``seeds[i]``, seat ``s`` the heuristic where
    ``seats[i][s]``, else the random agent, seeded as simulate seeds them), natively, with every
    fact of their tables."""
    found = core().baha_table_games(
        rules.players, rules.scoring == "face", rules.passing, rules.moon, rules.target,
        bool(rules.draw_pile), rules.random_dealer, list(seeds), [flag for game in seats for flag in game],
        max_actions, rules.stream == SPLITMIX,
    )
    return TableGames(rules.players, found)
