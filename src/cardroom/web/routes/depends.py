"""What the routes take from the application and the request, and the guards of every route.

The application's parts are on ``app.state`` (set by ``cardroom.web.app.create_app``); a
route names what it needs as a parameter (``manager: Manager``). :data:`Address` is the
client's address as every per-address bound counts it; :data:`Signed` the account of the
request's session cookie. :data:`GUARDS` are the dependencies every router is included with:
:func:`csrf_guard` (a signed-in request that changes something proves it comes from this site's
pages) and :func:`paced` (requests that change something, paced per address).
"""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Depends
from fastapi.requests import HTTPConnection

from cardroom.web.accounts import SESSION_COOKIE, AccountError, Accounts, Me
from cardroom.web.bounded import Pace
from cardroom.web.guard import TableQuota, client_address
from cardroom.web.studio import Studio
from cardroom.web.tables import TableManager

__all__ = [
    "Address", "Manager", "AccountsOf", "StudioOf", "Quota", "Signed", "GUARDS", "SAFE_METHODS",
    "CHANGE_PACE", "client", "signed_in", "same_origin", "csrf_guard", "paced",
]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""The methods that change nothing: neither guarded by the CSRF token nor paced."""

CHANGE_PACE = (20.0, 60, 3.0)
"""Requests that change something (POST, PUT, PATCH, DELETE), per client address and server: 20
a second after a burst of 60, each waiting its turn up to 3 s (:class:`cardroom.web.bounded.Pace`);
past that refused (429). Costlier requests have their own, tighter bounds besides."""

_ME = "cardroom.me"
"""The key of the request's scope that keeps its signed-in account once looked up."""


def client(connection: HTTPConnection) -> str:
    """The client's address, as every per-address bound counts it (``guard.client_address``)."""
    return client_address(connection.client.host if connection.client else "")


Address = Annotated[str, Depends(client)]


def _manager(connection: HTTPConnection) -> TableManager:
    manager: TableManager = connection.app.state.manager
    return manager


def _accounts(connection: HTTPConnection) -> Accounts:
    accounts: Accounts = connection.app.state.accounts
    return accounts


def _studio(connection: HTTPConnection) -> Studio:
    studio: Studio = connection.app.state.studio
    return studio


def _quota(connection: HTTPConnection) -> TableQuota:
    quota: TableQuota = connection.app.state.quota
    return quota


Manager = Annotated[TableManager, Depends(_manager)]
AccountsOf = Annotated[Accounts, Depends(_accounts)]
StudioOf = Annotated[Studio, Depends(_studio)]
Quota = Annotated[TableQuota, Depends(_quota)]


def same_origin(request: HTTPConnection) -> None:
    """Refuse a request from another site's page: an Origin, when sent, names this server."""
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    if origin is not None and origin.split("://", 1)[-1].rstrip("/").lower() != host.lower():
        raise AccountError(403, f"a request from the page {origin[:80]!r} is not from this server")


def _changes(connection: HTTPConnection) -> bool:
    """An HTTP request that may change something (a WebSocket's own messages are bounded by the
    table: ``cardroom.web.play``)."""
    return connection.scope["type"] == "http" and connection.scope.get("method") not in SAFE_METHODS


def signed_in(request: HTTPConnection) -> Me | None:
    """The account of the request's session cookie; a request that changes something with a
    session must prove it comes from this site's pages (the CSRF token, and an Origin, when
    sent, naming this server). Looked up once a request."""
    scope = request.scope
    if _ME in scope:
        known: Me | None = scope[_ME]
        return known
    me = _accounts(request).me(request.cookies.get(SESSION_COOKIE))
    if me is not None and _changes(request):
        same_origin(request)
        sent = request.headers.get("x-csrf-token", "")
        if not secrets.compare_digest(sent.encode(), me.csrf.encode()):
            raise AccountError(403, "a signed-in request that changes something must carry the "
                                    "X-CSRF-Token header with the value of the cardroom_csrf cookie")
    scope[_ME] = me
    return me


Signed = Annotated[Me | None, Depends(signed_in)]


def csrf_guard(connection: HTTPConnection) -> None:
    """A request that changes something, from a signed-in browser, carries the CSRF token and
    comes from this server's pages (:func:`signed_in`); a guest's has no session to forge."""
    if _changes(connection):
        signed_in(connection)


async def paced(connection: HTTPConnection) -> None:
    """A request that changes something waits its address's turn (:data:`CHANGE_PACE`)."""
    if _changes(connection):
        pace: Pace = connection.app.state.pace
        await pace.take(client(connection))


GUARDS = [Depends(csrf_guard), Depends(paced)]
"""The dependencies every router is included with (``cardroom.web.app``)."""
