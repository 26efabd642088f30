"""At the seat: the seat to act says so at the seat, with its turn timer; the dealer's button
sits at the dealer's seat (Baha); the trick before this one is shown, its cards and who took
it, while its button is pressed."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from browser_support import (
    GAME_S,
    ServeProcess,
    axe_violations,
    deal_at_first_turn,
    drawn_update,
    legal_cards,
    open_table,
    seq,
    wait_seq_above,
    wait_turn_or_over,
)
from playwright.sync_api import BrowserContext, expect


def test_the_seat_to_act_shows_its_timer_and_the_dealer_is_marked_at_the_dealers_seat(
        server: ServeProcess, context: BrowserContext) -> None:
    table = server.create(game="baha", players=4, name="Ada", seats=["human"] + ["heuristic"] * 3, timer=90)
    page = open_table(context, server, table["id"], table["token"])
    assert wait_turn_or_over(page) == "turn"
    view = drawn_update(page)["view"]
    # The seat to act (this one) says so at the seat, its timer beside it; no other seat does.
    expect(page.locator("[data-testid^=turn-at-]")).to_have_count(1)
    mark = page.get_by_test_id("seat-0").get_by_test_id("turn-at-0")
    expect(mark).to_contain_text("your turn")
    timer = page.get_by_test_id("seat-0").get_by_test_id("timer-at-0")
    expect(timer).to_have_text(re.compile(r"^(1:[0-3]\d|[1-9]\d?s)$"))
    first = timer.inner_text()
    expect(timer).not_to_have_text(first, timeout=3000)   # it counts down at the seat
    # The dealer: one button, at the dealer's seat.
    dealer = view["dealer"]
    expect(page.locator("[data-testid^=dealer-]")).to_have_count(1)
    expect(page.get_by_test_id(f"seat-{dealer}").get_by_test_id(f"dealer-{dealer}")).to_have_attribute(
        "aria-label", "dealer")
    assert not axe_violations(page), axe_violations(page)


def test_the_last_trick_is_shown_with_its_taker_while_its_button_is_pressed(
        server: ServeProcess, context: BrowserContext) -> None:
    table = server.create(game="baha", players=4, name="Ada", seats=["human"] + ["heuristic"] * 3,
                          rules={"passing": False})
    page = open_table(context, server, table["id"], table["token"])
    button = page.get_by_test_id("last-trick-button")
    expect(button).to_be_hidden()   # no trick taken yet
    page.set_default_timeout(GAME_S * 1000)
    while not button.is_visible():
        assert wait_turn_or_over(page) == "turn"
        if button.is_visible():
            break
        before = seq(page)
        page.locator(f"[data-testid=hand] button[data-card='{legal_cards(page)[0]}']").click()
        wait_seq_above(page, before)
    panel = page.get_by_test_id("last-trick-panel")
    expect(panel).to_be_hidden()
    expect(button).to_have_attribute("aria-expanded", "false")
    button.click()
    expect(panel).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "true")
    last = drawn_update(page)["view"]["last_trick"]
    names = {s["seat"]: s["title"] for s in server.get(f"/api/tables/{table['id']}")["seats"]}
    expect(panel.locator("figure")).to_have_count(4)
    for card in last["cards"]:
        expect(panel.get_by_test_id(f"last-trick-{card}")).to_be_visible()
    expect(panel).to_contain_text(f"{names[last['winner']]} took it.")
    assert not axe_violations(page), axe_violations(page)   # over the felt, still readable
    button.click()
    expect(panel).to_be_hidden()
    expect(button).to_have_attribute("aria-expanded", "false")


IN_VIEW = """(ids) => ids.map((id) => {
  const m = document.querySelector(`[data-testid=${id}]`);
  if (!m) return false;
  const r = m.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (r.width === 0 || y < 0 || y > innerHeight || x < 0 || x > innerWidth) return false;
  const top = document.elementFromPoint(x, y);
  return !!top && m.contains(top);
})"""


@pytest.mark.parametrize(("game", "width", "height"), [("baha", 375, 812), ("baebae", 1024, 768), ("baebae", 375, 812)])
def test_your_turn_s_time_left_is_in_view_where_you_play(
        game: str, width: int, height: int, server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    _, page = deal_at_first_turn(server, new_context(viewport={"width": width, "height": height}), game=game,
                                 players=4, name="Ada", seats=["human"] + ["heuristic"] * 3, timer=90,
                                 **({"deck": "sample"} if game == "baebae" else {}))
    at_seat, at_hand = page.evaluate(IN_VIEW, ["timer-at-0", "timer-at-hand"])
    assert at_seat or at_hand, f"{game} at {width}x{height}: your turn's timer is out of view at your seat and hand"
    expect(page.get_by_test_id("timer-at-hand")).to_contain_text("your turn")
    top, bottom = page.evaluate("""() => { const b = document.querySelector('[data-testid=hand] button.card[data-legal=true], '
      + '[data-testid=moves] button[data-action]:not([disabled])').getBoundingClientRect(); return [b.top, b.bottom]; }""")
    assert top >= 0 and bottom <= height + 1, f"with the timer a move is out of view: {top}..{bottom} of {height}"
