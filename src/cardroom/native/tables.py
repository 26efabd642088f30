"""The results tables of native games, every game's: the core's columns (``native/cardroom/tables.hpp``
hands each as its bytes and its element type, by name) as Arrow arrays without a Python object a
value, and the shapes the tables' columns take. A game's ``native_tables`` module names its
columns' meaning (``games/<game>/native_tables.py``).
"""

from __future__ import annotations

from typing import Any

from cardroom.extras import needs_extra

try:
    import pyarrow as pa
    import pyarrow.compute as pc
except ModuleNotFoundError as err:  # an install without the results extra: say which to add
    raise needs_extra(err, f"{__name__}.arrays") from None

__all__ = ["arrays", "deal_rows", "lists", "nulls_below_zero", "per_seat", "places", "texts"]

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
