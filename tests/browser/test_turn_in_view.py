"""Everything a turn needs is inside the window, unscrolled, at 1280x800, 1024x768 and a phone's
375x812, for both games: every card of the hand (a Baha hand's second and third rows on a phone,
BAEBAE's big cards at 1280x800), the decision and its buttons; and no page is wider than the
window (the phone lobby with BAEBAE's deck fields included)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from browser_support import (
    ServeProcess,
    deal_at_first_turn,
    hand_cards,
    page_report,
    seq,
    wait_seq_above,
    wait_turn_or_over,
)
from playwright.sync_api import BrowserContext, Page

SIZES = {
    "1280x800": {"viewport": {"width": 1280, "height": 800}},
    "1024x768": {"viewport": {"width": 1024, "height": 768}},
    "375x812": {"viewport": {"width": 375, "height": 812}, "device_scale_factor": 2, "is_mobile": True,
                "has_touch": True},
}
TOLERANCE = 1

OUT_OF_VIEW = """() => {
  const h = window.innerHeight, w = window.innerWidth;
  const needed = [...document.querySelectorAll(
    '[data-testid=hand] button.card, [data-testid=moves] button, [data-testid=pass-confirm], [data-testid=pending], [data-testid=hint]')];
  const out = needed.map((e) => [e.dataset.testid || e.dataset.card, e.getBoundingClientRect()])
    .filter(([, r]) => r.top < -1 || r.bottom > h + 1 || r.left < -1 || r.right > w + 1)
    .map(([name, r]) => `${name} at ${Math.round(r.top)}..${Math.round(r.bottom)} x ${Math.round(r.left)}..${Math.round(r.right)}`);
  return {out, needed: needed.length, scrollY: window.scrollY, width: document.scrollingElement.scrollWidth, w};
}"""


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_the_hand_and_the_turns_controls_are_in_the_window(
        game: str, size: str, server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    _, page = deal_at_first_turn(server, new_context(**SIZES[size]), game=game, name="Ada",
                                 seats=["human", "heuristic", "heuristic", "heuristic"])
    check_in_view(page, f"{game} at {size}")
    if page.get_by_test_id("pass-confirm").count():
        # Baha: the pass, then a turn in a trick, cards on the table (the middle at its tallest).
        for card in hand_cards(page)[-3:]:
            page.get_by_test_id(f"card-{card}").click()
        before = seq(page)
        page.get_by_test_id("pass-confirm").click()
        wait_seq_above(page, before)
        page.wait_for_function("() => !document.querySelector('[data-testid=pass-confirm]')")
        assert wait_turn_or_over(page) == "turn", page_report(page)
        check_in_view(page, f"{game} at {size}, in a trick")


def check_in_view(page: Page, where: str) -> None:
    page.wait_for_timeout(200)
    page.evaluate("() => window.scrollTo(0, 0)")
    seen = page.evaluate(OUT_OF_VIEW)
    assert seen["needed"] >= 5, seen
    assert not seen["out"], f"{where}: out of the window: {seen['out']}"
    assert seen["width"] <= seen["w"], f"{where}: the page is {seen['width']} px wide"


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_the_phone_lobby_is_no_wider_than_the_phone(game: str, server: ServeProcess,
                                                   new_context: Callable[..., BrowserContext]) -> None:
    page = new_context(**SIZES["375x812"]).new_page()
    page.goto(server.base + "/")
    page.get_by_test_id("game-select").select_option(game)
    if game == "baebae":
        page.get_by_test_id("deck-select").select_option("__upload__")
    page.wait_for_timeout(200)
    widths = page.evaluate("""() => ({page: document.scrollingElement.scrollWidth, w: window.innerWidth,
      panels: [...document.querySelectorAll('.panel')].map((p) => Math.round(p.getBoundingClientRect().right))})""")
    assert widths["page"] <= widths["w"], widths
    assert max(widths["panels"]) <= widths["w"] + TOLERANCE, widths
