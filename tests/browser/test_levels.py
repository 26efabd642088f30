"""Difficulty levels in the lobby: each seat's choice lists the levels with their rating on the
chosen game's ladder of bots; a table made with levels seats their agents; the leaderboard
shows the bots' ladder and says what it is from."""

from __future__ import annotations

import re
from collections.abc import Callable

from browser_support import ServeProcess, click_create
from playwright.sync_api import BrowserContext, expect

from cardroom.agents.levels import LEVELS, rating

TABLE_URL = re.compile(r"/table/([^/?#]+)$")


def test_a_level_is_chosen_per_seat_with_its_rating_shown(
        server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    page = new_context().new_page()
    page.goto(server.base + "/")
    expect(page.get_by_test_id("game-select").locator("option")).to_have_count(2)
    page.get_by_test_id("name-input").fill("Ada")
    page.get_by_test_id("game-select").select_option("baha")
    page.get_by_test_id("players-input").fill("3")
    expect(page.locator("[data-testid^=seat-kind-]")).to_have_count(3)
    expert = rating("baha", "expert")
    assert expert is not None
    option = page.get_by_test_id("seat-kind-1").locator("option[value=expert]")
    # The rating the leaderboard shows for the same bot (one figure), the level in words (no spec).
    expect(option).to_have_text(f"Bot: Expert, rated {expert['ordinal']:.1f}")
    expect(page.get_by_test_id("level-expert")).to_have_text(
        f"Expert: {LEVELS['expert'].about}, rated {expert['ordinal']:.1f} on the Baha ladder, {expert['place']} of "
        f"{expert['places']}")
    expect(page.get_by_test_id("level-beginner")).to_contain_text("Beginner: plays any legal card, at random, rated")
    # another game, other ratings
    page.get_by_test_id("game-select").select_option("baebae")
    bae = rating("baebae", "expert")
    assert bae is not None
    expect(page.get_by_test_id("level-expert")).to_contain_text(f"rated {bae['ordinal']:.1f} on the BAEBAE ladder")
    page.get_by_test_id("game-select").select_option("baha")
    page.get_by_test_id("players-input").fill("3")
    page.get_by_test_id("seat-kind-1").select_option("expert")
    page.get_by_test_id("seat-kind-2").select_option("beginner")
    click_create(page)
    page.wait_for_url(TABLE_URL)
    table_id = TABLE_URL.search(page.url).group(1)  # type: ignore[union-attr]
    summary = server.get(f"/api/tables/{table_id}")
    assert [s["bot"] for s in summary["seats"][1:]] == [LEVELS["expert"].spec, "random"]


def test_the_leaderboard_shows_the_bots_ladder_and_what_it_is_from(
        server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    page = new_context().new_page()
    page.goto(server.base + "/leaderboard?game=baha")
    rows = page.get_by_test_id("bot-row")
    expect(rows.first).to_be_visible()
    top = page.get_by_test_id("bot-board").locator("tbody tr").first
    expect(top).to_contain_text("Expert")
    expect(top).to_contain_text("searches 1000 dealt worlds a move")
    expect(page.get_by_test_id("bots-source")).to_contain_text("not from games with people")
    # The casual level's figure is the lobby's (one figure, one meaning) ...
    casual = rating("baha", "casual")
    assert casual is not None
    expect(rows.filter(has_text="Casual").locator("td").last).to_have_text(f"{casual['ordinal']:.1f}")
    # ... and the page speaks a player's words: the method is in docs/web.md.
    text = page.locator("main").inner_text()
    for jargon in ("mu", "σ", "sigma", "Plackett", "openskill", "cardroom ladder", "ismcts", "iterations="):
        assert not re.search(rf"(?<![\w]){re.escape(jargon)}(?![\w])", text), f"{jargon!r} on the leaderboard: {text}"
