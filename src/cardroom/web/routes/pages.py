"""The HTML pages: the lobby, a table, a replay, a game's rules, the account, the leaderboard,
a player, the designer's studio; a page of its own for an address with nothing there."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response

from cardroom.web import pages
from cardroom.web.routes.depends import AccountsOf, Manager, StudioOf
from cardroom.web.studio import StudioError

__all__ = ["router", "STATIC_DIR", "missing", "page"]

STATIC_DIR = Path(__file__).resolve().parents[1] / "static"

router = APIRouter(include_in_schema=False)


def missing(message: str) -> Response:
    """The page for an address with nothing there (404), with the way back."""
    return HTMLResponse(pages.not_found_page(message), status_code=404)


def page(name: str) -> Response:
    """The static page ``name``."""
    path = STATIC_DIR / name
    if not path.is_file():
        return JSONResponse({"detail": f"the page {name} is not installed"}, status_code=404)
    return FileResponse(path, media_type="text/html")


def _sentence(text: str) -> str:
    """``text`` begun with a capital, as a page's sentence."""
    return text[:1].upper() + text[1:]


@router.get("/")
async def lobby() -> Response:
    return page("index.html")


@router.get("/table/{table_id}")
async def table_page(table_id: str, manager: Manager) -> Response:
    if table_id not in manager.tables:
        return missing(f"There is no table {table_id[:40]} here: it was closed before its game "
                       "began, or the address is not quite right.")
    return page("table.html")


@router.get("/replay/{table_id}")
async def replay_page(table_id: str, manager: Manager) -> Response:
    if table_id not in manager.tables:
        return missing(f"There is no game {table_id[:40]} to replay here: the address is not "
                       "quite right, or its table was closed before the game began.")
    return page("replay.html")


@router.get("/rules/{game}")
async def rules_page(game: str) -> Response:
    if not pages.has_rules(game):
        return missing(f"There are no rules of a game {game[:40]} here.")
    return HTMLResponse(pages.rules_page(game))


@router.get("/account")
async def account_page() -> Response:
    return page("account.html")


@router.get("/leaderboard")
async def leaderboard_page() -> Response:
    return page("leaderboard.html")


@router.get("/player/{name}")
async def player_page(name: str, accounts: AccountsOf) -> Response:
    if accounts.player(name, recent=0) is None:
        return missing(f"There is no player {name[:40]} here.")
    return page("player.html")


@router.get("/studio")
async def studio_page() -> Response:
    return page("studio.html")


async def _studio_page_of(look_up: Callable[[str], object], key: str) -> Response:
    """The studio's page for a deck or a run that ``look_up`` finds; else a missing page in words."""
    try:
        await asyncio.to_thread(look_up, key)
    except StudioError as err:
        return missing(f"{_sentence(str(err)[:200])}: the address is not quite right.")
    return page("studio.html")


@router.get("/studio/decks/{deck_id}")
async def studio_deck_page(deck_id: str, studio: StudioOf) -> Response:
    return await _studio_page_of(studio.exists, deck_id)


@router.get("/studio/runs/{run_id}")
async def studio_run_page(run_id: str, studio: StudioOf) -> Response:
    return await _studio_page_of(studio.run, run_id)


@router.get("/favicon.ico")
async def favicon() -> Response:
    # Asked for by browsers whatever a page links: the pages' icon (an SVG, as they link it).
    return FileResponse(STATIC_DIR / "favicon.svg", media_type="image/svg+xml")
