"""Baha between two hands: the hand's result (horns taken, points, a moon, totals) stays on the
table until the player presses Continue, and only then does the next hand's pass show."""

from __future__ import annotations

import time

from browser_support import (
    GAME_S,
    ServeProcess,
    drawn_update,
    hand_cards,
    legal_cards,
    open_table,
    seq,
    wait_seq_above,
    wait_turn_or_over,
)
from playwright.sync_api import BrowserContext, Page, expect


def play_a_hand_by_clicking(page: Page) -> None:
    """Pass the three highest cards, then play the middle legal card every trick, until the
    hand's result shows."""
    end = time.monotonic() + GAME_S
    while True:
        assert time.monotonic() < end, "the hand did not end in time"
        assert wait_turn_or_over(page) == "turn"
        if page.get_by_test_id("hand-result-continue").count():
            return
        if page.get_by_test_id("pass-confirm").count():
            for card in sorted(hand_cards(page), key=lambda c: int(c[:-1]))[-3:]:
                page.get_by_test_id(f"card-{card}").click()
            before = seq(page)
            page.get_by_test_id("pass-confirm").click()
            page.wait_for_function("s => Number(document.body.dataset.seq) >= s + 3", arg=before)
            continue
        legal = legal_cards(page)
        before = seq(page)
        page.get_by_test_id(f"card-{legal[len(legal) // 2]}").click()
        wait_seq_above(page, before)


def test_the_hand_result_waits_for_continue_before_the_next_pass(
        server: ServeProcess, context: BrowserContext) -> None:
    table = server.create(game="baha", name="Ada", seats=["human", "heuristic", "heuristic", "heuristic"])
    page = open_table(context, server, table["id"], table["token"])
    play_a_hand_by_clicking(page)

    score = next(e for u in page.ws_updates for e in u["events"] if e["t"] == "score")  # type: ignore[attr-defined]
    panel = page.get_by_test_id("hand-result")
    expect(panel).to_be_visible()
    expect(panel.locator("h2")).to_have_text("Hand 1 is over")
    rows = panel.locator("tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.nth(0).locator("th")).to_have_text("You")
    for seat in range(4):
        cells = [int(x) for x in rows.nth(seat).locator("td").all_inner_texts()]
        assert cells == [score["horns"][seat], score["points"][seat], score["totals"][seat]], (seat, cells, score)
    moon = page.get_by_test_id("hand-result-moon")
    expect(moon).to_have_count(0 if score["moon"] is None else 1)

    # The next hand's pass is asked of Ada already, but it waits behind Continue.
    update = drawn_update(page)
    assert [m["kind"] for m in update["moves"]] == ["pass"] * 13
    expect(page.get_by_test_id("pass-confirm")).to_have_count(0)
    assert legal_cards(page) == []
    expect(page.get_by_test_id("pending")).to_contain_text("you are asked to choose next")

    page.get_by_test_id("hand-result-continue").click()
    expect(panel).to_have_count(0)
    expect(page.get_by_test_id("pass-confirm")).to_be_visible()
    expect(page.get_by_test_id("pending")).to_contain_text("Choose 3 cards to pass")
    assert len(legal_cards(page)) == 13
    # Seen once: a reload does not show it again.
    page.reload()
    page.wait_for_function("() => Number(document.body.dataset.seq) >= 0")
    expect(page.get_by_test_id("pass-confirm")).to_be_visible()
    expect(page.get_by_test_id("hand-result")).to_have_count(0)
