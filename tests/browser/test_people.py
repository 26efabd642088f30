"""People at a table besides playing: the seats of a table that waits, leaving a seat, the
creator closing the table, and a rematch of a finished game at the same seats."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from browser_support import GAME_S, WAIT_MS, ServeProcess, open_table, record_frames, wait_first_update
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError


def seat_states(page: Page, n: int) -> list[str | None]:
    return [page.get_by_test_id(f"seat-{i}").get_attribute("data-state") for i in range(n)]


def as_creator(context: BrowserContext, server: ServeProcess, table_id: str, token: str) -> None:
    """What the lobby keeps after creating a table: the creator's token."""
    context.add_init_script(f"if (location.origin === {json.dumps(server.base)}) "
                            f"localStorage.setItem({json.dumps('cardroom.creator.' + table_id)}, {json.dumps(token)})")


def play_seats_to_the_end(server: ServeProcess, table_id: str, tokens: list[str]) -> None:
    """Play the seats of ``tokens`` (first legal move) over WebSockets until the game is over."""
    from websockets.sync.client import connect

    url = server.base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    sockets = [connect(url, open_timeout=WAIT_MS / 1000, legacy=True) for _ in tokens]
    try:
        for ws, token in zip(sockets, tokens, strict=True):
            ws.send(json.dumps({"type": "hello", "token": token}))
        end = time.monotonic() + GAME_S
        over = [False] * len(sockets)
        while not all(over):
            assert time.monotonic() < end, "the game did not end in time"
            for i, ws in enumerate(sockets):
                try:
                    message = json.loads(ws.recv(timeout=0.05))
                except TimeoutError:
                    continue
                if message["type"] != "update":
                    continue
                over[i] = message["table"]["status"] == "over"
                if message["moves"]:
                    ws.send(json.dumps({"type": "act", "action": message["moves"][0]["action"], "seq": message["seq"]}))
    finally:
        for ws in sockets:
            ws.close()


def test_a_waiting_table_shows_its_seats_then_starts(
        server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    table = server.create(game="baha", name="Ada", seats=["human", "human", "heuristic", "random"])
    ada = open_table(new_context(), server, table["id"], table["token"])
    expect(ada.get_by_test_id("status")).to_have_attribute("data-status", "waiting")
    expect(ada.get_by_test_id("seat-3")).to_be_visible()
    assert seat_states(ada, 4) == ["taken", "free", "bot", "bot"]
    expect(ada.get_by_test_id("seat-0")).to_contain_text("Ada")
    expect(ada.get_by_test_id("seat-0")).to_contain_text("you")
    expect(ada.get_by_test_id("seat-1")).to_contain_text("free seat")
    expect(ada.get_by_test_id("seat-2")).to_contain_text("Heuristic")
    expect(ada.get_by_test_id("seat-3")).to_contain_text("Random")
    expect(ada.get_by_test_id("waiting-note")).to_contain_text("Waiting for 1 more player")
    expect(ada.get_by_test_id("share-link")).to_have_value(f"{server.base}/table/{table['id']}")
    # Bo opens the link, sees the same seats, and takes the free one: the game starts for both.
    bo = open_table(new_context(), server, table["id"])
    assert seat_states(bo, 4) == ["taken", "free", "bot", "bot"]
    bo.get_by_test_id("join-name").fill("Bo")
    bo.get_by_test_id("join-button").click()
    for page in (ada, bo):
        expect(page.get_by_test_id("status")).to_have_attribute("data-status", "running")
        expect(page.get_by_test_id("waiting-note")).to_have_count(0)
    expect(bo.get_by_test_id("who")).to_have_text("Seat 1: Bo")


def test_leaving_a_seat_then_the_creator_closes_the_table(
        server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    table = server.create(game="baha", name="Ada", seats=["human", "human", "human", "heuristic"])
    bo_seat = server.join(table["id"], "Bo")
    ada_ctx = new_context()
    as_creator(ada_ctx, server, table["id"], table["creator_token"])
    ada = open_table(ada_ctx, server, table["id"], table["token"])
    bo = open_table(new_context(), server, table["id"], bo_seat["token"])
    expect(bo.get_by_test_id("close-button")).to_be_hidden()   # Bo did not create it
    expect(ada.get_by_test_id("seat-1")).to_have_attribute("data-state", "taken")
    bo.on("dialog", lambda d: d.accept())
    bo.get_by_test_id("leave-button").click()
    expect(ada.get_by_test_id("seat-1")).to_have_attribute("data-state", "free")
    expect(bo.get_by_test_id("who")).to_have_text("Watching")
    expect(bo.get_by_test_id("join-bar")).to_be_visible()
    expect(bo.get_by_test_id("leave-button")).to_be_hidden()
    assert bo.evaluate(f"() => localStorage.getItem('cardroom.token.{table['id']}')") is None
    # The creator closes it: both pages say so and stop; the lobby no longer lists it.
    ada.on("dialog", lambda d: d.accept())
    ada.get_by_test_id("close-button").click()
    for page in (ada, bo):
        expect(page.get_by_test_id("connection")).to_have_text("table closed")
        expect(page.get_by_test_id("toasts")).to_contain_text("closed by its creator")
    assert server.request("GET", f"/api/tables/{table['id']}")[0] == 404


def test_the_creator_closes_a_running_game(server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    table = server.create(game="baha", name="Ada", seats=["human", "heuristic", "heuristic", "heuristic"])
    ctx = new_context()
    as_creator(ctx, server, table["id"], table["creator_token"])
    ada = open_table(ctx, server, table["id"], table["token"])
    expect(ada.get_by_test_id("status")).to_have_attribute("data-status", "running")
    ada.on("dialog", lambda d: d.accept())
    ada.get_by_test_id("close-button").click()
    expect(ada.get_by_test_id("status")).to_have_attribute("data-status", "over")
    expect(ada.get_by_test_id("turn-indicator")).to_have_text("Closed by its creator: the game ended unfinished")
    expect(ada.get_by_test_id("close-button")).to_be_hidden()
    expect(ada.get_by_test_id("leave-button")).to_be_hidden()
    lobby = ctx.new_page()
    lobby.goto(server.base + "/")
    item = lobby.get_by_test_id("over-list").get_by_test_id(f"table-{table['id']}")
    expect(item).to_contain_text("closed unfinished")
    expect(lobby.get_by_test_id("table-list").get_by_test_id(f"table-{table['id']}")).to_have_count(0)


def test_a_rematch_at_the_same_seats(server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    table = server.create(game="baha", rules={"target": 1}, name="Ada",
                          seats=["human", "human", "heuristic", "heuristic"])
    bo_seat = server.join(table["id"], "Bo")
    play_seats_to_the_end(server, table["id"], [table["token"], bo_seat["token"]])
    ada = open_table(new_context(), server, table["id"], table["token"])
    bo = open_table(new_context(), server, table["id"], bo_seat["token"])
    for page in (ada, bo):
        expect(page.get_by_test_id("status")).to_have_attribute("data-status", "over")
        expect(page.get_by_test_id("rematch-button")).to_be_visible()
    # A rematch counts against its creator's table quota, which this worker's earlier tests
    # (all from 127.0.0.1) may have used up: a refusal is waited out as a person would.
    end = time.monotonic() + 65
    while True:
        ada.get_by_test_id("rematch-button").click()
        try:
            ada.wait_for_url(lambda url: "/table/" in url and table["id"] not in url, timeout=5000)
            break
        except PlaywrightTimeoutError:
            assert time.monotonic() < end, "the rematch was refused for over a minute"
    new_id = ada.url.rsplit("/", 1)[1]
    assert new_id != table["id"]
    record_frames(ada)
    wait_first_update(ada)
    expect(ada.get_by_test_id("who")).to_have_text("Seat 0: Ada")
    expect(ada.get_by_test_id("status")).to_have_attribute("data-status", "running")
    # Bo's page hears of it and follows with his seat.
    expect(bo.get_by_test_id("rematch-link")).to_be_visible()
    expect(bo.get_by_test_id("rematch-button")).to_be_hidden()
    bo.get_by_test_id("rematch-link").click()
    bo.wait_for_url(f"{server.base}/table/{new_id}")
    expect(bo.get_by_test_id("who")).to_have_text("Seat 1: Bo")
    summary = server.get(f"/api/tables/{new_id}")
    assert [(s["kind"], s["name"], s["bot"]) for s in summary["seats"]] == [
        ("human", "Ada", None), ("human", "Bo", None), ("bot", None, "heuristic"), ("bot", None, "heuristic")]
    assert summary["rules"] == table["rules"]
