"""The lobby's JSON API: the games on offer, tables (create, Play now, join, leave, close,
rematch), a table's deck, record and replay."""

from __future__ import annotations

import math
import time
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, Response

from cardroom.web.accounts import Accounts, Me
from cardroom.web.catalog import catalog
from cardroom.web.guard import TableQuota
from cardroom.web.protocol import CreateBody, JoinBody, QuickBody, TokenBody
from cardroom.web.routes.depends import AccountsOf, Address, Manager, Quota, Signed
from cardroom.web.tables import MAX_REPLAY_STEPS, TableError, TableManager

__all__ = ["router"]

router = APIRouter()


def sitting_name(accounts: Accounts, me: Me | None, name: str | None) -> str:
    """The name a person sits under: a signed-in person's account's; a guest's own, which
    may not be an account's name (any case)."""
    if me is not None:
        return me.name
    if name is None:
        raise TableError(400, "name: a guest gives the name to sit under (1 to 40 characters); "
                              "or sign in, and sit as your account")
    owner = accounts.named(name)
    if owner is not None:
        raise TableError(409, f"the name {name} is the account {owner}'s: sign in as {owner} to sit "
                              "under it, or choose another name")
    return name


def one_seat(accounts: Accounts, me: Me, table_id: str) -> None:
    """Refuse a second seat at ``table_id`` to the account ``me``: one account, one seat."""
    seat = accounts.held(me.id, [table_id]).get(table_id)
    if seat is not None:
        raise TableError(409, f"your account {me.name} holds seat {seat} of table {table_id} "
                              "already: an account takes one seat at a table")


def _over_quota(quota: TableQuota, manager: TableManager, address: str, now: float) -> Response | None:
    """The 429 for an address that may create no table now (``guard.TableQuota``)."""
    refused = quota.refusal(address, manager.unfinished, now)
    if refused is None:
        return None
    reason, wait = refused
    return JSONResponse({"detail": reason}, status_code=429, headers={"Retry-After": str(math.ceil(wait))})


@router.get("/api/catalog")
async def get_catalog() -> dict[str, Any]:
    return catalog()


@router.post("/api/tables", response_model=None)
async def create_table(body: CreateBody, me: Signed, manager: Manager, accounts: AccountsOf,
                       quota: Quota, address: Address) -> dict[str, Any] | Response:
    if body.name is not None:  # an account sits as itself; a guest not under an account's name
        body = body.model_copy(update={"name": sitting_name(accounts, me, body.name)})
    now = time.time()
    refused = _over_quota(quota, manager, address, now)
    if refused is not None:
        return refused
    table, seat, token = manager.create(body)
    quota.created(address, table.id, now)
    answer = manager.summary(table)
    if seat is not None:
        answer["seat"] = seat
        answer["token"] = token
        if me is not None:
            accounts.sat(table.id, seat, me.id)
    answer["creator_token"] = token
    return answer


@router.post("/api/quick", response_model=None)
async def quick_play(body: QuickBody, me: Signed, manager: Manager, accounts: AccountsOf,
                     quota: Quota, address: Address) -> dict[str, Any] | Response:
    """Play now: a seat at a table Play now made for the game, size and level, in its wait, else a
    new table that waits ``quick_wait`` seconds for people, then bots take its free seats."""
    name = sitting_name(accounts, me, body.name)
    bot = manager.quick_check(body.game, body.players, body.bot)
    skip = frozenset(body.skip)
    if me is not None:  # one account, one seat: not a table it sits at (from another browser)
        skip |= set(accounts.held(me.id, list(manager.quick_waits)))
    found = manager.quick_match(body.game, body.players, bot, skip)
    if found is not None:  # nothing awaits from the match to the join: the seat is still free
        seat, token = manager.join(found.id, name, None)
        if me is not None:
            accounts.sat(found.id, seat, me.id)
        return {**manager.summary(found), "seat": seat, "token": token, "matched": True}
    now = time.time()
    refused = _over_quota(quota, manager, address, now)
    if refused is not None:
        return refused
    table, seat, token = manager.quick_create(body.game, body.players, body.bot, name)
    quota.created(address, table.id, now)
    if me is not None:
        accounts.sat(table.id, seat, me.id)
    return {**manager.summary(table), "seat": seat, "token": token, "creator_token": token,
            "matched": False}


@router.get("/api/tables")
async def list_tables(
    manager: Manager, status: str | None = None, limit: Annotated[int, Query(ge=1, le=500)] = 100
) -> list[dict[str, Any]]:
    return manager.listing(status, limit)


@router.get("/api/tables/{table_id}")
async def get_table(table_id: str, manager: Manager) -> dict[str, Any]:
    return manager.summary(manager.get(table_id))


@router.post("/api/tables/{table_id}/join")
async def join_table(table_id: str, body: JoinBody, me: Signed, manager: Manager,
                     accounts: AccountsOf) -> dict[str, Any]:
    name = sitting_name(accounts, me, body.name)
    if me is None:
        seat, token = manager.join(table_id, name, body.seat)
    else:  # an account sits as itself, once; nothing awaits in between, so no game ends unrated
        one_seat(accounts, me, table_id)
        seat, token = manager.join(table_id, name, body.seat)
        accounts.sat(table_id, seat, me.id)
    return {"seat": seat, "token": token}


@router.post("/api/tables/{table_id}/leave")
async def leave_table(table_id: str, body: TokenBody, manager: Manager,
                      accounts: AccountsOf) -> dict[str, Any]:
    seat = manager.leave(table_id, body.token)
    if manager.get(table_id).status == "waiting":
        accounts.freed(table_id, seat)
    return {"seat": seat, "table": manager.summary(manager.get(table_id))}


@router.post("/api/tables/{table_id}/close")
async def close_table(table_id: str, body: TokenBody, manager: Manager) -> dict[str, Any]:
    manager.close(table_id, body.token)
    table = manager.tables.get(table_id)
    return {"closed": True, "table": None if table is None else manager.summary(table)}


@router.post("/api/tables/{table_id}/rematch")
async def rematch_table(table_id: str, body: TokenBody, manager: Manager, accounts: AccountsOf,
                        quota: Quota, address: Address) -> dict[str, Any]:
    # A rematch is a new table, counted against whoever created the first of the chain.
    owner = quota.owner(table_id) or address

    def admit() -> None:
        refused = quota.refusal(owner, manager.unfinished, time.time())
        if refused is not None:
            raise TableError(429, f"no rematch now: {refused[0]}", retry_after=refused[1])

    before = manager.tables.get(table_id)
    earlier = before.data.rematch if before is not None else None
    table, seat = manager.rematch(table_id, body.token, admit)
    if table.id != earlier:
        quota.created(owner, table.id, time.time())
        if before is not None:  # everyone keeps their seat, an account's seat too
            accounts.carry(table_id, table.id, set(before.data.left))
    return {**manager.summary(table), "seat": seat}


@router.get("/api/tables/{table_id}/deck")
async def get_deck(table_id: str, manager: Manager) -> Response:
    text, filename = manager.deck_text(table_id)
    return Response(
        text, media_type="application/toml",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/api/tables/{table_id}/record")
async def get_record(table_id: str, manager: Manager) -> Response:
    text = manager.record_text(table_id)
    table = manager.get(table_id)
    filename = f"cardroom-{table.data.game}-{table_id}.json"
    return Response(
        text + "\n", media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/api/tables/{table_id}/replay")
async def get_replay(
    table_id: str, manager: Manager, address: Address, seat: str = "all",
    start: Annotated[int, Query(ge=0, le=10**9)] = 0,
    count: Annotated[int, Query(ge=1, le=MAX_REPLAY_STEPS)] = MAX_REPLAY_STEPS,
) -> dict[str, Any]:
    if seat == "all":
        which = None
    else:
        try:
            which = int(seat)
        except ValueError:
            raise TableError(400, f"seat is a seat number or all, not {seat!r:.40}") from None
    steps, total = await manager.replay(table_id, which, start, count, address)
    return {"steps": steps, "cards": manager.get(table_id).cards, "start": start, "total": total}
