"""The designer's studio (``cardroom.web.studio``): decks and their versions, checks of a
deck's form, runs of the job registry."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as Path_
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import BaseModel

from cardroom.web.routes.depends import Address, Signed, StudioOf
from cardroom.web.studio import CancelBody, DeckForm, FormInvalid, OpenBody, RunBody, SaveBody

__all__ = ["router"]

router = APIRouter()


def _as_json(body: bytes) -> Response:
    return Response(body, media_type="application/json")


async def _form_body(request: Request) -> bytes:
    """A body the deck workers read (its model checked there, off the event loop)."""
    return await request.body()


def _form_schema(model: type[BaseModel]) -> dict[str, Any]:
    return {"requestBody": {"required": True, "content": {"application/json": {
        "schema": model.model_json_schema()}}}}


def _invalid(err: FormInvalid) -> RequestValidationError:
    """A body the deck workers' model refused, as FastAPI would have refused it."""
    return RequestValidationError([{**e, "loc": ("body", *e.get("loc", ()))} for e in err.errors])


@router.get("/api/studio")
async def studio_jobs(studio: StudioOf) -> dict[str, Any]:
    return studio.jobs()


@router.post("/api/studio/decks")
async def studio_open(body: OpenBody, me: Signed, studio: StudioOf, address: Address) -> Response:
    try:
        return _as_json(await studio.open(body, address, None if me is None else me.id))
    except FormInvalid as err:
        raise _invalid(err) from None


@router.post("/api/studio/check", openapi_extra=_form_schema(DeckForm))
async def studio_check(request: Request, studio: StudioOf, address: Address,
                       game: Annotated[str | None, Query(max_length=40)] = None) -> Response:
    try:
        return _as_json(await studio.check(await _form_body(request), game, address))
    except FormInvalid as err:
        raise _invalid(err) from None


@router.get("/api/studio/decks/{deck_id}")
async def studio_deck(deck_id: str, studio: StudioOf, address: Address) -> Response:
    return _as_json(await studio.deck(deck_id, address))


@router.post("/api/studio/decks/{deck_id}/versions", openapi_extra=_form_schema(SaveBody))
async def studio_save(deck_id: str, request: Request, me: Signed, studio: StudioOf,
                      address: Address) -> Response:
    try:
        return _as_json(await studio.save(deck_id, await _form_body(request), address,
                                          None if me is None else me.id))
    except FormInvalid as err:
        raise _invalid(err) from None


@router.get("/api/studio/decks/{deck_id}/versions/{number}")
async def studio_version(deck_id: str, number: Annotated[int, Path_(ge=1, le=10**6)], studio: StudioOf,
                         address: Address) -> Response:
    return _as_json(await studio.version(deck_id, number, address))


@router.get("/api/studio/decks/{deck_id}/versions/{number}/toml")
async def studio_version_file(deck_id: str, number: Annotated[int, Path_(ge=1, le=10**6)],
                              studio: StudioOf) -> Response:
    text, filename = await asyncio.to_thread(studio.version_text, deck_id, number)
    return Response(text, media_type="application/toml",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@router.post("/api/studio/runs")
async def studio_start(body: RunBody, studio: StudioOf, address: Address) -> dict[str, Any]:
    return await asyncio.to_thread(studio.start, body, address)


@router.get("/api/studio/runs/{run_id}")
async def studio_run(run_id: str, studio: StudioOf, report: bool = False) -> dict[str, Any]:
    return await asyncio.to_thread(studio.run, run_id, report)


@router.post("/api/studio/runs/{run_id}/cancel")
async def studio_cancel(run_id: str, body: CancelBody, studio: StudioOf) -> dict[str, Any]:
    return await asyncio.to_thread(studio.cancel, run_id, body.token)
