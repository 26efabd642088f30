"""The web table's FastAPI application: its parts, middleware, refusals and routers.

See ``docs/web.md`` for the contract. ``create_app`` makes an application over a database
(any SQLAlchemy URL; a SQLite file in the data folder by default) and a data folder; the routes
are ``cardroom.web.routes``'s, one router per resource.
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardroom.web.accounts import Accounts
from cardroom.web.bounded import Pace
from cardroom.web.directory import LocalDirectory, TableDirectory
from cardroom.web.guard import ConnectionGate, SiteGuard, TableQuota
from cardroom.web.protocol import MAX_DECK_BYTES
from cardroom.web.refusal import Refusal, sendable
from cardroom.web.routes import ROUTERS
from cardroom.web.routes import accounts as accounts_routes
from cardroom.web.routes.depends import CHANGE_PACE, GUARDS
from cardroom.web.routes.pages import STATIC_DIR, missing
from cardroom.web.settings import DEFAULT_BOT_DELAY, Settings
from cardroom.web.store import Store
from cardroom.web.studio import Studio
from cardroom.web.tables import TableManager

if TYPE_CHECKING:
    from cardroom.web.cluster import RedisDirectory

__all__ = ["create_app", "application", "Settings", "STATIC_DIR", "DEFAULT_BOT_DELAY", "MAX_BODY_BYTES"]

log = logging.getLogger("cardroom.web")

MAX_BODY_BYTES = MAX_DECK_BYTES + 64 * 1024
"""The largest HTTP request body: a deck file and the rest of a create request."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


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
    """The web table of :class:`Settings` given one by one (see there); :func:`application`
    takes them as one object."""
    return application(Settings(db_url, Path(data_dir), bot_delay, bot_workers, local_only, redis_url,
                                quick_wait, studio_workers, away_after))


def application(settings: Settings) -> FastAPI:
    """The web table of ``settings``: its parts on ``app.state`` (``manager``, ``accounts``,
    ``studio``, ``gate``, ``quota``, ``pace``, ``store``, ``cluster``, ``settings``), the
    middleware, the one handler of each kind of refusal, and every router of
    ``cardroom.web.routes`` included with its guards."""
    parts = _parts(settings)
    manager, studio, gate, store = parts.manager, parts.studio, parts.gate, parts.store

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
    state = app.state
    state.settings, state.manager, state.accounts, state.studio = settings, manager, parts.accounts, studio
    state.gate = gate
    """Open connections by address; the HTTP protocol of ``guard.server_config`` counts them."""
    state.store, state.cluster, state.quota = store, parts.cluster, parts.quota
    state.pace = Pace("change something", *CHANGE_PACE)
    if parts.cluster is not None:
        from cardroom.web.relay import ClusterRouter

        app.add_middleware(ClusterRouter, directory=parts.cluster)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.add_middleware(SiteGuard, local_only=settings.local_only)
    app.add_exception_handler(Refusal, answer_refusal)
    app.add_exception_handler(SQLAlchemyError, database_error)
    app.add_exception_handler(RequestValidationError, bad_request)
    app.add_exception_handler(StarletteHTTPException, not_found)
    for router in ROUTERS:
        app.include_router(router, dependencies=GUARDS)
    app.include_router(accounts_routes.sign_router)  # the Origin check and the pace: no session yet
    if STATIC_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app


@dataclass
class _Parts:
    """What an application is made of (:func:`_parts`)."""

    store: Store
    manager: TableManager
    accounts: Accounts
    studio: Studio
    gate: ConnectionGate
    quota: TableQuota
    cluster: RedisDirectory | None
    """A cluster node's table directory (``None``: one server's own)."""


def _parts(settings: Settings) -> _Parts:
    """The store, the tables, the accounts, the studio and the bounds of ``settings``: one
    server's, or a cluster node's (``redis_url``: its tables' directory in Redis) with the
    bounds counted over every node."""
    data_dir = settings.data_dir
    data_dir.mkdir(parents=True, exist_ok=True)
    url = settings.db_url or f"sqlite:///{(data_dir / 'cardroom.db').resolve()}"
    directory: TableDirectory
    cluster = None
    if settings.redis_url is None:
        store = Store(url)
        directory = LocalDirectory()
    else:
        from cardroom.web.cluster import Leases, RedisDirectory, cluster_database

        store = Store(cluster_database(url), shared=True)
        try:
            directory = cluster = RedisDirectory(Leases(settings.redis_url))
        except BaseException:
            store.close()
            raise
    manager = TableManager(store, data_dir, settings.bot_delay, settings.bot_workers, directory)
    if settings.quick_wait is not None:
        manager.quick_wait = settings.quick_wait
    if settings.away_after is not None:
        manager.away_after = settings.away_after
    manager.load()
    accounts = Accounts(store)
    studio = Studio(store, workers=settings.studio_workers, shared=cluster is not None)
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
    quota = TableQuota()
    if cluster is not None:  # the table quotas, shared by every node
        from cardroom.web.cluster import SharedQuota

        quota = SharedQuota(cluster.leases)
    return _Parts(store, manager, accounts, studio, gate, quota, cluster)


async def database_error(request: Request, err: Exception) -> JSONResponse:
    """A change the database refused (500), logged; nothing of the database's words is sent."""
    log.error("the database refused a change (%s %s): %s", request.method, request.url.path,
              str(err).splitlines()[0])
    return JSONResponse(
        {"detail": "the database could not store that; nothing changed, try again later"},
        status_code=500,
    )


async def bad_request(request: Request, err: Exception) -> JSONResponse:
    """A request FastAPI's checks refused (400), in a player's words."""
    assert isinstance(err, RequestValidationError)
    return JSONResponse({"detail": sendable(_validation_text(err))}, status_code=400)


async def not_found(request: Request, err: Exception) -> Response:
    """A person's unknown address gets a page with the way back; the API keeps JSON."""
    assert isinstance(err, StarletteHTTPException)
    if err.status_code == 404 and not request.url.path.startswith("/api/"):
        return missing(f"There is no page at {request.url.path[:200]} on this server.")
    return await http_exception_handler(request, err)


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
