"""The web table's FastAPI application: pages, the JSON API and one WebSocket per seat.

See ``docs/web.md`` for the contract. ``create_app`` makes an application over a database
(any SQLAlchemy URL; a SQLite file in the data folder by default) and a data folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping, Sequence
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi import Path as Path_
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardroom.agents.levels import bot_ratings
from cardroom.web import pages
from cardroom.web.accounts import CSRF_COOKIE, SESSION_COOKIE, SESSION_SECONDS, AccountError, Accounts, Me
from cardroom.web.catalog import catalog
from cardroom.web.guard import ConnectionGate, SiteGuard, TableQuota, client_address
from cardroom.web.ops import CONTENT_TYPE
from cardroom.web.protocol import MAX_DECK_BYTES, CreateBody, JoinBody, QuickBody, TokenBody, error
from cardroom.web.refusal import Refusal, sendable
from cardroom.web.store import Store
from cardroom.web.studio import (
    CancelBody,
    DeckForm,
    FormInvalid,
    OpenBody,
    RunBody,
    SaveBody,
    Studio,
    StudioError,
)
from cardroom.web.tables import MAX_REPLAY_STEPS, Connection, TableError, TableManager

__all__ = ["create_app", "STATIC_DIR", "DEFAULT_BOT_DELAY", "MAX_BODY_BYTES"]

log = logging.getLogger("cardroom.web")

STATIC_DIR = Path(__file__).parent / "static"
DEFAULT_BOT_DELAY = 0.6
MAX_BODY_BYTES = MAX_DECK_BYTES + 64 * 1024
"""The largest HTTP request body: a deck file and the rest of a create request."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


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


class BodyLimit:
    """Refuses HTTP request bodies larger than ``limit`` bytes (413) before they reach the app."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await self._refuse(scope, receive, send)
                    return
        # The whole body is read here, up to the limit, and handed on in one piece: a body too
        # large (a chunked one has no content-length) is refused with 413 before the app sees
        # it, rather than surfacing inside FastAPI as a parse failure.
        chunks: list[bytes] = []
        received = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return
            chunk = message.get("body", b"")
            received += len(chunk)
            if received > self.limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            more = bool(message.get("more_body", False))
        whole: Message | None = {"type": "http.request", "body": b"".join(chunks), "more_body": False}

        async def replay() -> Message:
            nonlocal whole
            if whole is not None:
                first, whole = whole, None
                return first
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = JSONResponse(
            {"detail": f"the request body may be at most {self.limit // 1024} KiB"}, status_code=413
        )
        await response(scope, receive, send)


async def answer_refusal(request: Request, err: Exception) -> JSONResponse:
    """The one handler of every :class:`Refusal`: ``detail`` (and a deck's ``problems``) as
    JSON, its status, and ``Retry-After`` for a refusal that passes."""
    assert isinstance(err, Refusal)
    headers = None if err.retry_after is None else {"Retry-After": str(math.ceil(err.retry_after))}
    body: dict[str, Any] = {"detail": sendable(str(err))}
    if err.problems is not None:
        body["problems"] = err.problems
    return JSONResponse(body, status_code=err.status, headers=headers)


def create_app(
    db_url: str | None, data_dir: Path, bot_delay: float = DEFAULT_BOT_DELAY, bot_workers: int = 1,
    local_only: bool = False, redis_url: str | None = None, quick_wait: float | None = None,
    studio_workers: int = 1, away_after: float | None = None,
) -> FastAPI:
    """The web table over the database ``db_url`` (default: ``data_dir/cardroom.db``).

    ``bot_delay`` is the pause in seconds before each bot move, so people can follow the play;
    ``bot_workers`` the number of processes the search bots think in; ``local_only`` (a server
    listening on loopback) refuses requests that name another host (see ``guard.SiteGuard``);
    ``redis_url`` makes this server one of a cluster on a shared PostgreSQL database
    (``cardroom.web.cluster``; its address for the others is set on ``app.state.manager``);
    ``quick_wait`` the seconds a table made by Play now waits for people before bots take its
    free seats (default ``cardroom.web.play.QUICK_WAIT``); ``studio_workers`` the processes each
    run of the designer's studio plays its games in (1: in the run's own thread); ``away_after``
    the seconds a person of a running game may be without a connection before a stand-in plays
    their seat (default ``cardroom.web.play.AWAY_AFTER``).
    """
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    url = db_url or f"sqlite:///{(data_dir / 'cardroom.db').resolve()}"
    manager: TableManager
    cluster = None
    if redis_url is None:
        store = Store(url)
        manager = TableManager(store, data_dir, bot_delay, bot_workers)
    else:
        from cardroom.web.cluster import ClusterTables, Leases, cluster_database

        store = Store(cluster_database(url), shared=True)
        try:
            manager = cluster = ClusterTables(store, data_dir, bot_delay, bot_workers, Leases(redis_url))
        except BaseException:
            store.close()
            raise
    if quick_wait is not None:
        manager.quick_wait = quick_wait
    if away_after is not None:
        manager.away_after = away_after
    manager.load()
    accounts = Accounts(store)
    studio = Studio(store, workers=studio_workers, shared=cluster is not None)
    gate = ConnectionGate()
    if cluster is not None:  # the sign-in limits and the connection bounds counted over every node
        from cardroom.web.cluster import SharedAttempts, SharedGate

        accounts.by_address = SharedAttempts(cluster.leases, "address", accounts.by_address)
        accounts.by_pair = SharedAttempts(cluster.leases, "pair", accounts.by_pair)
        accounts.by_account = SharedAttempts(cluster.leases, "account", accounts.by_account)
        accounts.signups = SharedAttempts(cluster.leases, "signup", accounts.signups)
        gate = SharedGate(cluster.leases)

    def rate(table: Any) -> None:
        if table.state is not None:
            gone = {s.seat for s in table.data.seats if s.kind == "human" and not table.connected(s.seat)}
            accounts.finished(table.id, table.data.game, list(table.state.scores), set(table.data.left), gone)

    manager.on_finish = rate
    manager.account_seats = accounts.account_seats
    manager.account_named = accounts.named

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        manager.start()
        try:
            yield
        finally:
            studio.close()
            await manager.stop()
            gate.close()
            store.close()

    app = FastAPI(title="Cardroom web table", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.manager = manager
    app.state.accounts = accounts
    app.state.studio = studio
    app.state.gate = gate
    """Open connections by address; the HTTP protocol of ``guard.server_config`` counts them."""
    quota = TableQuota() if cluster is None else cluster.quota
    if cluster is not None:
        from cardroom.web.cluster import ClusterRouter

        app.add_middleware(ClusterRouter, tables=cluster)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.add_middleware(SiteGuard, local_only=local_only)

    app.add_exception_handler(Refusal, answer_refusal)

    @app.exception_handler(SQLAlchemyError)
    async def database_error(request: Request, err: SQLAlchemyError) -> JSONResponse:
        log.error("the database refused a change (%s %s): %s", request.method, request.url.path,
                  str(err).splitlines()[0])
        return JSONResponse(
            {"detail": "the database could not store that; nothing changed, try again later"},
            status_code=500,
        )

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, err: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": sendable(_validation_text(err))}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def not_found(request: Request, err: StarletteHTTPException) -> Response:
        # A person's unknown address gets a page with the way back; the API keeps JSON.
        if err.status_code == 404 and not request.url.path.startswith("/api/"):
            return missing(f"There is no page at {request.url.path[:200]} on this server.")
        return await http_exception_handler(request, err)

    # -- pages -------------------------------------------------------------------------

    def missing(message: str) -> Response:
        return HTMLResponse(pages.not_found_page(message), status_code=404)

    def page(name: str) -> Response:
        path = STATIC_DIR / name
        if not path.is_file():
            return JSONResponse({"detail": f"the page {name} is not installed"}, status_code=404)
        return FileResponse(path, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def lobby() -> Response:
        return page("index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        if table_id not in manager.tables:
            return missing(f"There is no table {table_id[:40]} here: it was closed before its game "
                           "began, or the address is not quite right.")
        return page("table.html")

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> Response:
        if table_id not in manager.tables:
            return missing(f"There is no game {table_id[:40]} to replay here: the address is not "
                           "quite right, or its table was closed before the game began.")
        return page("replay.html")

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str) -> Response:
        if not pages.has_rules(game):
            return missing(f"There are no rules of a game {game[:40]} here.")
        return HTMLResponse(pages.rules_page(game))

    @app.get("/account", include_in_schema=False)
    async def account_page() -> Response:
        return page("account.html")

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> Response:
        return page("leaderboard.html")

    @app.get("/player/{name}", include_in_schema=False)
    async def player_page(name: str) -> Response:
        if accounts.player(name, recent=0) is None:
            return missing(f"There is no player {name[:40]} here.")
        return page("player.html")

    @app.get("/studio", include_in_schema=False)
    async def studio_page() -> Response:
        return page("studio.html")

    @app.get("/studio/decks/{deck_id}", include_in_schema=False)
    async def studio_deck_page(deck_id: str) -> Response:
        try:
            await asyncio.to_thread(studio.exists, deck_id)
        except StudioError as err:
            return missing(f"{_sentence(str(err)[:200])}: the address is not quite right.")
        return page("studio.html")

    @app.get("/studio/runs/{run_id}", include_in_schema=False)
    async def studio_run_page(run_id: str) -> Response:
        try:
            await asyncio.to_thread(studio.run, run_id)
        except StudioError as err:
            return missing(f"{_sentence(str(err)[:200])}: the address is not quite right.")
        return page("studio.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        # Asked for by browsers whatever a page links: the pages' icon (an SVG, as they link it).
        return FileResponse(STATIC_DIR / "favicon.svg", media_type="image/svg+xml")

    if STATIC_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    # -- accounts ----------------------------------------------------------------------

    def signed_in(request: Request) -> Me | None:
        """The account of the request's session cookie; a request that changes something with
        a session must prove it comes from this site's pages (the CSRF token, and an Origin,
        when sent, naming this server)."""
        me = accounts.me(request.cookies.get(SESSION_COOKIE))
        if me is not None and request.method not in ("GET", "HEAD", "OPTIONS"):
            origin = request.headers.get("origin")
            host = request.headers.get("host", "")
            if origin is not None and origin.split("://", 1)[-1].rstrip("/").lower() != host.lower():
                raise AccountError(403, f"a request from the page {origin[:80]!r} is not from this server")
            sent = request.headers.get("x-csrf-token", "")
            if not secrets.compare_digest(sent.encode(), me.csrf.encode()):
                raise AccountError(403, "a signed-in request that changes something must carry the "
                                        "X-CSRF-Token header with the value of the cardroom_csrf cookie")
        return me

    def sitting_name(me: Me | None, name: str | None) -> str:
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

    def one_seat(me: Me, table_id: str) -> None:
        """Refuse a second seat at ``table_id`` to the account ``me``: one account, one seat."""
        seat = accounts.held(me.id, [table_id]).get(table_id)
        if seat is not None:
            raise TableError(409, f"your account {me.name} holds seat {seat} of table {table_id} "
                                  "already: an account takes one seat at a table")

    def open_session(request: Request, me: Me, token: str) -> JSONResponse:
        answer = JSONResponse({"name": me.name, "signed_in": True})
        secure = request.url.scheme == "https"
        answer.set_cookie(SESSION_COOKIE, token, max_age=SESSION_SECONDS, path="/", httponly=True,
                          samesite="lax", secure=secure)
        answer.set_cookie(CSRF_COOKIE, me.csrf, max_age=SESSION_SECONDS, path="/", httponly=False,
                          samesite="strict", secure=secure)
        return answer

    def sign_origin(request: Request) -> None:
        # Signing up or in from another site's page (login CSRF) is refused too.
        origin = request.headers.get("origin")
        host = request.headers.get("host", "")
        if origin is not None and origin.split("://", 1)[-1].rstrip("/").lower() != host.lower():
            raise AccountError(403, f"a request from the page {origin[:80]!r} is not from this server")

    @app.get("/api/account")
    async def get_account(request: Request) -> dict[str, Any]:
        me = signed_in(request)
        if me is None:
            return {"signed_in": False}
        sessions = await asyncio.to_thread(accounts.sessions, me)
        return {"signed_in": True, "name": me.name, "sessions": sessions}

    def own_account(request: Request) -> tuple[Me, str]:
        """The signed-in account of a request that changes it (the CSRF guard passed), and the
        session token; ``401`` without one."""
        me = signed_in(request)
        token = request.cookies.get(SESSION_COOKIE)
        if me is None or not token:
            raise AccountError(401, "sign in first: this changes an account, and this browser is not "
                                    "signed in to one")
        return me, token

    @app.post("/api/account/password")
    async def change_password(body: PasswordBody, request: Request) -> dict[str, Any]:
        me, token = own_account(request)
        address = client_address(request.client.host if request.client else "")
        ended = await asyncio.to_thread(accounts.change_password, me, token, body.password,
                                        body.new_password, address)
        return {"changed": True, "signed_out": ended}

    @app.post("/api/account/signout-others")
    async def sign_out_others(request: Request) -> dict[str, Any]:
        me, token = own_account(request)
        return {"signed_out": await asyncio.to_thread(accounts.sign_out_others, me, token)}

    @app.post("/api/account/delete")
    async def delete_account(body: ConfirmBody, request: Request) -> Response:
        me, _token = own_account(request)
        address = client_address(request.client.host if request.client else "")
        renamed = await asyncio.to_thread(accounts.delete, me, body.password, address)
        for table_id, seat, name in renamed:  # the tables this server holds say the new name at once
            manager.rename_seat(table_id, seat, me.name, name)
        answer = JSONResponse({"deleted": True, "name": me.name, "seats_renamed": len(renamed)})
        answer.delete_cookie(SESSION_COOKIE, path="/")
        answer.delete_cookie(CSRF_COOKIE, path="/")
        return answer

    async def signed(act: Callable[[str, str, str], tuple[Me, str]], body: SignBody,
                     request: Request) -> Response:
        """Sign up or sign in (``act``) from this site's page, and open the session."""
        sign_origin(request)
        address = client_address(request.client.host if request.client else "")
        me, token = await asyncio.to_thread(act, body.name, body.password, address)
        return open_session(request, me, token)

    @app.post("/api/account/signup")
    async def sign_up(body: SignBody, request: Request) -> Response:
        return await signed(accounts.sign_up, body, request)

    @app.post("/api/account/signin")
    async def sign_in(body: SignBody, request: Request) -> Response:
        return await signed(accounts.sign_in, body, request)

    @app.post("/api/account/signout")
    async def sign_out(request: Request) -> Response:
        me = signed_in(request)
        token = request.cookies.get(SESSION_COOKIE)
        if me is not None and token:
            accounts.sign_out(token)
        answer = JSONResponse({"signed_in": False})
        answer.delete_cookie(SESSION_COOKIE, path="/")
        answer.delete_cookie(CSRF_COOKIE, path="/")
        return answer

    @app.get("/api/players/{name}")
    async def get_player(name: str) -> dict[str, Any]:
        found = accounts.player(name)
        if found is None:
            raise AccountError(404, f"there is no player {name[:40]!r}")
        # Beside the player's own ratings: the levels' on the agents' ladder, for reference.
        return {**found, "bots": {game: bot_ratings(game) for game in catalog()["games"]}}

    @app.get("/api/leaderboard/{game}")
    async def get_leaderboard(
        game: str, limit: Annotated[int, Query(ge=1, le=200)] = 50,
    ) -> dict[str, Any]:
        games = list(catalog()["games"])
        if game not in games:
            raise AccountError(404, f"there is no game {game[:40]!r}; the games are {', '.join(games)}")
        # The bots are rated on the agents' ladder (bot against bot), not by games with accounts.
        return {"game": game, "players": accounts.leaderboard(game, limit), **bot_ratings(game)}

    # -- the API -----------------------------------------------------------------------

    # -- operations (docs/web.md): nothing here names a table, a seat or a card ------------

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, Any]:
        """The process is up and answering."""
        return {"ok": True}

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        """Ready to serve: the database answers (a query, in a thread off the event loop)."""
        if not await asyncio.to_thread(store.ping):
            return JSONResponse({"ready": False, "detail": "the database does not answer"}, status_code=503)
        if cluster is not None and not await asyncio.to_thread(cluster.leases.ping):
            return JSONResponse({"ready": False, "detail": "Redis does not answer"}, status_code=503)
        return JSONResponse({"ready": True})

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        return Response(manager.metrics.text(), media_type=CONTENT_TYPE)

    @app.get("/api/catalog")
    async def get_catalog() -> dict[str, Any]:
        return catalog()

    @app.post("/api/tables", response_model=None)
    async def create_table(body: CreateBody, request: Request) -> dict[str, Any] | Response:
        me = signed_in(request)
        if body.name is not None:  # an account sits as itself; a guest not under an account's name
            body = body.model_copy(update={"name": sitting_name(me, body.name)})
        address = client_address(request.client.host if request.client else "")
        now = time.time()
        refused = quota.refusal(address, manager.unfinished, now)
        if refused is not None:
            reason, wait = refused
            return JSONResponse({"detail": reason}, status_code=429,
                                headers={"Retry-After": str(math.ceil(wait))})
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

    @app.post("/api/quick", response_model=None)
    async def quick_play(body: QuickBody, request: Request) -> dict[str, Any] | Response:
        """Play now: a seat at a table Play now made for the game, size and level, in its wait, else a
        new table that waits ``quick_wait`` seconds for people, then bots take its free seats."""
        me = signed_in(request)
        name = sitting_name(me, body.name)
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
        address = client_address(request.client.host if request.client else "")
        now = time.time()
        refused = quota.refusal(address, manager.unfinished, now)
        if refused is not None:
            reason, wait = refused
            return JSONResponse({"detail": reason}, status_code=429,
                                headers={"Retry-After": str(math.ceil(wait))})
        table, seat, token = manager.quick_create(body.game, body.players, body.bot, name)
        quota.created(address, table.id, now)
        if me is not None:
            accounts.sat(table.id, seat, me.id)
        return {**manager.summary(table), "seat": seat, "token": token, "creator_token": token,
                "matched": False}

    @app.get("/api/tables")
    async def list_tables(
        status: str | None = None, limit: Annotated[int, Query(ge=1, le=500)] = 100
    ) -> list[dict[str, Any]]:
        return manager.listing(status, limit)

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        return manager.summary(manager.get(table_id))

    @app.post("/api/tables/{table_id}/join")
    async def join_table(table_id: str, body: JoinBody, request: Request) -> dict[str, Any]:
        me = signed_in(request)
        name = sitting_name(me, body.name)
        if me is None:
            seat, token = manager.join(table_id, name, body.seat)
        else:  # an account sits as itself, once; nothing awaits in between, so no game ends unrated
            one_seat(me, table_id)
            seat, token = manager.join(table_id, name, body.seat)
            accounts.sat(table_id, seat, me.id)
        return {"seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/leave")
    async def leave_table(table_id: str, body: TokenBody, request: Request) -> dict[str, Any]:
        signed_in(request)
        seat = manager.leave(table_id, body.token)
        if manager.get(table_id).status == "waiting":
            accounts.freed(table_id, seat)
        return {"seat": seat, "table": manager.summary(manager.get(table_id))}

    @app.post("/api/tables/{table_id}/close")
    async def close_table(table_id: str, body: TokenBody, request: Request) -> dict[str, Any]:
        signed_in(request)
        manager.close(table_id, body.token)
        table = manager.tables.get(table_id)
        return {"closed": True, "table": None if table is None else manager.summary(table)}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch_table(table_id: str, body: TokenBody, request: Request) -> dict[str, Any]:
        signed_in(request)
        # A rematch is a new table, counted against whoever created the first of the chain.
        owner = quota.owner(table_id) or client_address(request.client.host if request.client else "")

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

    @app.get("/api/tables/{table_id}/deck")
    async def get_deck(table_id: str) -> Response:
        text, filename = manager.deck_text(table_id)
        return Response(
            text, media_type="application/toml",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.get("/api/tables/{table_id}/record")
    async def get_record(table_id: str) -> Response:
        text = manager.record_text(table_id)
        table = manager.get(table_id)
        filename = f"cardroom-{table.data.game}-{table_id}.json"
        return Response(
            text + "\n", media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.get("/api/tables/{table_id}/replay")
    async def get_replay(
        request: Request, table_id: str, seat: str = "all", start: Annotated[int, Query(ge=0, le=10**9)] = 0,
        count: Annotated[int, Query(ge=1, le=MAX_REPLAY_STEPS)] = MAX_REPLAY_STEPS,
    ) -> dict[str, Any]:
        if seat == "all":
            which = None
        else:
            try:
                which = int(seat)
            except ValueError:
                raise TableError(400, f"seat is a seat number or all, not {seat!r:.40}") from None
        address = client_address(request.client.host if request.client else "")
        steps, total = await manager.replay(table_id, which, start, count, address)
        return {"steps": steps, "cards": manager.get(table_id).cards, "start": start, "total": total}

    # -- the designer's studio (cardroom.web.studio) ---------------------------------------

    def address_of(request: Request) -> str:
        return client_address(request.client.host if request.client else "")

    @app.get("/api/studio")
    async def studio_jobs() -> dict[str, Any]:
        return studio.jobs()

    def account_of(request: Request) -> int | None:
        me = signed_in(request)
        return None if me is None else me.id

    def as_json(body: bytes) -> Response:
        return Response(body, media_type="application/json")

    async def form_body(request: Request) -> bytes:
        """A body the deck workers read (its model checked there, off the event loop)."""
        return await request.body()

    def form_schema(model: type[BaseModel]) -> dict[str, Any]:
        return {"requestBody": {"required": True, "content": {"application/json": {
            "schema": model.model_json_schema()}}}}

    @app.post("/api/studio/decks")
    async def studio_open(body: OpenBody, request: Request) -> Response:
        account = account_of(request)
        try:
            return as_json(await studio.open(body, address_of(request), account))
        except FormInvalid as err:
            raise _invalid(err) from None

    @app.post("/api/studio/check", openapi_extra=form_schema(DeckForm))
    async def studio_check(request: Request,
                           game: Annotated[str | None, Query(max_length=40)] = None) -> Response:
        try:
            return as_json(await studio.check(await form_body(request), game, address_of(request)))
        except FormInvalid as err:
            raise _invalid(err) from None

    @app.get("/api/studio/decks/{deck_id}")
    async def studio_deck(deck_id: str, request: Request) -> Response:
        return as_json(await studio.deck(deck_id, address_of(request)))

    @app.post("/api/studio/decks/{deck_id}/versions", openapi_extra=form_schema(SaveBody))
    async def studio_save(deck_id: str, request: Request) -> Response:
        account = account_of(request)
        try:
            return as_json(await studio.save(deck_id, await form_body(request), address_of(request), account))
        except FormInvalid as err:
            raise _invalid(err) from None

    @app.get("/api/studio/decks/{deck_id}/versions/{number}")
    async def studio_version(deck_id: str, number: Annotated[int, Path_(ge=1, le=10**6)],
                             request: Request) -> Response:
        return as_json(await studio.version(deck_id, number, address_of(request)))

    @app.get("/api/studio/decks/{deck_id}/versions/{number}/toml")
    async def studio_version_file(deck_id: str, number: Annotated[int, Path_(ge=1, le=10**6)]) -> Response:
        text, filename = await asyncio.to_thread(studio.version_text, deck_id, number)
        return Response(text, media_type="application/toml",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    @app.post("/api/studio/runs")
    async def studio_start(body: RunBody, request: Request) -> dict[str, Any]:
        signed_in(request)
        return await asyncio.to_thread(studio.start, body, address_of(request))

    @app.get("/api/studio/runs/{run_id}")
    async def studio_run(run_id: str, report: bool = False) -> dict[str, Any]:
        return await asyncio.to_thread(studio.run, run_id, report)

    @app.post("/api/studio/runs/{run_id}/cancel")
    async def studio_cancel(run_id: str, body: CancelBody, request: Request) -> dict[str, Any]:
        signed_in(request)
        return await asyncio.to_thread(studio.cancel, run_id, body.token)

    # -- the WebSocket -----------------------------------------------------------------

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        table = manager.tables.get(table_id)
        if table is None:
            await websocket.send_json(error("not_found", f"no table {table_id!r:.40}"))
            await websocket.close(code=4404)
            return
        client = client_address(websocket.client.host if websocket.client else "")
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
            dropped = conn.dropped and app.state.gate.abort(websocket.client)
            if not dropped and reader not in done:  # the server ended it (closing, or too slow)
                with contextlib.suppress(Exception):
                    await websocket.close()

    return app


_WRAPPERS = frozenset({"body", "settings"})
"""Keys of a request that hold its fields (``settings.games`` is the form's games)."""

_WANTED = {
    "less_than_equal": "at most {le}", "greater_than_equal": "at least {ge}",
    "less_than": "less than {lt}", "greater_than": "more than {gt}",
    "int_type": "a whole number", "int_parsing": "a whole number", "int_from_float": "a whole number",
    "float_type": "a number", "float_parsing": "a number", "string_type": "a text",
    "bool_type": "yes or no (true or false)", "bool_parsing": "yes or no (true or false)",
    "list_type": "a list", "dict_type": "a set of named fields", "model_type": "a set of named fields",
    "string_too_long": "at most {max_length} characters",
    "string_too_short": "at least {min_length} characters",
    "too_long": "at most {max_length} items", "too_short": "at least {min_length} items",
    "literal_error": "{expected}", "enum": "{expected}",
}
"""What a field must be, in words, for each kind of refusal of pydantic's (its ``type``)."""


def _where(loc: Sequence[int | str]) -> str:
    """A field's place in words: ``cards.0.copies`` is "card 1, copies", ``settings.games`` "games"."""
    words: list[str] = []
    for part in loc:
        if isinstance(part, int) and words:
            # the n-th of a list: "cards", 0 -> "card 1"
            words[-1] = f"{words[-1].removesuffix('s')} {part + 1}"
        elif part not in _WRAPPERS:
            words.append(str(part))  # as the request names it: an API's reader looks for it
    return ", ".join(words) or "the request"


def _validation_text(err: RequestValidationError) -> str:
    """Each refusal in a player's words: the field, what it must be and what it was."""
    parts = []
    for item in err.errors():
        where = _where(item.get("loc", ()))
        kind = str(item.get("type", ""))
        if kind == "missing":
            parts.append(f"{where} is missing")
        elif kind == "extra_forbidden":
            parts.append(f"{where} is not something this form takes")
        elif kind in _WANTED:
            wanted = _WANTED[kind].format(**(item.get("ctx") or {}))
            sent = f", not {item['input']!r:.40}" if "input" in item else ""  # a list or a form: not said
            parts.append(f"{where} must be {wanted}{sent}")
        else:  # our own validators' words (ValueError), and any other refusal as pydantic says it
            parts.append(f"{where}: {str(item.get('msg', 'invalid')).removeprefix('Value error, ')}")
    return "; ".join(parts) or "the request is not valid"


def _invalid(err: FormInvalid) -> RequestValidationError:
    """A body the deck workers' model refused, as FastAPI would have refused it."""
    return RequestValidationError([{**e, "loc": ("body", *e.get("loc", ()))} for e in err.errors])


def _sentence(text: str) -> str:
    """``text`` begun with a capital, as a page's sentence."""
    return text[:1].upper() + text[1:]
