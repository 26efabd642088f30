"""The chat at a table: what its players said, bounded in length (``protocol.MAX_CHAT``), in
rate (``CHAT_BURST`` messages a seat in ``CHAT_WINDOW`` seconds) and in memory (the last
``CHAT_KEPT`` messages of the ``CHAT_TABLES`` tables that spoke last). Kept in memory only: a
restart forgets it. The text is sent as JSON data and the pages show it as text, never as HTML.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from typing import Any

from cardroom.web.protocol import ProtocolError

__all__ = ["TableChat", "CHAT_BURST", "CHAT_WINDOW", "CHAT_KEPT", "CHAT_TABLES"]

CHAT_BURST = 5
CHAT_WINDOW = 10.0
CHAT_KEPT = 30
CHAT_TABLES = 1000


class TableChat:
    def __init__(self) -> None:
        self._said: OrderedDict[str, deque[dict[str, Any]]] = OrderedDict()
        self._times: dict[tuple[str, int], deque[float]] = {}

    def say(self, table_id: str, seat: int, name: str, text: str, now: float) -> dict[str, Any]:
        """The ``chat`` message for ``seat`` saying ``text``; refused past the rate."""
        times = self._times.setdefault((table_id, seat), deque())
        while times and times[0] <= now - CHAT_WINDOW:
            times.popleft()
        if len(times) >= CHAT_BURST:
            wait = int(times[0] + CHAT_WINDOW - now) + 1
            raise ProtocolError("slow_down",
                                f"at most {CHAT_BURST} chat messages in {CHAT_WINDOW:g} seconds; "
                                f"wait {wait} s")
        times.append(now)
        said = {"type": "chat", "seat": seat, "name": name, "text": text, "at": now}
        kept = self._said.pop(table_id, None) or deque(maxlen=CHAT_KEPT)
        kept.append(said)
        self._said[table_id] = kept  # the table that spoke last goes last
        while len(self._said) > CHAT_TABLES:
            old, _ = self._said.popitem(last=False)
            for key in [k for k in self._times if k[0] == old]:
                del self._times[key]
        return said

    def rename(self, table_id: str, seat: int, name: str) -> None:
        """What ``seat`` said at ``table_id`` is kept under ``name`` from now on."""
        for said in self._said.get(table_id, ()):
            if said["seat"] == seat:
                said["name"] = name

    def recent(self, table_id: str) -> list[dict[str, Any]]:
        return list(self._said.get(table_id, ()))
