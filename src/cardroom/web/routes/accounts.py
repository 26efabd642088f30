"""Accounts: sign-up and sign-in (``sign_router``), the session and the account's changes, a
player's page data and the leaderboards (``router``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from cardroom.agents.levels import bot_ratings
from cardroom.web.accounts import CSRF_COOKIE, SESSION_COOKIE, SESSION_SECONDS, AccountError, Me
from cardroom.web.catalog import catalog
from cardroom.web.routes.depends import AccountsOf, Address, Manager, Signed, paced, same_origin

__all__ = ["router", "sign_router", "SignBody", "PasswordBody", "ConfirmBody"]

router = APIRouter()
sign_router = APIRouter(dependencies=[Depends(same_origin), Depends(paced)])
"""Signing up or in: no session yet to forge, so no CSRF token; a request from another site's
page (login CSRF) is refused by its Origin, and the requests are paced as every change is."""


class SignBody(BaseModel):
    """``POST /api/account/signup`` and ``/api/account/signin``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(max_length=100)
    password: str = Field(max_length=1000)


class PasswordBody(BaseModel):
    """``POST /api/account/password``: the current password and the new one."""

    model_config = ConfigDict(extra="forbid", strict=True)
    password: str = Field(max_length=1000)
    new_password: str = Field(max_length=1000)


class ConfirmBody(BaseModel):
    """``POST /api/account/delete``: the account's password, to confirm."""

    model_config = ConfigDict(extra="forbid", strict=True)
    password: str = Field(max_length=1000)


def open_session(request: Request, me: Me, token: str, body: dict[str, Any] | None = None) -> JSONResponse:
    """``body`` (by default the account's name) with the session's cookies set."""
    answer = JSONResponse({"name": me.name, "signed_in": True} if body is None else body)
    secure = request.url.scheme == "https"
    answer.set_cookie(SESSION_COOKIE, token, max_age=SESSION_SECONDS, path="/", httponly=True,
                      samesite="lax", secure=secure)
    answer.set_cookie(CSRF_COOKIE, me.csrf, max_age=SESSION_SECONDS, path="/", httponly=False,
                      samesite="strict", secure=secure)
    return answer


def own_account(request: Request, me: Me | None) -> tuple[Me, str]:
    """The signed-in account of a request that changes it (the CSRF guard passed), and the
    session token; ``401`` without one."""
    token = request.cookies.get(SESSION_COOKIE)
    if me is None or not token:
        raise AccountError(401, "sign in first: this changes an account, and this browser is not "
                                "signed in to one")
    return me, token


def _signed_out(answer: JSONResponse) -> JSONResponse:
    answer.delete_cookie(SESSION_COOKIE, path="/")
    answer.delete_cookie(CSRF_COOKIE, path="/")
    return answer


@router.get("/api/account")
async def get_account(me: Signed, accounts: AccountsOf) -> dict[str, Any]:
    if me is None:
        return {"signed_in": False}
    sessions = await asyncio.to_thread(accounts.sessions, me)
    return {"signed_in": True, "name": me.name, "sessions": sessions}


@router.post("/api/account/password")
async def change_password(body: PasswordBody, request: Request, me: Signed, accounts: AccountsOf,
                          address: Address) -> JSONResponse:
    mine, token = own_account(request, me)
    ended, fresh, fresh_token = await asyncio.to_thread(
        accounts.change_password, mine, token, body.password, body.new_password, address)
    return open_session(request, fresh, fresh_token, {"changed": True, "signed_out": ended})


@router.post("/api/account/signout-others")
async def sign_out_others(request: Request, me: Signed, accounts: AccountsOf) -> dict[str, Any]:
    mine, token = own_account(request, me)
    return {"signed_out": await asyncio.to_thread(accounts.sign_out_others, mine, token)}


@router.post("/api/account/delete")
async def delete_account(body: ConfirmBody, request: Request, me: Signed, accounts: AccountsOf,
                         manager: Manager, address: Address) -> Response:
    mine, _token = own_account(request, me)
    renamed = await asyncio.to_thread(accounts.delete, mine, body.password, address)
    for table_id, seat, name in renamed:  # the tables this server holds say the new name at once
        manager.rename_seat(table_id, seat, mine.name, name)
    return _signed_out(JSONResponse({"deleted": True, "name": mine.name, "seats_renamed": len(renamed)}))


async def _signed(act: Callable[[str, str, str], tuple[Me, str]], body: SignBody, request: Request,
                  address: str) -> Response:
    """Sign up or sign in (``act``) and open the session."""
    me, token = await asyncio.to_thread(act, body.name, body.password, address)
    return open_session(request, me, token)


@sign_router.post("/api/account/signup")
async def sign_up(body: SignBody, request: Request, accounts: AccountsOf, address: Address) -> Response:
    return await _signed(accounts.sign_up, body, request, address)


@sign_router.post("/api/account/signin")
async def sign_in(body: SignBody, request: Request, accounts: AccountsOf, address: Address) -> Response:
    return await _signed(accounts.sign_in, body, request, address)


@router.post("/api/account/signout")
async def sign_out(request: Request, me: Signed, accounts: AccountsOf) -> Response:
    token = request.cookies.get(SESSION_COOKIE)
    if me is not None and token:
        accounts.sign_out(token)
    return _signed_out(JSONResponse({"signed_in": False}))


@router.get("/api/players/{name}")
async def get_player(name: str, accounts: AccountsOf) -> dict[str, Any]:
    found = accounts.player(name)
    if found is None:
        raise AccountError(404, f"there is no player {name[:40]!r}")
    # Beside the player's own ratings: the levels' on the agents' ladder, for reference.
    return {**found, "bots": {game: bot_ratings(game) for game in catalog()["games"]}}


@router.get("/api/leaderboard/{game}")
async def get_leaderboard(
    game: str, accounts: AccountsOf, limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    games = list(catalog()["games"])
    if game not in games:
        raise AccountError(404, f"there is no game {game[:40]!r}; the games are {', '.join(games)}")
    # The bots are rated on the agents' ladder (bot against bot), not by games with accounts.
    return {"game": game, "players": accounts.leaderboard(game, limit), **bot_ratings(game)}
