"""Quick play and the live lobby: one button seats a person at a new table with bots of the
chosen level, the game under way at once; the lobby's list shows tables appearing, filling and
finishing without a reload."""

from __future__ import annotations

import re
import time

import pytest
from browser_support import QUOTA_WAIT_S, ServeProcess, seat_update, wait_first_update, wait_turn_or_over
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

TABLE_URL = re.compile(r"/table/([^/?#]+)$")
LIVE_MS = 8000   # the lobby asks for the list every 3 s


@pytest.mark.parametrize(("game", "players", "bots"), [("baha", 4, "heuristic"), ("baebae", 3, "random")])
def test_play_now_seats_you_with_bots_at_once(
        game: str, players: int, bots: str, server: ServeProcess, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(server.base + "/")
    expect(page.get_by_test_id("quick-game").locator("option")).to_have_count(2)
    page.get_by_test_id("name-input").fill("Quinn")
    page.get_by_test_id("quick-game").select_option(game)
    page.get_by_test_id("quick-players").select_option(str(players))
    page.get_by_test_id("quick-bots").select_option(bots)
    press_until_seated(page)
    page.wait_for_url(TABLE_URL)
    wait_first_update(page)
    table_id = TABLE_URL.search(page.url).group(1)  # type: ignore[union-attr]
    summary = server.get(f"/api/tables/{table_id}")
    assert summary["game"] == game and summary["players"] == players and summary["status"] == "running"
    assert [s["kind"] for s in summary["seats"]] == ["human"] + ["bot"] * (players - 1)
    assert {s["bot"] for s in summary["seats"][1:]} == {bots} and summary["seats"][0]["name"] == "Quinn"
    expect(page.get_by_test_id("who")).to_have_text("Seat 0: Quinn")
    assert wait_turn_or_over(page) == "turn"  # the game is under way: this seat is asked to play
    token = page.evaluate(f"() => localStorage.getItem('cardroom.token.{table_id}')")
    assert seat_update(server, table_id, token)["moves"]


def press_until_seated(page: Page) -> None:
    """Press Play now, again while the server refuses the table for its quota of tables a
    minute an address (every test here creates from 127.0.0.1), as a person would."""
    end = time.monotonic() + QUOTA_WAIT_S
    while True:
        page.get_by_test_id("quick-button").click()
        try:
            page.wait_for_url(TABLE_URL, timeout=2000)
            return
        except PlaywrightTimeoutError:
            refusal = page.get_by_test_id("quick-error").inner_text()
            assert "tables a minute" in refusal and time.monotonic() < end, f"not seated: {refusal!r}"


def test_the_lobby_shows_tables_appear_fill_and_finish_without_a_reload(
        server: ServeProcess, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(server.base + "/")
    expect(page.get_by_test_id("table-list")).to_be_visible()
    table = server.create(game="baha", players=2, name="Ada", seats=["human", "human"])
    item = page.get_by_test_id(f"table-{table['id']}")
    expect(item).to_be_visible(timeout=LIVE_MS)                       # appears
    expect(item).to_have_attribute("data-status", "waiting")
    expect(item.locator(".seats-line")).to_have_text("Ada \u00b7 free seat")
    expect(page.get_by_test_id(f"join-button-{table['id']}")).to_be_visible()
    server.join(table["id"], "Bea")
    expect(item).to_have_attribute("data-status", "running", timeout=LIVE_MS)   # fills
    expect(item.locator(".seats-line")).to_have_text("Ada \u00b7 Bea")
    status, _ = server.request("POST", f"/api/tables/{table['id']}/close", {"token": table["creator_token"]})
    assert status == 200
    done = page.get_by_test_id("over-list").get_by_test_id(f"table-{table['id']}")
    expect(done).to_be_visible(timeout=LIVE_MS)                      # finishes (closed unfinished)
    expect(page.get_by_test_id("table-list").get_by_test_id(f"table-{table['id']}")).to_have_count(0)
    assert page.evaluate("() => performance.getEntriesByType('navigation').length") == 1  # no reload
