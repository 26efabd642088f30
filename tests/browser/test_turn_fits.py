"""What a turn needs is in the window at once, unscrolled, and nothing covers anything: at
375x812, 390x844, 1024x768 and 1280x800, for both games at 2, 4 and 6 seats, every seat's plate
(one's own among them), the middle (Baha's trick as full as it gets, with the line of what was
passed; BAEBAE's stockpile, discard pile and suit in play), the decision and every card of the
hand, at Baha's pass, a turn to play a card and a BAEBAE question answered with buttons; and,
once a deal ends, its result panel with the decision's Continue and the next hand.
At a desktop's sizes a first game's walkthrough is shown too, beside the table.
Checked by the boxes the page lays out, on moments of real games staged on one page per size
(staged_table.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import ServeProcess
from playwright.sync_api import Browser
from staged_table import StagedGame, StagedPage, stage

SIZES = {
    "375x812": {"viewport": {"width": 375, "height": 812}, "is_mobile": True, "has_touch": True},
    "390x844": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "1024x768": {"viewport": {"width": 1024, "height": 768}},
    "1280x800": {"viewport": {"width": 1280, "height": 800}},
}
TABLES = [(game, n) for game in ("baha", "baebae") for n in (2, 4, 6)]

PLAY = ["[data-testid=walkthrough]", "[data-testid^=seat-]", "[data-testid=trick] figure", "[data-testid=pass-info]",
        "[data-testid=led]", "[data-testid=stock]", "[data-testid=discard]", "[data-testid=suit-in-play]",
        "[data-testid=decision]", "[data-testid=moves] button", "[data-testid=hand]", "[data-testid=hand] button.card"]
NEEDED = {
    "pass": PLAY, "turn": PLAY, "ask": PLAY,
    "result": ["[data-testid=walkthrough]", "[data-testid^=seat-]", "[data-testid=hand-result]", "[data-testid=decision]",
               "[data-testid=hand-result-continue]", "[data-testid=hand]", "[data-testid=hand] button.card"],
}
"""What each moment needs in view (a selector that finds nothing is not there at that moment)."""
MUST = {
    ("baha", "pass"): ["pass-confirm", "card-"], ("baha", "turn"): ["trick-card", "card-"],
    ("baebae", "turn"): ["stock", "discard", "suit-in-play", "card-"],
    ("baebae", "ask"): ["stock", "discard", "suit-in-play", "move-declare-", "card-"],
    ("baha", "result"): ["hand-result", "hand-result-continue", "card-"],
    ("baebae", "result"): ["hand-result", "hand-result-continue", "card-"],
}
"""What each moment shows at least, besides every seat and the decision."""

LAID_OUT = """(selectors) => {
  window.scrollTo(0, 0);
  const w = innerWidth, h = innerHeight;
  const name = (e) => e.dataset.testid || e.dataset.card || e.className;
  const found = [];
  for (const sel of selectors) {
    for (const e of document.querySelectorAll(sel)) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;  // not shown (hidden, empty)
      found.push({e, sel, name: name(e), r});
    }
  }
  const cut = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
  const out = found.filter(({r}) => r.top < -1 || r.left < -1 || r.bottom > h + 1 || r.right > w + 1)
    .map((b) => `${b.name} at ${cut(b.r)}`);
  const over = [];
  for (let i = 0; i < found.length; i++) {
    for (let j = i + 1; j < found.length; j++) {
      const a = found[i], b = found[j];
      if (a.e.contains(b.e) || b.e.contains(a.e)) continue;
      const x = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const y = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (x > 1 && y > 1) over.push(`${a.name} (${cut(a.r)}) and ${b.name} (${cut(b.r)})`);
    }
  }
  return {out, over, count: found.length, names: found.map((b) => b.name), scrollY: window.scrollY,
          width: document.scrollingElement.scrollWidth, w};
}"""


@pytest.fixture(scope="module")
def staged() -> dict[tuple[str, int], StagedGame]:
    return {(game, n): stage(game, n) for game, n in TABLES}


@pytest.fixture(params=list(SIZES))
def sized(request: pytest.FixtureRequest, browser: Browser, server: ServeProcess) -> Iterator[tuple[str, StagedPage]]:
    context = browser.new_context(**SIZES[request.param], reduced_motion="reduce")
    if SIZES[request.param].get("is_mobile"):
        # A phone reads a first game's walkthrough above the table, once: these moments come after.
        # (At a desktop's size it stands beside the table, and is checked with the rest.)
        context.add_init_script("for (const g of ['baha', 'baebae']) localStorage.setItem(`cardroom.walkthrough.${g}`, 'done')")
    try:
        yield request.param, StagedPage(context, server.base)
    finally:
        context.close()


def check(page: Any, moment: str, where: str) -> dict[str, Any]:
    seen = page.evaluate(LAID_OUT, NEEDED[moment])
    assert seen["scrollY"] == 0 and seen["width"] <= seen["w"], f"{where}: {seen}"
    assert not seen["out"], f"{where}: out of the window: {seen['out']}"
    assert not seen["over"], f"{where}: covered: {seen['over']}"
    return seen


def test_a_turn_and_a_result_are_in_the_window_with_nothing_covered(
        sized: tuple[str, StagedPage], staged: dict[tuple[str, int], StagedGame], server: ServeProcess) -> None:
    size, staging = sized
    # A table of people who never come: its page is served, and the staged game drawn on it.
    page_of = server.create(game="baha", players=2, seats=["human", "human"])["id"]
    desktop = not SIZES[size].get("is_mobile")
    for (game, n), table in staged.items():
        for moment, page in staging.moments(page_of, table):
            where = f"{game} at {n} seats, {size}, {moment}"
            seen = check(page, moment, where)
            must = [f"seat-{s}" for s in range(n)] + ["decision"] + MUST[(game, moment)] + (["walkthrough"] if desktop else [])
            for part in must:
                assert any(name.startswith(part) for name in seen["names"]), f"{where}: no {part} in {seen['names']}"
