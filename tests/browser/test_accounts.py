"""Accounts in the browser: sign up (a refusal in words first), sign out and in again, a rated
game between two accounts, the leaderboard and the player page."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from browser_support import ServeProcess, open_table, within_quota
from playwright.sync_api import BrowserContext, Page, expect
from test_people import play_seats_to_the_end

PASSWORD = "a long enough password"


def sign_up(page: Page, server: ServeProcess, name: str) -> None:
    page.goto(server.base + "/account")
    page.get_by_test_id("signup-name").fill(name)
    page.get_by_test_id("signup-password").fill(PASSWORD)
    page.get_by_test_id("signup-submit").click()
    expect(page.get_by_test_id("signed-in")).to_be_visible()
    expect(page.get_by_test_id("me-link")).to_have_text(name)


def csrf(context: BrowserContext) -> str:
    return next(c["value"] for c in context.cookies() if c["name"] == "cardroom_csrf")


def post(context: BrowserContext, server: ServeProcess, path: str, body: dict[str, Any]) -> dict[str, Any]:
    def send() -> tuple[int, Any]:
        r = context.request.post(server.base + path, data=body, headers={"X-CSRF-Token": csrf(context)})
        return r.status, r.json() if r.ok else r.text()

    status, answer = within_quota(send)
    assert status == 200, answer
    return answer  # type: ignore[no-any-return]


def test_sign_up_sign_in_a_rated_game_and_the_leaderboard(
    server: ServeProcess, new_context: Callable[..., BrowserContext],
) -> None:
    ada_ctx, bea_ctx = new_context(), new_context()
    ada = ada_ctx.new_page()
    ada.goto(server.base + "/account")
    # a refusal in words, on the page
    ada.get_by_test_id("signup-name").fill("Ada")
    ada.get_by_test_id("signup-password").fill("short")
    ada.get_by_test_id("signup-submit").click()
    expect(ada.get_by_test_id("signup-error")).to_have_text(
        "a password has at least 10 characters; this one has 5")
    sign_up(ada, server, "Ada")
    # the session cookie is out of the page's reach
    assert "cardroom_session" not in ada.evaluate("document.cookie")
    session = next(c for c in ada_ctx.cookies() if c["name"] == "cardroom_session")
    assert session["httpOnly"] and session["sameSite"] == "Lax"
    # signing out and in again
    ada.get_by_test_id("sign-out").click()
    expect(ada.get_by_test_id("signin-form")).to_be_visible()
    assert not any(c["name"] == "cardroom_session" for c in ada_ctx.cookies())
    ada.get_by_test_id("signin-name").fill("ada")
    ada.get_by_test_id("signin-password").fill("not the password")
    ada.get_by_test_id("signin-submit").click()
    expect(ada.get_by_test_id("signin-error")).to_have_text("that name and password do not match an account")
    ada.get_by_test_id("signin-password").fill(PASSWORD)
    ada.get_by_test_id("signin-submit").click()
    expect(ada.get_by_test_id("signed-in")).to_be_visible()
    expect(ada.get_by_test_id("me-link")).to_have_text("Ada")
    # the lobby knows who plays
    ada.goto(server.base + "/")
    expect(ada.get_by_test_id("account-line")).to_contain_text("Signed in as Ada")
    expect(ada.get_by_test_id("name-input")).to_have_value("Ada")

    bea = bea_ctx.new_page()
    sign_up(bea, server, "Bea")
    table = post(ada_ctx, server, "/api/tables", {
        "game": "baha", "players": 3, "rules": {"target": 1}, "name": "Ada",
        "seats": ["human", "human", "heuristic"]})
    joined = post(bea_ctx, server, f"/api/tables/{table['id']}/join", {"name": "Bea"})
    play_seats_to_the_end(server, table["id"], [table["token"], joined["token"]])

    totals = server.get(f"/api/tables/{table['id']}/record")["result"]["totals"]
    ada.goto(server.base + "/leaderboard")
    rows = ada.get_by_test_id("leaderboard-row")
    expect(rows).to_have_count(2)
    names = [rows.nth(i).locator("td").nth(1).inner_text() for i in range(2)]
    if totals[0] != totals[1]:
        assert names == (["Ada", "Bea"] if totals[0] < totals[1] else ["Bea", "Ada"])
    # the player page: games played, the rating, a replay link
    rows.filter(has_text="Bea").locator("a").click()
    expect(ada.get_by_test_id("player-name")).to_have_text("Bea")
    expect(ada.get_by_test_id("games-played")).to_have_text("1 finished game played")
    expect(ada.get_by_test_id("rating")).to_contain_text("over 1 rated game")
    # in a player's words: one rating, no model's terms (docs/web.md keeps the method)
    expect(ada.get_by_test_id("rating")).to_contain_text(re.compile(r": rated -?\d+\.\d over 1 rated game"))
    words = ada.locator("main").inner_text()
    assert not re.search(r"\bmu\b|σ|sigma|Plackett|openskill|cardroom ladder|ismcts", words), words
    expect(ada.get_by_test_id("recent-game").locator("a", has_text="replay")).to_have_attribute(
        "href", f"/replay/{table['id']}")


def test_the_table_marks_seats_held_by_accounts_and_by_guests(
    server: ServeProcess, new_context: Callable[..., BrowserContext],
) -> None:
    cy_ctx = new_context()
    sign_up(cy_ctx.new_page(), server, "Cyd")
    table = post(cy_ctx, server, "/api/tables", {
        "game": "baha", "players": 3, "name": "Cyd", "seats": ["human", "human", "heuristic"]})
    server.join(table["id"], "Gus")  # a guest
    page = open_table(cy_ctx, server, table["id"], table["token"])
    held = page.get_by_test_id("holder-0")
    expect(held).to_have_attribute("data-holder", "account")
    expect(held).to_have_attribute("href", "/player/Cyd")
    expect(page.get_by_test_id("holder-1")).to_have_attribute("data-holder", "guest")
    expect(page.get_by_test_id("holder-2")).to_have_count(0)  # a bot is neither
