"""Accounts in the browser: sign up (a refusal in words first), sign out and in again, a rated
game between two accounts, the leaderboard and the player page; change the password, sign out
every other browser, delete the account."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from browser_support import ServeProcess, open_table, screenshot_dir, within_quota
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
    ada.get_by_test_id("signup-name").fill("Ava")
    ada.get_by_test_id("signup-password").fill("short")
    ada.get_by_test_id("signup-submit").click()
    expect(ada.get_by_test_id("signup-error")).to_have_text(
        "a password has at least 10 characters; this one has 5")
    sign_up(ada, server, "Ava")
    # the session cookie is out of the page's reach
    assert "cardroom_session" not in ada.evaluate("document.cookie")
    session = next(c for c in ada_ctx.cookies() if c["name"] == "cardroom_session")
    assert session["httpOnly"] and session["sameSite"] == "Lax"
    # signing out and in again
    ada.get_by_test_id("sign-out").click()
    expect(ada.get_by_test_id("signin-form")).to_be_visible()
    assert not any(c["name"] == "cardroom_session" for c in ada_ctx.cookies())
    ada.get_by_test_id("signin-name").fill("ava")
    ada.get_by_test_id("signin-password").fill("not the password")
    ada.get_by_test_id("signin-submit").click()
    expect(ada.get_by_test_id("signin-error")).to_have_text("that name and password do not match an account")
    ada.get_by_test_id("signin-password").fill(PASSWORD)
    ada.get_by_test_id("signin-submit").click()
    expect(ada.get_by_test_id("signed-in")).to_be_visible()
    expect(ada.get_by_test_id("me-link")).to_have_text("Ava")
    # the lobby knows who plays
    ada.goto(server.base + "/")
    expect(ada.get_by_test_id("account-line")).to_contain_text("Signed in as Ava")
    expect(ada.get_by_test_id("name-input")).to_have_value("Ava")

    bea = bea_ctx.new_page()
    sign_up(bea, server, "Bex")
    table = post(ada_ctx, server, "/api/tables", {
        "game": "baha", "players": 3, "rules": {"target": 1}, "name": "Ava",
        "seats": ["human", "human", "heuristic"]})
    joined = post(bea_ctx, server, f"/api/tables/{table['id']}/join", {})  # no name: the account
    play_seats_to_the_end(server, table["id"], [table["token"], joined["token"]])

    totals = server.get(f"/api/tables/{table['id']}/record")["result"]["totals"]
    ada.goto(server.base + "/leaderboard")
    rows = ada.get_by_test_id("leaderboard-row")
    expect(rows).to_have_count(2)
    names = [rows.nth(i).locator("td").nth(1).inner_text() for i in range(2)]
    if totals[0] != totals[1]:
        assert names == (["Ava", "Bex"] if totals[0] < totals[1] else ["Bex", "Ava"])
    # the player page: games played, the rating, a replay link
    rows.filter(has_text="Bex").locator("a").click()
    expect(ada.get_by_test_id("player-name")).to_have_text("Bex")
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


def test_a_signed_in_friend_takes_a_free_seat_without_typing_a_name(
    server: ServeProcess, new_context: Callable[..., BrowserContext],
) -> None:
    table = server.create(game="baha", players=3, name="Hana", seats=["human", "human", "heuristic"])
    dax_ctx = new_context()
    sign_up(dax_ctx.new_page(), server, "Dax")
    page = open_table(dax_ctx, server, table["id"])   # the link a friend was sent
    expect(page.get_by_test_id("join-bar")).to_be_visible()
    expect(page.get_by_test_id("join-name")).to_be_hidden()
    expect(page.get_by_test_id("join-button")).to_have_text("Take a free seat as Dax")
    page.get_by_test_id("join-button").click()
    expect(page.get_by_test_id("who")).to_have_text("Seat 1: Dax")
    seat = server.get(f"/api/tables/{table['id']}")["seats"][1]
    assert (seat["name"], seat["account"]) == ("Dax", True)

def test_the_account_page_changes_the_password_signs_out_elsewhere_and_deletes(
    tmp_path: Path, new_context: Callable[..., BrowserContext],
) -> None:
    """A server of its own: the sign-ups of one address are limited, and the others' use them."""
    own = ServeProcess(tmp_path / "data")
    try:
        here, elsewhere = new_context(), new_context()
        page = here.new_page()
        sign_up(page, own, "Dee")
        expect(page.get_by_test_id("sessions")).to_have_text("Signed in on this browser only.")
        expect(page.get_by_test_id("sign-out-others")).to_be_hidden()
        r = elsewhere.request.post(own.base + "/api/account/signin", data={"name": "Dee", "password": PASSWORD})
        assert r.ok, r.text()
        page.reload()
        expect(page.get_by_test_id("sessions")).to_have_text("Also signed in on 1 other browser.")
        shot = screenshot_dir()
        if shot is not None:
            page.set_viewport_size({"width": 1280, "height": 800})
            page.screenshot(path=str(shot / "account.png"), full_page=True)
        page.get_by_test_id("sign-out-others").click()
        expect(page.get_by_test_id("account-note")).to_have_text("1 other browser was signed out.")
        expect(page.get_by_test_id("sessions")).to_have_text("Signed in on this browser only.")
        assert elsewhere.request.get(own.base + "/api/account").json() == {"signed_in": False}

        page.get_by_test_id("password-current").fill("not the password")
        page.get_by_test_id("password-new").fill("another long secret")
        page.get_by_test_id("password-submit").click()
        expect(page.get_by_test_id("password-error")).to_have_text(
            "that is not this account's password; nothing changed")
        page.get_by_test_id("password-current").fill(PASSWORD)
        page.get_by_test_id("password-submit").click()
        expect(page.get_by_test_id("account-note")).to_have_text(
            "Password changed. 0 other browsers were signed out.")

        page.get_by_test_id("delete-password").fill("another long secret")
        page.get_by_test_id("delete-submit").click()  # not ticked: nothing is sent
        expect(page.get_by_test_id("delete-error")).to_have_text(
            'tick "I want to delete this account" to delete it')
        page.get_by_test_id("delete-sure").check()
        page.get_by_test_id("delete-submit").click()
        expect(page.get_by_test_id("account-note")).to_contain_text("The account Dee is deleted.")
        expect(page.get_by_test_id("signin-form")).to_be_visible()
        assert not any(c["name"] == "cardroom_session" for c in here.cookies())
        assert here.request.get(own.base + "/api/players/Dee").status == 404
    finally:
        own.stop()
