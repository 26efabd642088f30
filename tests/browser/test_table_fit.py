"""The table fits its window: the score table's columns inside their panel, Baha's pass with
chosen cards raised but never over the row above, the hand above the fold at 1280x800, Baha's
line of what was passed and received whole and uncovered at 1280x800, 1024x768 and a phone's
375x812; and the hand's `has-moves` mark follows a decision answered by a button."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from browser_support import ServeProcess, hand_cards, open_table, wait_turn_or_over
from playwright.sync_api import BrowserContext, Page, expect

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 375, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
SIZES = {
    "1280x800": {"viewport": {"width": 1280, "height": 800}},
    "1024x768": {"viewport": {"width": 1024, "height": 768}},
    "375x812": {"viewport": {"width": 375, "height": 812}, "device_scale_factor": 2, "is_mobile": True,
                "has_touch": True},
}
TOLERANCE = 1   # px: rounding of sub-pixel boxes

SCORE_CELLS = """() => {
  const panel = document.querySelector('[data-testid=scores]');
  const box = panel.getBoundingClientRect();
  const style = getComputedStyle(panel);
  const inner = box.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
  const cells = [...panel.querySelectorAll('th, td')].map((c) => c.getBoundingClientRect().right);
  return {inner, right: Math.max(...cells), columns: panel.querySelectorAll('thead th').length};
}"""

CARD_BOXES = """() => [...document.querySelectorAll('[data-testid=hand] button.card')].map((b) => {
  const r = b.getBoundingClientRect();
  return {card: b.dataset.card, row: b.offsetTop, top: r.top, bottom: r.bottom,
          raised: b.getAttribute('aria-pressed') === 'true'};
})"""


def choose_last_three(page: Page) -> list[str]:
    """Choose the last three cards of the hand to pass (on a phone, the second row's)."""
    chosen = hand_cards(page)[-3:]
    for card in chosen:
        page.get_by_test_id(f"card-{card}").click()
        expect(page.get_by_test_id(f"card-{card}")).to_have_attribute("aria-pressed", "true")
    page.wait_for_timeout(300)  # the raise is a 0.12 s transition
    return chosen


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_baha_pass_keeps_raised_cards_off_the_row_above_and_the_scores_in_their_panel(
        size: str, server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    table = server.create(game="baha", name="Ada", seats=["human", "heuristic", "heuristic", "heuristic"])
    page = open_table(new_context(**(DESKTOP if size == "desktop" else PHONE)), server, table["id"], table["token"])
    assert wait_turn_or_over(page) == "turn"
    expect(page.get_by_test_id("pass-confirm")).to_be_visible()
    choose_last_three(page)
    boxes = page.evaluate(CARD_BOXES)
    assert len(boxes) == 13 and sum(b["raised"] for b in boxes) == 3
    rows = sorted({b["row"] for b in boxes})
    for b in boxes:
        above = [a for a in boxes if a["row"] < b["row"]]
        for a in above:
            assert b["top"] >= a["bottom"] - TOLERANCE, f"{b['card']} ({b}) covers {a['card']} ({a})"
    if size == "desktop":
        assert len(rows) == 1, f"a hand of 13 fits one row at 1280 px, not {len(rows)}"
        # The whole hand is above the fold, the page not scrolled.
        assert page.evaluate("() => window.scrollY") == 0
        hand = page.get_by_test_id("hand").bounding_box()
        assert hand is not None and hand["y"] + hand["height"] <= 800, f"the hand ends at {hand}"
    else:
        assert len(rows) >= 2, "on a phone the hand wraps (this test raises cards of its second row)"
    cells = page.evaluate(SCORE_CELLS)
    assert cells["columns"] == 5
    assert cells["right"] <= cells["inner"] + TOLERANCE, f"the score table is cut: {cells}"


def test_six_players_scores_fit_at_1280(server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    table = server.create(game="baha", name="Ada with a long name", seats=["human"] + ["heuristic"] * 5)
    page = open_table(new_context(**DESKTOP), server, table["id"], table["token"])
    assert wait_turn_or_over(page) == "turn"
    cells = page.evaluate(SCORE_CELLS)
    assert cells["columns"] == 7
    assert cells["right"] <= cells["inner"] + TOLERANCE, f"the score table is cut: {cells}"
    # Every player's name is shown whole (wrapped, not cut to "Heur..."): the bots differ by number.
    heads = page.evaluate("""() => [...document.querySelectorAll('[data-testid=scores] thead th')].map((th) =>
      ({text: th.textContent, cut: th.scrollWidth > th.clientWidth + 1 || th.scrollHeight > th.clientHeight + 1}))""")
    assert [h["text"] for h in heads][1:] == ["Ada with a long name"] + [f"Heuristic {s}" for s in range(1, 6)]
    assert not [h for h in heads if h["cut"]], heads


PASS_INFO_SEEN = """(scrolled) => {
  const e = document.querySelector('[data-testid=pass-info]');
  if (scrolled) e.scrollIntoView({block: 'center'}); else window.scrollTo(0, 0);
  const range = document.createRange();
  range.selectNodeContents(e);
  const w = innerWidth, h = innerHeight;
  // Each line of its text, at its two ends and its middle: the topmost element there is the line.
  const hidden = [];
  const lines = [...range.getClientRects()].filter((r) => r.width >= 1);
  for (const r of lines) {
    const y = (r.top + r.bottom) / 2;
    for (const x of [r.left + 2, (r.left + r.right) / 2, r.right - 2]) {
      const top = document.elementFromPoint(x, y);
      if (!top || !e.contains(top)) hidden.push(`${Math.round(x)},${Math.round(y)} under ${top ? top.getAttribute("class") || top.tagName : 'nothing (out of the window)'}`);
    }
  }
  const b = e.getBoundingClientRect();
  return {text: e.textContent, overflow: e.scrollWidth - e.clientWidth, lines: lines.length, hidden,
          box: [b.left, b.top, b.right, b.bottom].map(Math.round), w, h};
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_baha_s_line_of_what_was_passed_is_whole_and_uncovered(
        size: str, server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    """After the pass, "You passed ... You received ..." wraps inside the table and nothing
    covers it (the hand and decision stick to the window's bottom): where the middle of the
    table is in the window unscrolled (1280x800, 1024x768) it is there too, and at every size
    it is whole once scrolled to."""
    table = server.create(game="baha", name="Ada", seats=["human", "heuristic", "heuristic", "heuristic"])
    # No card motion: a card flying past would be over the line for a moment.
    page = open_table(new_context(**SIZES[size], reduced_motion="reduce"), server, table["id"], table["token"])
    assert wait_turn_or_over(page) == "turn"
    choose_last_three(page)
    page.get_by_test_id("pass-confirm").click()
    expect(page.get_by_test_id("pass-info")).to_contain_text("received")
    assert wait_turn_or_over(page) == "turn"
    for scrolled in ([False, True] if size != "375x812" else [True]):
        seen = page.evaluate(PASS_INFO_SEEN, scrolled)
        where = f"at {size}, {'scrolled to' if scrolled else 'unscrolled'}: {seen}"
        assert "You passed" in seen["text"] and seen["lines"] >= 2, where
        assert seen["overflow"] <= 0, f"the line is wider than its box {where}"
        left, top, right, bottom = seen["box"]
        assert left >= 0 and top >= 0 and right <= seen["w"] and bottom <= seen["h"], f"out of the window {where}"
        assert not seen["hidden"], f"covered {where}"


HAS_MOVES_AFTER_A_BUTTON = """async () => {
  const { TableView } = await import('/static/render.js');
  await (await import('/static/common.js')).loadGames();  // the renderers the views are drawn with
  const els = {};
  for (const k of ['seats', 'center', 'turn', 'decision', 'hand', 'scores', 'standings', 'log']) {
    els[k] = document.createElement(k === 'log' ? 'ol' : 'div');
    document.body.append(els[k]);
  }
  const view = new TableView(els);
  const table = {id: 't', game: 'baebae', seats: [0, 1].map((s) => ({seat: s, kind: 'human', name: `P${s}`}))};
  const base = {game: 'baebae', seat: 0, players: 2, hand: ['6C', '7D'], hand_sizes: [2, 3],
                totals: [0, 0], phase: 'play', discard: ['8H'], suit: 'H', direction: 1, round: 1};
  const state = (view_, moves) => ({view: view_, moves, table, events: [], seat: 0, spectator: false, seq: 1});
  // Asked to name a suit (a button decision: no card in hand is playable) ...
  const asked = {...base, current_player: 0,
                 pending: {kind: 'declare', seat: 0, text: 'name a suit', card: '8H'}};
  view.render(state(asked, ['C', 'D', 'H', 'S'].map((s, i) => ({action: 100 + i, text: `declare ${s}`, kind: 'declare', suit: s}))));
  const before = els.hand.classList.contains('has-moves');
  // ... answered: the same hand, no moves now.
  view.render(state({...base, current_player: 1, suit: 'S', declared: true}, []));
  return {before, after: els.hand.classList.contains('has-moves'), cards: els.hand.querySelectorAll('button.card').length};
}"""


def test_has_moves_is_cleared_after_a_decision_answered_by_a_button(server: ServeProcess, page: Page) -> None:
    page.goto(f"{server.base}/static/style.css")  # any page of the server: the module is imported there
    result = page.evaluate(HAS_MOVES_AFTER_A_BUTTON)
    assert result == {"before": True, "after": False, "cards": 2}
