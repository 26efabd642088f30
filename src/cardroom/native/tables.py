"""The results tables of native games, every game's: the core's columns (``native/cardroom/tables.hpp``
hands each as its bytes and its element type, by name) as Arrow arrays without a Python object a
value, the shapes the tables' columns take, and the batch itself (:class:`TableGames`, played by
a game's :class:`Tables`). A game's ``native_tables`` module gives only its descriptor: the
core's function, its tables, its extras and what its columns mean
(``games/<game>/native_tables.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.extras import needs_extra
from cardroom.native import core

try:
    import pyarrow as pa
    import pyarrow.compute as pc
except ModuleNotFoundError as err:  # an install without the results extra: say which to add
    raise needs_extra(err, f"{__name__}.arrays") from None

__all__ = [
    "TableGames", "Tables", "arrays", "deal_rows", "lists", "nulls_below_zero", "per_seat", "places", "texts",
]

_TYPES = {"i1": pa.int8(), "u1": pa.uint8(), "i4": pa.int32(), "i8": pa.int64()}


def arrays(found: dict[str, tuple[bytes, str]]) -> dict[str, pa.Array]:
    """Every column the core returned (its bytes, its element type as NumPy spells it) as an
    Arrow array: one copy of the bytes, no Python object a value."""
    out = {}
    for name, (data, kind) in found.items():
        dtype = _TYPES[kind]
        size = len(data) // (dtype.bit_width // 8)
        out[name] = pa.Array.from_buffers(dtype, size, [None, pa.py_buffer(data)])
    return out


def lists(values: pa.Array, width: int) -> pa.ListArray:
    """``values`` cut into lists of ``width`` (one a row), as the tables' variable-length lists."""
    return pa.FixedSizeListArray.from_arrays(values, width).cast(pa.list_(values.type))


def nulls_below_zero(values: pa.Array) -> pa.Array:
    """-1 (nobody, none) as a null, as the Python rows hold ``None``."""
    return pc.if_else(pc.less(values, 0), pa.scalar(None, values.type), values)


def texts(words: pa.Array, codes: pa.Array) -> pa.Array:
    """Each code's word, a null where the code is -1 (nothing named)."""
    return words.take(nulls_below_zero(codes))


def per_seat(flat: list[Any], players: int) -> list[list[Any]]:
    """A per-seat column (``players`` values a row) as one list a row."""
    return [flat[i:i + players] for i in range(0, len(flat), players)]


def deal_rows(got: dict[str, pa.Array], players: int) -> list[list[list[int]]]:
    """Per game, the points of every scored deal (one list a seat), from the ``deal_points``
    and per-game ``deals`` columns."""
    points = per_seat(got["deal_points"].to_pylist(), players)
    out: list[list[list[int]]] = []
    start = 0
    for deals in got["deals"].to_pylist():
        out.append(points[start:start + deals])
        start += deals
    return out


def places(totals: list[list[int]], stopped: list[bool]) -> list[list[int] | None]:
    """The ``games`` table's places, as results.rows reads them from a finished game's totals
    (the lowest first, ties sharing a place); none for a game the action guard stopped."""
    return [
        None if stop else [1 + sum(other < mine for other in row) for mine in row]
        for stop, row in zip(stopped, totals, strict=True)
    ]


Columns = dict[str, dict[str, pa.Array]]
"""Per table, its columns after the key (``game_index``, ``seed``), by name."""


@dataclass(frozen=True)
class Tables:
    """A game's results tables from native games, described: ``function``, the core's table batch
    (``<game>_table_games``, ``native/cardroom/tables.hpp``); ``tables``, per table the prefix of
    its columns (the game of each row is the column ``<prefix>_game``); ``extras``, per one of
    the spec's ``result_extras`` the per-game column that holds it; ``shared_first``, whether
    first place may be shared (the core then gives per seat whether it is first, ``winners``,
    and per game whether the guard stopped it, ``stopped``; else the one ``winner``, -1 for a
    game the guard stopped); ``columns(got, rules)``, the tables' columns from the core's
    arrays."""

    function: str
    tables: Mapping[str, str]
    extras: Mapping[str, str]
    shared_first: bool
    columns: Callable[[dict[str, pa.Array], Any], Columns]

    def table_games(
        self, rules: Any, core_rules: Any, seeds: Sequence[int], seats: Sequence[Sequence[bool]],
        max_actions: int,
    ) -> TableGames:
        """Games of ``seeds`` (game ``i`` seed ``seeds[i]``, seat ``s`` the heuristic where
        ``seats[i][s]``, else the random agent, seeded as simulate seeds them), natively, with
        every fact of their tables; ``core_rules``: the rules as the core takes them (the game's
        ``native.core_rules``)."""
        found = getattr(core(), self.function)(
            core_rules, seeds=list(seeds), heuristic=[flag for game in seats for flag in game],
            max_actions=max_actions,
        )
        return TableGames(self, rules, found)


class TableGames:
    """A batch of native games: per game what :class:`~cardroom.sim.tournament.GameResult`
    holds (``totals``, ``winners``, ``winner_lists`` where first place may be shared, else
    ``None``, ``deal_points``, ``actions``, ``extras``) and the ``places`` of the ``games``
    table, and per table of the game's its columns (:meth:`columns`) with the game of each row
    (:meth:`row_games`)."""

    def __init__(self, tables: Tables, rules: Any, found: dict[str, tuple[bytes, str]]) -> None:
        self.players = players = rules.players
        self._tables, self._rules = tables, rules
        self._found = got = arrays(found)
        self.totals: list[list[int]] = per_seat(got["totals"].to_pylist(), players)
        self.winner_lists: list[list[int]] | None = None
        # winners: the first winner of each game, -1 when the action guard stopped it
        if tables.shared_first:
            stopped: list[Any] = got["stopped"].to_pylist()
            firsts = per_seat(got["winners"].to_pylist(), players)
            self.winner_lists = [[s for s, first in enumerate(row) if first] for row in firsts]
            self.winners: list[int] = [-1 if stop else row[0]
                                       for stop, row in zip(stopped, self.winner_lists, strict=True)]
        else:
            self.winners = got["winner"].to_pylist()
            stopped = [winner < 0 for winner in self.winners]
        self.actions: list[int] = got["actions"].to_pylist()
        names = list(tables.extras)
        values = [got[column].to_pylist() for column in tables.extras.values()]
        self.extras: list[dict[str, int]] = [dict(zip(names, row, strict=True))  # the spec's result_extras
                                             for row in zip(*values, strict=True)]
        self.deal_points = deal_rows(got, players)
        # as results.rows: from the end event's totals, none for a game the guard stopped
        self.places = places(self.totals, stopped)

    def row_games(self) -> dict[str, pa.Array]:
        """Per table, the game (its place in the batch) of each row."""
        return {table: self._found[f"{prefix}_game"] for table, prefix in self._tables.tables.items()}

    def columns(self) -> Columns:
        """Per table, its columns after the key (``game_index``, ``seed``), by name."""
        return self._tables.columns(self._found, self._rules)
