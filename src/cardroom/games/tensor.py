"""What a game's observation encoder is made of: named slices of a fixed-size array.

Each game that offers learning environments keeps an encoder in its own package (named by
its spec's ``observation`` field) with five methods:

- ``size(rules)``: the length of the observation array for those rules;
- ``num_actions(rules)``: the size of the game's fixed action space;
- ``slices(rules)``: the array's :class:`Slice` list, in order, covering it exactly;
- ``bounds(rules)``: the least and greatest value of each entry (arrays, from the slices);
- ``encode(state, seat, out)``: fill ``out`` (float32, of ``size(rules)``) with what
  ``seat`` may know now, and nothing more.

and ``private``, the names of the slices that hold the observing seat's own secrets (the
others hold public information only).

Per-seat slices are ordered from the observing seat: the first entry is that seat, the next
the seat after it in seat order, and so on, so one policy can sit in any seat.

Numpy is needed only here and by the encoders: the rules never import them.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

__all__ = ["Slice", "Layout", "PerRules", "put_bits", "put_floats"]

T = TypeVar("T")


class PerRules(Generic[T]):
    """What ``make(rules)`` gives, kept per rules object: keyed by the object itself (its id,
    with the object kept in the entry so that the id is not reused), because hashing a deck's
    rules on every step would cost more than the encoding. At most ``limit`` entries."""

    def __init__(self, make: Callable[[Any], T], limit: int = 64) -> None:
        self.make = make
        self.limit = limit
        self.entries: dict[int, tuple[Any, T]] = {}

    def get(self, rules: Any) -> T:
        entry = self.entries.get(id(rules))
        if entry is None or entry[0] is not rules:
            if len(self.entries) > self.limit:
                self.entries.clear()
            entry = self.entries[id(rules)] = (rules, self.make(rules))
        return entry[1]


class Slice(NamedTuple):
    """One named part of an observation array: ``out[start:stop]``."""

    name: str
    start: int
    stop: int
    low: float
    """The least value an entry may take (``-inf`` if unbounded)."""
    high: float
    """The greatest value an entry may take (``inf`` if unbounded)."""
    meaning: str
    """What the entries say, for people (docs/research.md lists it)."""


class Layout:
    """Slices added one after another; ``size`` is where the next would start."""

    def __init__(self) -> None:
        self.slices: list[Slice] = []
        self.size = 0

    def add(self, name: str, width: int, meaning: str, low: float = 0.0, high: float = 1.0) -> int:
        """Append a slice of ``width`` entries; returns where it starts."""
        start = self.size
        self.slices.append(Slice(name, start, start + width, low, high, meaning))
        self.size += width
        return start

    def bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Per-entry lower and upper bounds (an observation space's ``low`` and ``high``)."""
        low = np.empty(self.size, np.float32)
        high = np.empty(self.size, np.float32)
        for s in self.slices:
            low[s.start:s.stop] = s.low
            high[s.start:s.stop] = s.high
        return low, high


def put_bits(out: npt.NDArray[np.float32], bits: int, count: int) -> None:
    """Write the low ``count`` bits of ``bits`` into ``out[:count]`` as 0.0 and 1.0.

    Encoders pack their 0/1 entries into one Python int (bit ``i`` is entry ``i``) because
    setting a bit costs far less than a numpy item assignment; one unpack writes them all.
    """
    raw = np.frombuffer(bits.to_bytes((count + 7) // 8, "little"), np.uint8)
    out[:count] = np.unpackbits(raw, count=count, bitorder="little")


_PACKERS: dict[int, struct.Struct] = {}


def put_floats(out: npt.NDArray[np.float32], start: int, values: Sequence[float]) -> None:
    """Write ``values`` into ``out[start:start + len(values)]`` (``out``: a whole float32 array).

    Packed straight into the array's memory: numpy reads a short list of Python floats
    several times slower than ``struct`` writes it.
    """
    packer = _PACKERS.get(len(values))
    if packer is None:
        packer = _PACKERS[len(values)] = struct.Struct(f"={len(values)}f")
    packer.pack_into(out, start * 4, *values)  # type: ignore[arg-type]  # a numpy array is a buffer
