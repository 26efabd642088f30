"""A live table and its connections: what the table manager keeps in memory for each table.

A connection queues its messages and sends them in order; one that stops reading is dropped
rather than let it hold the server's memory.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import functools
import hashlib
import hmac
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardroom import games
from cardroom.agents import Agent
from cardroom.engine import Rules, State
from cardroom.games import GameSpec
from cardroom.web.refusal import Refusal
from cardroom.web.store import TableData

__all__ = [
    "TableError", "Connection", "LiveTable", "QueueBudget", "hash_token", "MAX_QUEUED", "MAX_QUEUED_BYTES",
    "MAX_TOTAL_QUEUED_BYTES",
]

log = logging.getLogger("cardroom.web")

MAX_QUEUED = 1000
"""Messages waiting to be sent to one connection; a connection that falls further behind is closed."""
MAX_QUEUED_BYTES = 2 * 1024 * 1024
"""Bytes of messages waiting to be sent to one connection; one that falls further behind is closed."""
MAX_TOTAL_QUEUED_BYTES = 128 * 1024 * 1024
"""Bytes of messages waiting to be sent to all the connections of a server together: past it,
the connections furthest behind are closed (else 10,000 clients that stop reading could each
hold up to ``MAX_QUEUED_BYTES``: 20 GiB)."""
TRIM_EVERY = 1.0
"""Seconds between two hand-backs of freed memory to the system (see :class:`QueueBudget`)."""


class QueueBudget:
    """The bytes queued for every connection of one server, bounded by ``limit`` in all.

    A connection dropped for falling behind frees its queue; the C allocator keeps freed
    memory for the process unless asked, so after a drop it is asked to give it back to the
    system (``malloc_trim``, glibc; at most once every ``TRIM_EVERY`` seconds).
    """

    def __init__(self, limit: int | None = None) -> None:
        self.limit = MAX_TOTAL_QUEUED_BYTES if limit is None else limit
        self.used = 0
        self.queued: set[Connection] = set()
        """The connections with messages waiting."""
        self.dropped = 0
        """Connections closed to keep within ``limit``."""
        self._trimmed = 0.0
        self._pending = False

    def make_room(self, size: int, asking: Connection) -> None:
        """Close the connections furthest behind until ``size`` more bytes fit (``asking``, the
        connection that would queue them, among them)."""
        while self.queued and self.used + size > self.limit:
            furthest = max(self.queued, key=lambda c: c.queued)
            log.warning("closing the connection furthest behind (%d bytes waiting): the server's "
                        "connections have %d bytes waiting, the most they may", furthest.queued, self.used)
            furthest.abort()
            self.dropped += 1
            if furthest is asking:
                return

    def trim(self) -> None:
        """Hand freed memory back now, or once ``TRIM_EVERY`` has passed since the last time
        (many connections going at once are one hand-back, after the last of them)."""
        if self._pending:
            return
        wait = TRIM_EVERY - (time.monotonic() - self._trimmed)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if wait <= 0 or loop is None:
            self._trim_now()
        else:
            self._pending = True
            loop.call_later(wait, self._trim_now)

    def _trim_now(self) -> None:
        self._pending = False
        self._trimmed = time.monotonic()
        _malloc_trim()


def _malloc_trim() -> None:
    """Hand freed heap memory back to the system (glibc only; elsewhere nothing)."""
    global _libc
    if _libc is None:
        try:
            _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            _libc.malloc_trim  # noqa: B018  (present: glibc)
        except (OSError, AttributeError):
            _libc = False
    if _libc:
        _libc.malloc_trim(0)


_libc: Any = None


class TableError(Refusal):
    """A request about tables that cannot be granted: ``status`` is the HTTP status to answer."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(status, message, retry_after)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Connection:
    """One WebSocket of a table: its seat (``None`` for a spectator) and its outgoing queue."""

    def __init__(self, send: Callable[[str], Any], budget: QueueBudget | None = None,
                 address: str = "") -> None:
        self._send = send
        self.address = address
        """The client's address (as ``guard.client_address`` counts it), which bounds its hints."""
        self.held_until = 0.0
        """Until when (the loop's clock) its next message is not read: it asked faster than its
        bounds allow, and waits unread (the server spends nothing on it meanwhile)."""
        self.budget = budget if budget is not None else QueueBudget()
        """The bound on the bytes queued for every connection of the server together."""
        self.greeted = False
        self.seat: int | None = None
        self.sent = 0
        """Events of the log this connection has been sent."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.queued = 0
        """Bytes of the messages in the queue."""
        self.closed = False
        self.dropped = False
        """Closed at once (it fell too far behind): its socket is to be dropped, not closed politely."""
        self.writer: asyncio.Task[None] | None = None
        """The task running :meth:`write`, once it runs."""

    def push(self, message: dict[str, Any]) -> None:
        """Queue a message; it is sent in order by :meth:`write`."""
        if self.closed:
            return
        try:
            text = json.dumps(message, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError):  # a bug: it costs this connection, not the caller's loop
            log.exception("a message could not be written as JSON; closing its connection")
            self.abort()
            return
        # A client that stops reading must not hold the server's memory: past either bound the
        # connection is dropped at once (a first message may be large on its own: the whole log).
        if self.queue.qsize() >= MAX_QUEUED or (self.queued and self.queued + len(text) > MAX_QUEUED_BYTES):
            log.warning("closing a connection that does not read its messages")
            self.abort()
            return
        self.budget.make_room(len(text), self)
        if self.closed:
            return
        self._count(len(text))
        self.queue.put_nowait(text)

    def _count(self, size: int) -> None:
        """``size`` more bytes queued (fewer, when negative), here and in the server's budget."""
        self.queued += size
        self.budget.used += size
        if self.queued:
            self.budget.queued.add(self)
        else:
            self.budget.queued.discard(self)

    def close(self) -> None:
        """Close once the messages queued so far are sent."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    def release(self) -> None:
        """The connection is gone: forget what waits for it (and count it out of the budget)."""
        self.closed = True
        freed = self.queued
        while not self.queue.empty():
            self.queue.get_nowait()
        self._count(-self.queued)
        self.queue.put_nowait(None)  # a writer still running stops at once
        if freed > 64 * 1024:
            self.budget.trim()

    def abort(self) -> None:
        """Close now: drop what is queued and stop a send that waits on the client."""
        self.dropped = True
        self.release()
        if self.writer is not None and self.writer is not asyncio.current_task():
            self.writer.cancel()

    async def write(self) -> None:
        """Send queued messages until closed."""
        self.writer = asyncio.current_task()
        while True:
            text = await self.queue.get()
            if text is None:
                return
            self._count(-len(text))
            await self._send(text)


@dataclass
class LiveTable:
    data: TableData
    rules: Rules | None
    state: State | None = None
    seq: int = 0
    agents: dict[int, Agent] = field(default_factory=dict)
    away: set[int] = field(default_factory=set)
    conns: list[Connection] = field(default_factory=list)
    deadline: float | None = None
    task: asyncio.Task[None] | None = None
    cards: list[dict[str, Any]] | None = None
    seen: float = field(default_factory=time.time)
    """When a player was last connected (or the table was made or loaded): see ``ABANDON_AFTER``."""
    gone: dict[int, float] = field(default_factory=dict)
    """Seats of the running game whose person has no connection, and since when (the event
    loop's clock): past the grace period a stand-in plays them (``TablePlay.away_after``)."""
    grace: asyncio.TimerHandle | None = None
    """The next look at ``gone`` seats whose grace period ends."""

    @functools.cached_property
    def spec(self) -> GameSpec:
        """The game the table plays, asked of the registry once: its stored data names it."""
        return games.get(self.data.game)

    @property
    def id(self) -> str:
        return self.data.id

    @property
    def status(self) -> str:
        return self.data.status

    def seat_of(self, token: str) -> int | None:
        digest = hash_token(token)
        for s in self.data.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    def connected(self, seat: int) -> bool:
        return any(c.greeted and c.seat == seat for c in self.conns)

    def people(self) -> bool:
        """Whether a player (a connection holding a seat, not a watcher) is here."""
        return any(c.greeted and c.seat is not None for c in self.conns)
