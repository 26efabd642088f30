"""The web table's routes, one router per resource, each module its own ``router``.

``pages`` (the HTML pages), ``accounts`` (sign-up, sessions, players, the leaderboard),
``tables`` (the lobby's JSON API: tables, seats, records, replays), ``studio`` (the designer's
studio), ``live`` (the WebSocket a seat or a spectator plays and watches through) and ``ops``
(health, readiness, metrics). What they take from the application and the request, and the
guards every router is included with, are in ``depends``: ``cardroom.web.app`` includes each
router of :data:`ROUTERS` with :data:`~cardroom.web.routes.depends.GUARDS` (the CSRF guard and
the pace of changing requests), except the sign-up and sign-in, which have no session to forge
and are included with the Origin check and the pace (``accounts.sign_router``).
"""

from __future__ import annotations

from fastapi import APIRouter

from cardroom.web.routes import accounts, live, ops, pages, studio, tables

__all__ = ["ROUTERS"]

ROUTERS: tuple[APIRouter, ...] = (
    pages.router, accounts.router, tables.router, studio.router, live.router, ops.router,
)
"""Every router that is included with the guards (``depends.GUARDS``)."""
