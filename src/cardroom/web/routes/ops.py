"""Operations (``docs/web.md``): liveness, readiness, metrics. Nothing here names a table, a
seat or a card."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from cardroom.web.ops import CONTENT_TYPE
from cardroom.web.routes.depends import Manager

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/healthz")
async def healthz() -> dict[str, Any]:
    """The process is up and answering."""
    return {"ok": True}


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Ready to serve: the database answers (a query, in a thread off the event loop)."""
    state = request.app.state
    if not await asyncio.to_thread(state.store.ping):
        return JSONResponse({"ready": False, "detail": "the database does not answer"}, status_code=503)
    if state.cluster is not None and not await asyncio.to_thread(state.cluster.leases.ping):
        return JSONResponse({"ready": False, "detail": "Redis does not answer"}, status_code=503)
    return JSONResponse({"ready": True})


@router.get("/metrics")
async def metrics(manager: Manager) -> Response:
    return Response(manager.metrics.text(), media_type=CONTENT_TYPE)
