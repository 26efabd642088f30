"""The table on a phone (no sideways scrolling, the hand in view) and the replay of a finished
game, stepped with the buttons and the keyboard."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from browser_support import ServeProcess, deal_at_first_turn, overflow_x
from playwright.sync_api import BrowserContext, Page, expect

PHONE = {"viewport": {"width": 375, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
TOLERANCE = 2   # px: rounding of sub-pixel widths


def assert_fits(page: Page, width: int) -> None:
    scroll = overflow_x(page)
    assert scroll <= width + TOLERANCE, f"the page is {scroll} px wide on a {width} px screen"


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_phone_layout_has_no_sideways_scroll_and_shows_the_hand(
        game: str, server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    _, page = deal_at_first_turn(server, new_context(**PHONE), game=game, name="Pia",
                                 seats=["human", "heuristic", "heuristic", "heuristic"],
                                 rules={"target": 1} if game == "baha" else {"rounds": 1})
    hand = page.get_by_test_id("hand")
    count = int(hand.get_attribute("data-count") or "0")
    assert count == 13 if game == "baha" else count >= 1
    assert_fits(page, 375)
    hand.scroll_into_view_if_needed()
    expect(hand).to_be_in_viewport()
    cards = hand.locator("button.card")
    for i in range(count):
        card = cards.nth(i)
        expect(card).to_be_visible()
        box = card.bounding_box()
        assert box is not None and box["width"] >= 24, f"card {i} is {box} on a phone"
        assert box["x"] >= -TOLERANCE and box["x"] + box["width"] <= 375 + TOLERANCE, f"card {i} is cut off: {box}"
    # The decision, the seats and the score table fit as well, with the game over too.
    expect(page.get_by_test_id("decision")).to_be_visible()
    # (the seats' plates lie in the ring around the table's middle: the seats box is no box)
    for k in ("ring", "decision", "scores", *(f"seat-{i}" for i in range(4))):
        box = page.get_by_test_id(k).bounding_box()
        assert box is not None and box["x"] + box["width"] <= 375 + TOLERANCE, f"{k} is {box}"
    # The lobby too.
    page.goto(server.base + "/")
    expect(page.get_by_test_id("create-button")).to_be_visible()
    assert_fits(page, 375)


def test_the_replay_of_a_finished_game_opens_and_steps(server: ServeProcess, context: BrowserContext) -> None:
    table = server.create(game="baha", rules={"target": 1}, seats=["heuristic"] * 4)
    server.wait_status(table["id"], "over")
    steps = server.get(f"/api/tables/{table['id']}/replay?seat=all")["steps"]
    n = len(steps)
    # The deal, then per hand 12 pass picks and 52 plays (a tie for lowest plays another hand).
    assert (n - 1) % 64 == 0, n
    assert [s["action"].split()[0] for s in steps[1:65]] == ["pass"] * 12 + ["play"] * 52

    page = context.new_page()
    page.goto(f"{server.base}/replay/{table['id']}")
    expect(page.locator("body")).to_have_attribute("data-step", "0")
    expect(page.get_by_test_id("replay-step")).to_have_text(f"Step 1 of {n}")
    expect(page.get_by_test_id("replay-action")).to_have_text("The deal")
    expect(page.get_by_test_id("replay-prev")).to_be_disabled()
    expect(page.get_by_test_id("replay-hands").locator("[data-testid^=replay-hand-]")).to_have_count(4)
    for s in range(4):
        expect(page.get_by_test_id(f"replay-hand-{s}").locator("[data-card]")).to_have_count(13)

    # Forward one step with the button: the first pass pick, by name.
    page.get_by_test_id("replay-next").click()
    expect(page.locator("body")).to_have_attribute("data-step", "1")
    expect(page.get_by_test_id("replay-step")).to_have_text(f"Step 2 of {n}")
    first = steps[1]
    # In the words the page uses for cards ("pass 13 Red", not "pass 13R").
    expect(page.get_by_test_id("replay-action")).to_have_text(f"Heuristic {first['seat']}: {baha_words(first['action'])}")
    # The arrow keys, then End: the last step shows the result.
    page.keyboard.press("ArrowRight")
    expect(page.locator("body")).to_have_attribute("data-step", "2")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("body")).to_have_attribute("data-step", "1")
    page.keyboard.press("End")
    expect(page.locator("body")).to_have_attribute("data-step", str(n - 1))
    expect(page.get_by_test_id("replay-next")).to_be_disabled()
    expect(page.get_by_test_id("standings")).to_be_visible()
    expect(page.get_by_test_id("standings").locator("li")).to_have_count(4)
    expect(page.get_by_test_id("turn-indicator")).to_contain_text("Game over")
    expect(page.get_by_test_id("scores").locator("tbody tr").first.locator("th")).to_have_text("1")
    page.get_by_test_id("replay-prev").click()
    expect(page.locator("body")).to_have_attribute("data-step", str(n - 2))
    expect(page.get_by_test_id("replay-action")).to_contain_text(f": {baha_words(steps[n - 2]['action'])}")
    # The slider jumps; seen by seat 1, the other seats' pass picks are hidden.
    page.get_by_test_id("replay-seat").select_option("0")
    expect(page).to_have_url(re.compile(r"[?&]seat=0"))
    page.get_by_test_id("replay-first").click()
    expect(page.locator("body")).to_have_attribute("data-step", "0")
    expect(page.get_by_test_id("replay-hands")).to_be_hidden()
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(13)
    seat0 = server.get(f"/api/tables/{table['id']}/replay?seat=0")["steps"]
    hidden = next(i for i, s in enumerate(seat0) if s["seat"] not in (None, 0) and s["action"] == "?")
    page.get_by_test_id("replay-slider").fill(str(hidden))
    expect(page.locator("body")).to_have_attribute("data-step", str(hidden))
    expect(page.get_by_test_id("replay-action")).to_have_text(f"Heuristic {seat0[hidden]['seat']}: a hidden choice")
    expect(page.get_by_test_id("record-link")).to_have_attribute("href", f"/api/tables/{table['id']}/record")


def baha_words(action: str) -> str:
    """A Baha action as the page says it: "play 9P" is "play 9 Purple"."""
    verb, card = action.split()
    colours = {"P": "Purple", "R": "Red", "T": "Turquoise", "O": "Orange"}
    return f"{verb} {card[:-1]} {colours[card[-1]]}"


def test_the_replay_of_a_baebae_game(server: ServeProcess, context: BrowserContext) -> None:
    table = server.create(game="baebae", rules={"rounds": 1}, seats=["heuristic"] * 3)
    server.wait_status(table["id"], "over")
    steps = server.get(f"/api/tables/{table['id']}/replay")["steps"]
    n = len(steps)
    # A card in an action is written as the page draws it: its rank and suit symbol ("A♥").
    k, play = next((i, s) for i, s in enumerate(steps) if s["action"] and s["action"].startswith("play "))
    page = context.new_page()
    page.goto(f"{server.base}/replay/{table['id']}?step={k}")
    expect(page.locator("body")).to_have_attribute("data-step", str(k))
    card = play["action"].split()[1]
    symbol = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}[card[-1]]
    expect(page.get_by_test_id("replay-action")).to_contain_text(f"play {card[:-1]}{symbol}")  # as its corner prints it
    expect(page.get_by_test_id("replay-action")).not_to_contain_text(play["action"])
    page.close()
    page = context.new_page()
    page.goto(f"{server.base}/replay/{table['id']}?step=1")
    expect(page.locator("body")).to_have_attribute("data-step", "1")
    expect(page.get_by_test_id("discard-top")).to_be_visible()
    expect(page.get_by_test_id("replay-hands").locator("[data-testid^=replay-hand-]")).to_have_count(3)
    page.get_by_test_id("replay-last").click()
    expect(page.locator("body")).to_have_attribute("data-step", str(n - 1))
    expect(page.get_by_test_id("standings").locator("li")).to_have_count(3)
    expect(page.get_by_test_id("log").locator("li[data-t=round_end]")).to_have_count(1)
