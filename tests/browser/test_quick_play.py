"""Quick play and the live lobby: one button seats a person at a table Play now made for the
game, size and level they chose, in its wait, when there is one, else at a new table that
waits a few seconds for others who press it too, then fills with bots of the chosen level (a
created table's free seats are left to its link); the lobby's list shows tables appearing,
filling and finishing without a reload.

Play now's tests run on a server of their own (``--quick-wait QUICK_WAIT``)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import pytest
from browser_support import QUOTA_WAIT_S, ServeProcess, seat_update, wait_first_turn, wait_first_update
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

TABLE_URL = re.compile(r"/table/([^/?#]+)$")
LIVE_MS = 8000   # the lobby asks for the list every 3 s
QUICK_WAIT = 4.0  # seconds Play now's table waits for people here, before bots sit down


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    live = ServeProcess(tmp_path_factory.mktemp("quick") / "data", quick_wait=QUICK_WAIT)
    try:
        yield live
    finally:
        live.stop()


def choose_quick(page: Page, base: str, name: str, game: str, players: int, bots: str = "heuristic") -> None:
    page.goto(base + "/")
    expect(page.get_by_test_id("quick-game").locator("option")).to_have_count(2)
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("quick-game").select_option(game)
    page.get_by_test_id("quick-players").select_option(str(players))
    page.get_by_test_id("quick-bots").select_option(bots)


def table_id_of(page: Page) -> str:
    page.wait_for_url(TABLE_URL)
    return TABLE_URL.search(page.url).group(1)  # type: ignore[union-attr]


@pytest.mark.parametrize(("game", "players", "bots"), [("baha", 4, "heuristic"), ("baebae", 3, "random")])
def test_play_now_with_nobody_waiting_fills_with_bots_after_the_wait(
        game: str, players: int, bots: str, quick_server: ServeProcess, context: BrowserContext) -> None:
    server = quick_server
    page = context.new_page()
    choose_quick(page, server.base, "Quinn", game, players, bots)
    pressed = time.monotonic()
    press_until_seated(page)
    table_id = table_id_of(page)
    wait_first_update(page)
    summary = server.get(f"/api/tables/{table_id}")
    assert summary["status"] == "waiting" and summary["bots_at"] is not None, summary  # the wait
    assert [s["kind"] for s in summary["seats"]] == ["human"] * players
    expect(page.get_by_test_id("waiting-note")).to_contain_text("bots take the free seats")
    summary = server.wait_status(table_id, "running", timeout=QUICK_WAIT + 20)
    assert time.monotonic() - pressed >= QUICK_WAIT - 1.0  # not at once: people had the wait to join
    assert summary["game"] == game and summary["players"] == players and summary["bots_at"] is None
    assert [s["kind"] for s in summary["seats"]] == ["human"] + ["bot"] * (players - 1)
    assert {s["bot"] for s in summary["seats"][1:]} == {bots} and summary["seats"][0]["name"] == "Quinn"
    expect(page.get_by_test_id("who")).to_have_text("Seat 0: Quinn")
    # the game is under way: this seat is asked to play (a BAEBAE round the bots end first, read)
    assert wait_first_turn(page) == "turn"
    token = page.evaluate(f"() => localStorage.getItem('cardroom.token.{table_id}')")
    assert seat_update(server, table_id, token)["moves"]


def test_play_now_in_the_wait_seats_the_second_person_at_the_first_ones_table(
        quick_server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    server = quick_server
    first, second = new_context().new_page(), new_context().new_page()
    choose_quick(first, server.base, "Ada", "baha", 3, "random")
    choose_quick(second, server.base, "Bea", "baha", 3, "random")
    press_until_seated(first)
    table_id = table_id_of(first)
    second.get_by_test_id("quick-button").click()   # in the wait: no new table, a seat at Ada's
    assert table_id_of(second) == table_id
    summary = server.wait_status(table_id, "running", timeout=QUICK_WAIT + 20)
    assert [(s["kind"], s["name"]) for s in summary["seats"]] == [("human", "Ada"), ("human", "Bea"),
                                                                   ("bot", None)]
    assert summary["seats"][2]["bot"] == "random"
    expect(second.get_by_test_id("who")).to_have_text("Seat 1: Bea")


def test_play_now_twice_from_one_browser_does_not_seat_you_against_yourself(
        quick_server: ServeProcess, context: BrowserContext) -> None:
    page = context.new_page()
    choose_quick(page, quick_server.base, "Ada", "baebae", 4, "random")
    press_until_seated(page)
    first = table_id_of(page)
    choose_quick(page, quick_server.base, "Ada", "baebae", 4, "random")   # back in the lobby, in the wait
    press_until_seated(page)
    assert table_id_of(page) != first
    assert [s["name"] for s in quick_server.get(f"/api/tables/{first}")["seats"]][:2] == ["Ada", None]


def test_play_now_leaves_the_free_seats_of_a_created_table_to_its_link(
        quick_server: ServeProcess, context: BrowserContext) -> None:
    """A New table keeps seat 1 for a friend (seat 2 a beginner bot): Play now for the same game
    and size seats the person at a table of its own, never in the friend's seat."""
    server = quick_server
    created = server.create(game="baebae", players=3, name="Ada", seats=["human", "human", "beginner"])
    page = context.new_page()
    choose_quick(page, server.base, "Dee", "baebae", 3, "random")
    press_until_seated(page)
    assert table_id_of(page) != created["id"]
    expect(page.get_by_test_id("who")).to_have_text("Seat 0: Dee")
    summary = server.get(f"/api/tables/{created['id']}")
    assert summary["status"] == "waiting" and [s["name"] for s in summary["seats"]] == ["Ada", None, None]


def test_play_now_refuses_an_unknown_bot_or_size_in_words(quick_server: ServeProcess) -> None:
    before = len(quick_server.get("/api/tables"))
    status, answer = quick_server.request("POST", "/api/quick", {"game": "baha", "players": 4, "bot": "oracle",
                                                                 "name": "Eve"})
    assert status == 400 and "unknown bot 'oracle'" in answer["detail"] and "heuristic" in answer["detail"]
    status, answer = quick_server.request("POST", "/api/quick", {"game": "baha", "players": 7, "name": "Eve"})
    assert status == 400 and "players" in str(answer["detail"])
    assert len(quick_server.get("/api/tables")) == before


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
