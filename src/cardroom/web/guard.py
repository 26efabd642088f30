"""Connections to the web table, bounded: per address, server-wide, and in time.

Uvicorn accepts every TCP connection and waits for ever on a request that never finishes, so
one address could hold every file descriptor of the server with half-sent requests. The
HTTP protocol here (Uvicorn's httptools protocol, guarded) refuses a connection past
``MAX_CONNECTIONS_PER_ADDRESS`` from one address or past the server's total, and closes a
connection whose request (headers and body) has not arrived within ``REQUEST_TIMEOUT``
seconds. WebSockets start as HTTP requests, so they are counted too, for their whole life.
The gate also lets the application drop a WebSocket's connection outright (``abort``): a
client that stops reading cannot be closed politely, since it never reads the close either.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import os
import resource
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = [
    "client_address",
    "SiteGuard",
    "CONTENT_SECURITY_POLICY",
    "is_loopback",
    "ConnectionGate",
    "TableQuota",
    "server_config",
    "MAX_TABLES_PER_ADDRESS",
    "CREATES_PER_MINUTE",
    "MAX_CONNECTIONS_PER_ADDRESS",
    "MAX_SERVER_CONNECTIONS",
    "REQUEST_TIMEOUT",
    "guarded_http",
    "refuse",
]

log = logging.getLogger("cardroom.web")

MAX_CONNECTIONS_PER_ADDRESS = 100
"""Open connections (HTTP and WebSocket) one client address may hold."""
MAX_SERVER_CONNECTIONS = 10_000
"""Open connections the whole server holds (less when the open-file limit is lower)."""
REQUEST_TIMEOUT = 10.0
"""Seconds a request's headers and body may take to arrive; a connection that opens and
sends nothing is closed after the same time."""

_REFUSED = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\n"
    b"content-length: %d\r\n\r\n%s"
)


def client_address(host: str) -> str:
    """The key every per-address bound counts by: one client, however its address is written.

    A dual-stack server sees a local client as ``::1`` or ``127.0.0.1``, and an IPv4 client as
    ``::ffff:1.2.3.4``: each is the same client as its IPv4 form. Anything that is not an address
    (a forwarded header from a trusted proxy may say anything) is one client, ``"?"``, so made-up
    strings cannot be many.

    >>> client_address("::1"), client_address("::ffff:10.0.0.5"), client_address("not an address")
    ('127.0.0.1', '10.0.0.5', '?')
    """
    try:
        ip = ipaddress.ip_address(host.strip().removeprefix("[").removesuffix("]"))
    except ValueError:
        return "?"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip == ipaddress.IPv6Address("::1"):
            return "127.0.0.1"
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
    return str(ip)


def _server_limit() -> int:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_SERVER_CONNECTIONS
    return max(16, min(MAX_SERVER_CONNECTIONS, soft // 2))  # the other half: database, decks, workers


class ConnectionGate:
    """The open connections of one server, by client address."""

    def __init__(self, per_address: int | None = None, total: int | None = None) -> None:
        self.per_address = per_address or MAX_CONNECTIONS_PER_ADDRESS
        self.total = total or _server_limit()
        self._open: dict[str, dict[int, asyncio.Transport]] = {}
        """Per address, per client port: the transport (a closed one is pruned when counted)."""
        self._count = 0
        self._admitted = 0
        self.exempt: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()
        """Addresses the per-address bound does not hold (the trusted proxies, and the other
        servers of a cluster, whose clients are bounded where they connect); the total does."""

    def admit(self, address: str, port: int, transport: asyncio.Transport) -> str | None:
        """Count a new connection; ``None`` if it may stay, else why it may not."""
        mine = self._open.setdefault(client_address(address), {})
        self._prune(mine)
        if len(mine) >= self.per_address and not self._exempt(address):
            return f"this address already has {self.per_address} connections open; close some first"
        if self._count >= self.total:
            for each in self._open.values():
                self._prune(each)
            if self._count >= self.total:
                return f"the server holds {self.total} connections, its most; try again later"
        mine[port] = transport
        self._count += 1
        self._admitted += 1
        if self._admitted % 1000 == 0:  # now and then, let go of every closed connection
            for other in list(self._open):
                self._prune(self._open[other])
                if not self._open[other]:
                    del self._open[other]
        return None

    def share(self, address: str, port: int, then: Callable[[str | None], None]) -> bool:
        """A connection :meth:`admit` let in: counted where the servers share their bounds too
        (a cluster's gate, ``cardroom.web.cluster.SharedGate``). ``True``: the connection waits
        (its bytes unread) until ``then`` is called with ``None`` (it may stay) or why not;
        here, nothing to wait for (``False``)."""
        return False

    def closed(self, address: str, port: int) -> None:
        """A connection that was admitted closed (see :meth:`share`)."""

    def close(self) -> None:
        """The server stops (a cluster's gate lets its thread go)."""

    def _exempt(self, address: str) -> bool:
        if not self.exempt:
            return False
        try:
            ip = ipaddress.ip_address(client_address(address))
        except ValueError:
            return False
        return any(ip in network for network in self.exempt)

    def abort(self, client: Any) -> bool:
        """Drop the connection of ``client`` (an ``(address, port)`` pair) without waiting on it;
        ``False`` if it is not one of this gate's."""
        transport = self._open.get(client_address(client[0]), {}).get(client[1]) if client else None
        if transport is None:
            return False
        transport.abort()
        return True

    def _prune(self, mine: dict[int, asyncio.Transport]) -> None:
        for port in [p for p, t in mine.items() if t.is_closing()]:
            del mine[port]
            self._count -= 1


def refuse(transport: asyncio.Transport, why: str) -> None:
    """Answer a connection that may not stay ``503`` with ``why``, and close it."""
    body = json.dumps({"detail": why}).encode()
    transport.write(_REFUSED % (len(body), body))
    transport.close()


class GuardedHttp(HttpToolsProtocol):
    """Uvicorn's httptools protocol, admitting connections through the class's ``gate`` and
    timing requests (:func:`guarded_http` makes one for a gate)."""

    gate: ConnectionGate
    _deadline: asyncio.TimerHandle | None = None
    _counted = False
    _waiting = False
    _stalled = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._held: list[bytes] = []
        """What arrived while the connection waits on the servers' shared bound."""
        super().connection_made(transport)
        address, port = self.client or ("", 0)
        refused = self.gate.admit(address, port, transport)
        if refused is not None:
            refuse(transport, refused)
            return
        self._counted = True
        self._waiting = self.gate.share(address, port, self._shared)
        self._start_clock()

    def _shared(self, refused: str | None) -> None:
        self._waiting = False
        held, self._held = self._held, []
        if self.transport.is_closing():
            return
        if refused is not None:
            refuse(self.transport, refused)
            return
        for data in held:
            super().data_received(data)
        if self._stalled:
            self._stalled = False
            self.transport.resume_reading()

    def data_received(self, data: bytes) -> None:
        if self._waiting:  # not read before the servers' shared bound let the connection in
            self._held.append(data)
            if sum(map(len, self._held)) > 65536 and not self._stalled:
                self._stalled = True
                self.transport.pause_reading()
            return
        super().data_received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_clock()
        if self._counted:
            self._counted = False
            address, port = self.client or ("", 0)
            self.gate.closed(address, port)
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._start_clock()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._stop_clock()

    def handle_websocket_upgrade(self) -> None:
        self._stop_clock()
        super().handle_websocket_upgrade()

    def _start_clock(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(REQUEST_TIMEOUT, self._too_slow)

    def _stop_clock(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            log.info("closing a connection from %s: its request did not arrive within %g s",
                     self.client[0] if self.client else "?", REQUEST_TIMEOUT)
            self.transport.abort()


def guarded_http(gate: ConnectionGate) -> type[asyncio.Protocol]:
    """Uvicorn's httptools protocol, admitting connections through ``gate`` and timing requests."""
    return type("GuardedHttp", (GuardedHttp,), {"gate": gate})


CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""Every page's scripts, styles and connections come from the server itself; no page may be
framed (clickjacking). Inline style attributes are allowed: they cannot run code."""
_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or a name, without a port) is this machine only."""
    name = host.strip().lower().removeprefix("[").removesuffix("]").rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _host_of(authority: str) -> str:
    """The host of ``host[:port]`` (``[v6]:port`` too)."""
    if authority.startswith("["):
        return authority[1:].split("]", 1)[0]
    return authority.rsplit(":", 1)[0] if authority.count(":") == 1 else authority


class SiteGuard:
    """What every answer carries and every WebSocket must show (an ASGI middleware).

    Every HTTP answer carries :data:`CONTENT_SECURITY_POLICY`, ``X-Frame-Options: DENY`` and
    ``nosniff``. A WebSocket upgrade sent by a browser names the page it comes from
    (``Origin``): it must be this server (the same host and port as ``Host``), so another
    site's page cannot play at a table with a visitor's tokens. With ``local_only`` (a server
    listening on a loopback address), the ``Host`` every request names must be this machine
    too: a page of another site whose name was pointed at 127.0.0.1 (DNS rebinding) is refused.
    """

    def __init__(self, app: Any, local_only: bool = False) -> None:
        self.app = app
        self.local_only = local_only

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        host = headers.get(b"host", b"").decode("latin-1")
        refusal = None
        if self.local_only and host and not is_loopback(_host_of(host)):
            refusal = (f"this server answers only requests for this machine (localhost, 127.0.0.1), "
                       f"not for {host[:60]!r}")
        elif kind == "websocket" and b"origin" in headers:
            origin = headers[b"origin"].decode("latin-1")
            if origin.split("://", 1)[-1].rstrip("/").lower() != host.lower():
                refusal = f"a WebSocket from the page {origin[:80]!r} is not from this server"
        if refusal is not None:
            log.info("refused a %s request: %s", kind, refusal)
            if kind == "websocket":
                await send({"type": "websocket.close", "code": 4403, "reason": refusal[:120]})
                return
            body = json.dumps({"detail": refusal}).encode()
            await send({"type": "http.response.start", "status": 403, "headers": [
                (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                *_HEADERS]})
            await send({"type": "http.response.body", "body": body})
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *(h for h in _HEADERS if h[0] not in have)]
            await send(message)

        await self.app(scope, receive, send_with_headers)


TABLES_VARIABLE = "CARDROOM_TABLES_PER_ADDRESS"


def _tables_per_address() -> int:
    value = os.environ.get(TABLES_VARIABLE, "").strip()
    if not value:
        return 20
    if not value.isdigit() or int(value) < 1:
        raise SystemExit(f"{TABLES_VARIABLE} must be a whole number from 1, not {value!r}")
    return int(value)


MAX_TABLES_PER_ADDRESS = _tables_per_address()
"""Unfinished tables one client address may have created: 20, or ``CARDROOM_TABLES_PER_ADDRESS``
in the server's environment (a site whose players share one address, an office behind one
NAT, or a test server whose every client is 127.0.0.1)."""
CREATES_PER_MINUTE = 10
"""Tables one address may create a minute (at once, then one every few seconds)."""


class TableQuota:
    """How many tables each client address may create: a rate and a cap on unfinished ones.

    A rematch is a table too: it counts against the creator of the table it follows (the
    address that created the first table of the chain), so closing a game and asking for its
    rematch, again and again, is held to the same rate and cap as creating.
    """

    def __init__(self) -> None:
        self._budget: dict[str, tuple[float, float]] = {}
        """Per address: creates it may still make, and when that was counted."""
        self._tables: dict[str, set[str]] = {}
        """Per address: the tables it created that were unfinished when last counted."""
        self._owner: dict[str, str] = {}
        """Per table this server made: the address it counts against."""

    def owner(self, table_id: str) -> str | None:
        """The address the table ``table_id`` counts against (``None``: not made by this server
        since it started)."""
        return self._owner.get(table_id)

    def refusal(self, address: str, unfinished: Any, now: float) -> tuple[str, float] | None:
        """Why ``address`` may not create a table now and in how many seconds to try again,
        or ``None``; ``unfinished(table_id)`` says whether a table still counts."""
        address = client_address(address)
        mine = self._mine(address)
        done = {t for t in mine if not unfinished(t)}
        self._forget(address, done)
        mine -= done
        if len(mine) >= MAX_TABLES_PER_ADDRESS:
            return (f"this address has {len(mine)} unfinished tables, the most it may have; "
                    "finish or leave one before creating another", 60.0)
        left = self._left(address, now)
        if left < 1:
            wait = (1 - left) * 60 / CREATES_PER_MINUTE
            return (f"this address may create {CREATES_PER_MINUTE} tables a minute; "
                    f"try again in {wait:.0f} s", wait)
        return None

    def created(self, address: str, table_id: str, now: float) -> None:
        address = client_address(address)
        self._spend(address, table_id, now)

    # What the quota keeps, where: in this process here (a cluster's is shared: cardroom.web.cluster).

    def _mine(self, address: str) -> set[str]:
        """The tables ``address`` created that were unfinished when last counted."""
        return set(self._tables.get(address, set()))

    def _forget(self, address: str, table_ids: set[str]) -> None:
        self._tables.get(address, set()).difference_update(table_ids)

    def _spend(self, address: str, table_id: str, now: float) -> None:
        """``address`` created ``table_id``: one create of its budget spent."""
        self._budget[address] = (self._left(address, now) - 1, now)
        self._tables.setdefault(address, set()).add(table_id)
        self._owner[table_id] = address
        if len(self._budget) > 10_000:  # forget addresses whose budget is whole again
            for other in [a for a in self._budget if self._left(a, now) >= CREATES_PER_MINUTE]:
                del self._budget[other]
                if not self._tables.get(other):
                    self._tables.pop(other, None)

    def _left(self, address: str, now: float) -> float:
        left, then = self._budget.get(address, (float(CREATES_PER_MINUTE), now))
        return min(float(CREATES_PER_MINUTE), left + (now - then) * CREATES_PER_MINUTE / 60)


def server_config(app: Any, forwarded_allow_ips: str | None = None, **options: Any) -> Any:
    """Uvicorn's settings for the web table ``app`` (made by ``create_app``): the guarded HTTP
    protocol, no compression of WebSocket messages (many and small: compressing each cost more
    CPU than the rest of sending it), and ``options`` (host, port, ws_max_size...).

    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed only from the proxies listed in
    ``forwarded_allow_ips`` (addresses or networks, by commas): by default from nobody, so a
    client cannot choose the address every per-address bound counts it by.
    """
    import uvicorn

    trusted = (forwarded_allow_ips or "").strip()
    return uvicorn.Config(app, http=guarded_http(app.state.gate), ws_per_message_deflate=False,
                          proxy_headers=bool(trusted), forwarded_allow_ips=trusted or None, **options)
