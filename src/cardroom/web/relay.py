"""The router of a cluster's node: a request or a WebSocket for a table another node owns is
forwarded to that node (see :mod:`cardroom.web.cluster`).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any

from cardroom.web.leases import CONFIRM, FORWARDED, MOVE_LOOK, MOVE_WAIT
from cardroom.web.live import MAX_QUEUED_BYTES

if TYPE_CHECKING:
    from cardroom.web.cluster import RedisDirectory

__all__ = ["ClusterRouter"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_TABLE_PATH = re.compile(r"^/(?:table|replay|api/tables|ws/tables)/([^/]+)")
_HOP = {b"connection", b"keep-alive", b"transfer-encoding", b"upgrade", b"te", b"trailer",
        b"proxy-authorization", b"proxy-authenticate", b"content-length", b"host"}


class ClusterRouter:
    """ASGI middleware: a request for a table another node owns goes to that node."""

    def __init__(self, app: ASGIApp, directory: RedisDirectory) -> None:
        self.app = app
        self.directory = directory

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = _TABLE_PATH.match(scope.get("path", "")) if scope["type"] in ("http", "websocket") else None
        if found is None:
            await self.app(scope, receive, send)
            return
        from redis.exceptions import RedisError

        forwarded = any(name == FORWARDED.encode() for name, _ in scope.get("headers", []))
        held = _Held(receive)
        # A table whose owner cannot be reached (it died: its lease runs out, then a node takes
        # it) is waited for, up to MOVE_WAIT, rather than its client sent away to come again.
        end = time.monotonic() + MOVE_WAIT
        while True:
            try:
                where = await self.locate(found.group(1))
            except RedisError:  # Redis away: the tables held here are played on, the others wait
                where = ""
            if where is None:
                await self.app(scope, held.receive, send)
                return
            if where and not forwarded:
                forward = self._forward_http if scope["type"] == "http" else self._forward_ws
                if await forward(where, scope, held, send):
                    return
            if forwarded or held.gone or time.monotonic() >= end:
                # forwarded here, but the table moved on; or its owner is not reachable yet
                await self._busy(scope, held.receive, send)
                return
            await asyncio.sleep(MOVE_LOOK)

    async def locate(self, table_id: str) -> str | None:
        """``None``: answer here (held here, taken now, or no such table); else the owner's
        address, or ``""`` when the owner is not reachable yet."""
        directory = self.directory
        if directory.holds(table_id):
            return None
        leases = directory.leases
        owner, address = await asyncio.to_thread(leases.owner_and_address, table_id)
        if owner is None:
            status = await asyncio.to_thread(directory.manager.store.status, table_id)
            if status is None:
                return None  # no such table: answered here (404)
            if status != "over":
                # This look counts as the tick's: the table is taken once its lease has been
                # missing for CONFIRM (its node, alive, takes it back meanwhile), and the request
                # waits for that rather than being sent away to come again.
                now = time.monotonic()
                first = directory.orphaned(table_id, now)
                if first + CONFIRM > now:
                    await asyncio.sleep(first + CONFIRM - now)
            if await directory.take(table_id) or await directory.settled(table_id):
                return None
            return ""
        if owner == leases.node:
            if await directory.settled(table_id):
                return None
            if not directory.taking(table_id):  # a lease of ours with no table: let it go
                await asyncio.to_thread(leases.release, [table_id])
            return ""
        return address or ""

    async def _busy(self, scope: Scope, receive: Receive, send: Send, connected: bool = False) -> None:
        if scope["type"] == "websocket":
            if not connected:
                await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 1013,
                        "reason": "the table is moving; connect again"})
            return
        body = b'{"detail":"the table is moving to another server; try again in a moment"}'
        await send({"type": "http.response.start", "status": 503, "headers": [
            (b"content-type", b"application/json"), (b"retry-after", b"1"),
            (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    def _headers(self, scope: Scope) -> list[tuple[str, str]]:
        out = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope.get("headers", [])
               if k not in _HOP and k != b"x-forwarded-for" and not k.startswith(b"sec-websocket")]
        client = scope.get("client")
        if client:  # the owner believes it when this node is among its --forwarded-allow-ips
            out.append(("x-forwarded-for", str(client[0])))
        out.append((FORWARDED, self.directory.node))
        return out

    async def _forward_http(self, where: str, scope: Scope, held: _Held, send: Send) -> bool:
        """The request answered by its table's owner at ``where``; ``False`` if the owner could
        not be reached (nothing was answered)."""
        import httpx

        if self.directory.http is None:
            self.directory.http = httpx.AsyncClient(timeout=30.0)
        chunks = await held.body()
        if chunks is None:
            return True  # the client left
        headers = self._headers(scope)
        host = dict(scope.get("headers", [])).get(b"host")
        if host is not None:  # the browser's Host: the owner checks an Origin against it
            headers.append(("host", host.decode("latin-1")))
        url = where + scope.get("raw_path", scope["path"].encode()).decode("latin-1")
        if scope.get("query_string"):
            url += "?" + scope["query_string"].decode("latin-1")
        try:
            answer = await self.directory.http.request(scope["method"], url, headers=headers,
                                                    content=b"".join(chunks))
        except httpx.TransportError:
            return False
        out = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer.headers.multi_items()
               if k.encode("latin-1") not in _HOP and k.lower() != "content-encoding"]
        out.append((b"content-length", str(len(answer.content)).encode()))
        await send({"type": "http.response.start", "status": answer.status_code, "headers": out})
        await send({"type": "http.response.body", "body": answer.content})
        return True

    async def _forward_ws(self, where: str, scope: Scope, held: _Held, send: Send) -> bool:
        """The WebSocket relayed to and from its table's owner at ``where``; ``False`` if the
        owner could not be reached (nothing was answered)."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, WebSocketException

        first = await held.first()
        if first["type"] != "websocket.connect":
            held.gone = True
            return True
        url = "ws" + where.removeprefix("http") + scope["path"]
        # Origin was checked here (the site guard); the owner sees a program's connection.
        headers = [(k, v) for k, v in self._headers(scope) if k.lower() not in ("origin", "cookie")]
        try:
            # the owner's messages as large as it queues for one client (a client's own are
            # bounded where it connected: the site's WebSocket limit)
            upstream = await connect(url, additional_headers=headers, compression=None, open_timeout=2,
                                     max_size=MAX_QUEUED_BYTES, ping_interval=None, proxy=None)
        except (OSError, TimeoutError, WebSocketException):
            return False
        held.replayed = True  # the connect is answered here: what follows is the client's own
        receive = held.receive
        await send({"type": "websocket.accept"})

        async def down() -> None:
            with contextlib.suppress(ConnectionClosed):
                async for message in upstream:
                    if isinstance(message, str):
                        await send({"type": "websocket.send", "text": message})
                    else:
                        await send({"type": "websocket.send", "bytes": message})

        async def up() -> None:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    return
                data = message.get("text")
                if data is None:
                    data = message.get("bytes")
                if data is not None:
                    try:
                        await upstream.send(data)
                    except ConnectionClosed:
                        return

        tasks = {asyncio.create_task(down()), asyncio.create_task(up())}
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
            client_left = upstream.close_code is None
            with contextlib.suppress(Exception):
                await upstream.close()
        if not client_left:
            # the owner closed it (a code of its own), or died (no code): the client connects again
            code = upstream.close_code if upstream.close_code not in (None, 1005, 1006) else 1012
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": code, "reason": upstream.close_reason or ""})
        return True


class _Held:
    """A request's first messages, read once by the router and given again to whoever answers
    (this node's app, after a wait for a table that was moving)."""

    def __init__(self, receive: Receive) -> None:
        self._receive = receive
        self._held: list[Message] = []
        self.replayed = False
        """The held messages were handed on: ``receive`` reads the client's next."""
        self.gone = False
        """The client left before the request could be answered."""

    async def first(self) -> Message:
        if not self._held:
            self._held.append(await self._receive())
        return self._held[0]

    async def body(self) -> list[bytes] | None:
        """An HTTP request's body in chunks (read once); ``None`` if the client left."""
        while not self._held or self._held[-1].get("more_body", False):
            message = await self._receive()
            self._held.append(message)
            if message["type"] != "http.request":
                self.gone = True
                return None
        return [m.get("body", b"") for m in self._held]

    async def receive(self) -> Message:
        if not self.replayed and self._held:
            message = self._held.pop(0)
            self.replayed = not self._held
            return message
        return await self._receive()
