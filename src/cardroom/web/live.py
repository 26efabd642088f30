"""A live table and its connections: what the table manager keeps in memory for each table.

A connection queues its messages and sends them in order; one that stops reading is dropped
rather than let it hold the server's memory.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardroom.agents import Agent
from cardroom.engine import Rules, State
from cardroom.web.store import TableData

__all__ = ["TableError", "Connection", "LiveTable", "hash_token", "MAX_QUEUED", "MAX_QUEUED_BYTES"]

log = logging.getLogger("cardroom.web")

MAX_QUEUED = 1000
"""Messages waiting to be sent to one connection; a connection that falls further behind is closed."""
MAX_QUEUED_BYTES = 2 * 1024 * 1024
"""Bytes of messages waiting to be sent to one connection; one that falls further behind is closed."""


class TableError(Exception):
    """A request about tables that cannot be granted: ``status`` is the HTTP status to answer."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        """For a refusal that passes (429, 503): seconds to wait, sent as ``Retry-After``."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Connection:
    """One WebSocket of a table: its seat (``None`` for a spectator) and its outgoing queue."""

    def __init__(self, send: Callable[[str], Any]) -> None:
        self._send = send
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
        self.queued += len(text)
        self.queue.put_nowait(text)

    def close(self) -> None:
        """Close once the messages queued so far are sent."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    def abort(self) -> None:
        """Close now: drop what is queued and stop a send that waits on the client."""
        self.closed = True
        self.dropped = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queued = 0
        self.queue.put_nowait(None)  # a writer yet to start stops at once
        if self.writer is not None and self.writer is not asyncio.current_task():
            self.writer.cancel()

    async def write(self) -> None:
        """Send queued messages until closed."""
        self.writer = asyncio.current_task()
        while True:
            text = await self.queue.get()
            if text is None:
                return
            self.queued -= len(text)
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
