"""Every route that changes something is guarded by construction: the routers are included with
the CSRF guard and the pace of changing requests (``cardroom.web.routes.depends.GUARDS``), and
this walks every route of the application (``app.routes``) to check it, then asks each of them
without the token, and over the pace, and sees it refused."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, APIWebSocketRoute, RouteContext, iter_route_contexts
from fastapi.testclient import TestClient

from cardroom.web import bounded
from cardroom.web.app import create_app
from cardroom.web.bounded import Pace
from cardroom.web.routes.depends import csrf_guard, paced, same_origin

MUTATING = frozenset({"POST", "PUT", "PATCH", "DELETE"})

EXEMPT_FROM_CSRF = {
    "/api/account/signup": "no session yet, so no token to forge: guarded by the Origin check",
    "/api/account/signin": "no session yet, so no token to forge (login CSRF): guarded by the Origin check",
}
"""Changing routes without the CSRF guard, each with its reason; each has the Origin check."""


def _calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for dependency in dependant.dependencies:
        if dependency.call is not None:
            yield dependency.call
        yield from _calls(dependency)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    data = tmp_path_factory.mktemp("guards")
    return create_app(f"sqlite:///{data / 'db.sqlite'}", data, bot_delay=0.0)


def _routes(app: FastAPI) -> list[RouteContext]:
    """Every route of the application, as it answers: each included router's with the
    dependencies it was included with."""
    return list(iter_route_contexts(app.routes))


def _mutating(app: FastAPI) -> list[RouteContext]:
    return [r for r in _routes(app) if isinstance(r.original_route, APIRoute) and (r.methods or set()) & MUTATING]


def _url(route: RouteContext) -> str:
    return re.sub(r"\{[^}]+\}", "x", route.path or "")


def test_every_changing_route_carries_the_csrf_guard_and_the_pace(app: FastAPI) -> None:
    known = [r for r in _routes(app) if isinstance(r.original_route, (APIRoute, APIWebSocketRoute))]
    assert len(known) > 40  # the walk sees the routers' routes, not an empty app
    changing = _mutating(app)
    unguarded = []
    for route in changing:
        calls = set(_calls(route.dependant))
        guard = same_origin if route.path in EXEMPT_FROM_CSRF else csrf_guard
        if guard not in calls or paced not in calls:
            unguarded.append(f"{sorted(route.methods or ())} {route.path}")
    assert unguarded == []
    assert len(changing) == 17
    assert set(EXEMPT_FROM_CSRF) <= {r.path for r in changing}  # no exemption outlives its route


def test_a_route_added_without_the_guards_is_found(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite'}", tmp_path, bot_delay=0.0)

    @app.post("/api/forgotten")
    async def forgotten() -> dict[str, bool]:
        return {"done": True}

    route = next(r for r in _mutating(app) if r.path == "/api/forgotten")
    assert csrf_guard not in set(_calls(route.dependant)) and paced not in set(_calls(route.dependant))


def test_every_changing_route_refuses_a_signed_in_request_without_the_token(app: FastAPI) -> None:
    with TestClient(app) as client:
        assert client.post("/api/account/signup",
                           json={"name": "Guarded", "password": "correct horse battery"}).status_code == 200
        for route in _mutating(app):
            if route.path in EXEMPT_FROM_CSRF:
                r = client.post(_url(route), json={}, headers={"Origin": "https://elsewhere.example"})
                assert r.status_code == 403 and "not from this server" in r.json()["detail"], route.path
            else:
                r = client.post(_url(route), json={})
                assert r.status_code == 403 and "X-CSRF-Token" in r.json()["detail"], route.path


def test_every_changing_route_is_paced(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounded, "REFUSAL_PAUSE", 0.0)
    with TestClient(app) as client:
        app.state.pace = Pace("change something", 0.001, 0, 0.0)  # every change over it
        for route in _mutating(app):
            r = client.post(_url(route), json={})
            assert r.status_code == 429 and "may change something" in r.json()["detail"], route.path
            assert "Retry-After" in r.headers
        assert client.get("/api/tables").status_code == 200  # what changes nothing is not paced
