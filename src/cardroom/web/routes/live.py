"""The WebSocket of a table: a seat plays and a spectator watches through it (the messages are
``cardroom.web.protocol``'s; the table's play is ``cardroom.web.play``'s)."""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket

from cardroom.web.protocol import error
from cardroom.web.routes.depends import Address, Manager
from cardroom.web.tables import Connection

__all__ = ["router"]

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str, manager: Manager, client: Address) -> None:
    await websocket.accept()
    table = manager.tables.get(table_id)
    if table is None:
        await websocket.send_json(error("not_found", f"no table {table_id!r:.40}"))
        await websocket.close(code=4404)
        return
    conn = Connection(websocket.send_text, manager.queue_budget, client)
    manager.attach(table, conn)
    loop = asyncio.get_running_loop()

    async def read() -> None:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            data = message.get("text")
            if data is None:
                data = message.get("bytes")
            if data is not None:
                manager.handle(table, conn, data)
            if conn.held_until > loop.time():  # it asked too fast: its next message waits unread
                await asyncio.sleep(conn.held_until - loop.time())

    reader = asyncio.create_task(read())
    writer = asyncio.create_task(conn.write())
    done: set[asyncio.Task[None]] = set()
    try:
        done, _ = await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        manager.detach(table, conn)
        for task in (reader, writer):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        conn.release()  # what still waited for it is forgotten, and counted out
        # A client that read too slowly would not read a close either: its socket is dropped
        # (unless the gate does not know it: then a polite close is all there is).
        dropped = conn.dropped and websocket.app.state.gate.abort(websocket.client)
        if not dropped and reader not in done:  # the server ended it (closing, or too slow)
            with contextlib.suppress(Exception):
                await websocket.close()
