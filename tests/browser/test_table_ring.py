"""The table as a table: the reader's seat at the bottom, the others left, top and right in the
order of play, the middle between them, at 1280x800, 1024x768 and 375x812 for both games and
2 to 6 seats, a turn playable without scrolling; cards move in from their seat and a trick goes
to its taker, and nothing moves under prefers-reduced-motion or with the page's setting off."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from browser_support import ServeProcess, deal_at_first_turn, open_table
from playwright.sync_api import BrowserContext, Page, expect

SIZES = [(1280, 800), (1024, 768), (375, 812)]
TOLERANCE = 1

GEOMETRY = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2,
                                                                  left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const seats = [...document.querySelectorAll('[data-testid^=seat-]')].map((s) => ({
    seat: Number(s.dataset.testid.slice(5)), pos: s.dataset.pos, turn: s.dataset.turn === 'true', ...box(s)}));
  const playable = document.querySelector('[data-testid=hand] button.card[data-legal=true], [data-testid=moves] button[data-action]:not([disabled])');
  return {seats, center: box(document.querySelector('[data-testid=center]')), playable: playable ? box(playable) : null,
          scrollY: window.scrollY, width: document.scrollingElement.scrollWidth};
}"""


def check_ring(page: Page, n: int, width: int, height: int) -> None:
    g: dict[str, Any] = page.evaluate(GEOMETRY)
    assert g["width"] <= width + TOLERANCE, f"the page scrolls sideways at {width}: {g['width']}"
    assert g["scrollY"] == 0
    p = g["playable"]
    assert p is not None and p["top"] >= 0 and p["bottom"] <= height + TOLERANCE, f"a move is out of view: {p}"
    seats = {s["seat"]: s for s in g["seats"]}
    assert len(seats) == n and seats[0]["pos"] == "bottom"
    c = g["center"]
    assert seats[0]["y"] > c["y"], "the reader's seat is below the table's middle"
    for s in seats.values():
        if s["seat"] == 0:
            continue
        assert s["y"] < seats[0]["y"], f"seat {s['seat']} ({s['pos']}) is above the reader's"
        if width >= 1024:
            if s["pos"] == "left":
                assert s["right"] <= c["x"] and s["x"] < c["x"], s
            elif s["pos"] == "right":
                assert s["left"] >= c["x"] and s["x"] > c["x"], s
            else:
                assert s["pos"] in ("top", "top-left", "top-right") and s["y"] < c["y"], s
        else:
            assert s["bottom"] <= c["top"] + TOLERANCE, f"on a phone the others sit above the middle: {s}"
    assert [s["seat"] for s in seats.values() if s["turn"]] == [0]


@pytest.mark.parametrize(("game", "n"), [
    ("baha", 2), ("baha", 3), ("baha", 4), ("baha", 6), ("baebae", 2), ("baebae", 4), ("baebae", 6),
])
def test_seats_sit_around_the_table_at_three_sizes(
        game: str, n: int, server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    _, page = deal_at_first_turn(server, new_context(), game=game, players=n, name="Ada",
                                 seats=["human"] + ["heuristic"] * (n - 1),
                                 **({"deck": "sample"} if game == "baebae" else {}))
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(50)
        check_ring(page, n, width, height)
    # In the order of play from the reader: the next seat on its left, the last on its right.
    positions = page.eval_on_selector_all("[data-testid^=seat-]", "ss => ss.map((s) => s.dataset.pos)")
    assert positions[0] == "bottom" and positions[1] == ("top" if n == 2 else "left")
    if n > 2:
        assert positions[-1] == "right"
    assert len(set(positions)) == n, positions


MOTION = """async () => {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = '/static/style.css';
  await new Promise((done) => { link.onload = done; document.head.append(link); });
  const common = await import('/static/common.js');
  await common.loadGames();
  const { TableView } = await import('/static/render.js');
  const els = {};
  for (const k of ['seats', 'center', 'turn', 'decision', 'hand', 'scores', 'standings', 'log', 'lastTrick', 'lastTrickPanel']) {
    els[k] = document.createElement(k === 'log' ? 'ol' : 'div');
    document.body.append(els[k]);
  }
  const tv = new TableView(els);
  const table = {id: 't', game: 'baha', status: 'running', seats: [0, 1, 2, 3].map((s) => ({seat: s, kind: 'human', name: `P${s}`, title: `P${s}`}))};
  const base = {game: 'baha', seat: 0, players: 4, hand: ['2P'], hand_sizes: [1, 1, 1, 1], totals: [0, 0, 0, 0],
                phase: 'play', hand_number: 1, current_player: 1, trick: [], tricks_done: 0};
  const show = (view) => tv.render({view, moves: [], table, events: [], seat: 0, spectator: false, seq: 1});
  show(base);
  show({...base, trick: [{p: 2, card: '5P'}]});
  const card = els.center.querySelector('[data-seat="2"]');
  const arriving = {cls: card.className, animation: getComputedStyle(card).animationName};
  show({...base, trick: [{p: 2, card: '5P'}, {p: 3, card: '6P'}, {p: 0, card: '7P'}, {p: 1, card: '8P'}]});
  show({...base, trick: [], tricks_done: 1, last_trick: {leader: 2, winner: 3, cards: ['5P', '6P', '7P', '8P']}});
  const taking = els.center.querySelector('[data-testid=taking]');
  return {arriving, taking: taking ? {cls: taking.className, cards: taking.querySelectorAll('[data-seat]').length,
                                      animation: getComputedStyle(taking).animationName} : null};
}"""


def test_a_card_comes_from_its_seat_and_the_trick_goes_to_its_taker(server: ServeProcess, page: Page) -> None:
    page.goto(f"{server.base}/static/cards.js")  # any page of the server: the modules are imported there
    moved = page.evaluate(MOTION)
    assert "arriving" in moved["arriving"]["cls"] and "from-top" in moved["arriving"]["cls"], moved
    assert moved["arriving"]["animation"] == "arrive"
    assert moved["taking"] is not None and "to-right" in moved["taking"]["cls"], moved  # seat 3 sits right
    assert moved["taking"]["cards"] == 4 and moved["taking"]["animation"] == "take"


def test_nothing_moves_under_reduced_motion(server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    page = new_context(reduced_motion="reduce").new_page()
    page.goto(f"{server.base}/static/cards.js")
    moved = page.evaluate(MOTION)
    assert "arriving" not in moved["arriving"]["cls"] and moved["arriving"]["animation"] == "none", moved
    assert moved["taking"] is None


def test_the_page_s_setting_turns_motion_off(server: ServeProcess, context: BrowserContext) -> None:
    table = server.create(game="baha", players=4, rules={"target": 1}, name="Mo",
                          seats=["human", "heuristic", "heuristic", "heuristic"])
    page = open_table(context, server, table["id"], table["token"])
    toggle = page.get_by_test_id("motion-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.goto(f"{server.base}/static/cards.js")  # the setting is kept in this browser
    page.evaluate("() => { document.documentElement.dataset.motion = localStorage.getItem('cardroom.motion'); }")
    moved = page.evaluate(MOTION)
    assert "arriving" not in moved["arriving"]["cls"] and moved["taking"] is None, moved
