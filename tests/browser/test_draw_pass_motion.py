"""Cards move for a draw from the stockpile (BAEBAE: from the stock to the drawer's seat) and
for a pass between seats (Baha: from the passer's seat toward the receiver's); a card shows its
face only to a seat that knows it, and nothing moves under prefers-reduced-motion or with the
page's motion setting off."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from browser_support import ServeProcess, open_table, seq, wait_seq_above, wait_turn_or_over
from playwright.sync_api import BrowserContext, Page, expect

FLY = """async ([game, view, events, seat, spectator, motion]) => {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = '/static/style.css';
  await new Promise((done) => { link.onload = done; document.head.append(link); });
  const common = await import('/static/common.js');
  await common.loadGames();
  const { TableView } = await import('/static/render.js');
  if (motion) document.documentElement.dataset.motion = motion;
  const els = {};
  for (const k of ['seats', 'center', 'turn', 'decision', 'hand', 'scores', 'standings', 'log', 'lastTrick', 'lastTrickPanel']) {
    els[k] = document.createElement(k === 'log' ? 'ol' : 'div');
    document.body.append(els[k]);
  }
  const tv = new TableView(els);
  const n = view.players;
  const table = {id: 't', game, status: 'running', seats: [...Array(n).keys()].map((s) => ({seat: s, kind: 'human', name: `P${s}`, title: `P${s}`}))};
  const show = (evs) => tv.render({view, moves: [], table, events: evs, seat, spectator, seq: 1});
  const flying = () => [...document.querySelectorAll('[data-testid=flying]')];
  show(events.slice(0, 1));          // the page's first drawing: what it is sent then does not move
  const first = flying().length;
  show(events);                      // the events new since: their cards move
  const centre = (el) => { const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
  const place = (w) => w === 'stock' ? document.querySelector('[data-testid=stock]') : document.querySelector(`[data-testid="seat-${w}"]`);
  const moved = flying().map((f) => {
    const [fx, fy] = centre(place(f.dataset.from));
    const [tx, ty] = centre(place(f.dataset.to));
    return {kind: f.dataset.kind, from: f.dataset.from, to: f.dataset.to,
            cards: [...f.querySelectorAll('[data-card]')].map((c) => c.dataset.card),
            off: [fx + Number(f.dataset.dx) - tx, fy + Number(f.dataset.dy) - ty],
            animations: f.getAnimations().length, shown: getComputedStyle(f).display !== 'none'};
  });
  const count = flying().length;
  show(events);                      // the same log again (a reconnect): nothing more moves
  return {first, moved, again: flying().length - count};
}"""

BAEBAE = {"game": "baebae", "seat": 0, "players": 3, "hand": ["6C", "7D"], "hand_sizes": [2, 3, 4], "totals": [0, 0, 0],
          "phase": "play", "discard": ["8H"], "suit": "H", "direction": 1, "round": 1, "rules": {"rounds": 1},
          "round_penalties": [0, 0, 0], "current_player": 0, "stock_count": 20}
DRAWS = [{"t": "play", "p": 2, "card": "8H"},
         {"t": "draw", "p": 1, "card": "?", "forced": False},
         {"t": "draw", "p": 0, "card": "7S", "forced": True},
         {"t": "draw", "p": 2, "card": "9H", "forced": True}]   # a face this seat may not see: never shown
BAHA = {"game": "baha", "seat": 0, "players": 4, "hand": ["2P"], "hand_sizes": [13, 13, 13, 13], "totals": [0] * 4,
        "phase": "play", "hand_number": 1, "current_player": 1, "trick": [], "tricks_done": 0}
PASSES = [{"t": "hand", "n": 1, "dealer": 3, "pass": "right"},
          {"t": "pass", "from": 0, "to": 1, "cards": ["9P", "12R", "12T"]},
          {"t": "pass", "from": 1, "to": 2, "cards": ["?", "?", "?"]},
          {"t": "pass", "from": 2, "to": 3, "cards": ["5P", "6P", "7P"]},   # between two others: never shown
          {"t": "pass", "from": 3, "to": 0, "cards": ["8T", "9T", "7O"]}]


def fly(page: Page, server: ServeProcess, game: str, view: dict[str, Any], events: list[dict[str, Any]],
        seat: int | None = 0, spectator: bool = False, motion: str | None = None) -> dict[str, Any]:
    page.goto(f"{server.base}/static/cards.js")  # any page of the server: the modules are imported there
    return page.evaluate(FLY, [game, view, events, seat, spectator, motion])  # type: ignore[no-any-return]


def assert_lands(moved: list[dict[str, Any]]) -> None:
    for m in moved:
        assert all(abs(d) <= 2 for d in m["off"]), f"the cards do not go where they should: {m}"
        assert m["animations"] == 1 and m["shown"], m


def test_a_draw_goes_from_the_stockpile_to_the_drawer_face_down_but_for_ones_own(
        server: ServeProcess, page: Page) -> None:
    shown = fly(page, server, "baebae", BAEBAE, DRAWS)
    assert shown["first"] == 0 and shown["again"] == 0, shown
    moved = shown["moved"]
    assert [(m["kind"], m["from"], m["to"], m["cards"]) for m in moved] == [
        ("draw", "stock", "1", ["?"]), ("draw", "stock", "0", ["7S"]), ("draw", "stock", "2", ["?"])]
    assert_lands(moved)
    watched = fly(page, server, "baebae", BAEBAE, DRAWS, seat=None, spectator=True)["moved"]
    assert [m["cards"] for m in watched] == [["?"]] * 3   # a spectator sees no drawn card's face


def test_a_pass_goes_toward_the_receiver_and_shows_only_the_cards_this_seat_knows(
        server: ServeProcess, page: Page) -> None:
    shown = fly(page, server, "baha", BAHA, PASSES)
    assert shown["first"] == 0 and shown["again"] == 0, shown
    moved = shown["moved"]
    assert [(m["kind"], m["from"], m["to"], m["cards"]) for m in moved] == [
        ("pass", "0", "1", ["9P", "12R", "12T"]), ("pass", "1", "2", ["?"] * 3),
        ("pass", "2", "3", ["?"] * 3), ("pass", "3", "0", ["8T", "9T", "7O"])]
    assert_lands(moved)


def test_nothing_flies_under_reduced_motion_or_with_the_setting_off(
        server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    reduced = new_context(reduced_motion="reduce").new_page()
    plain = new_context().new_page()
    for game, view, events in (("baebae", BAEBAE, DRAWS), ("baha", BAHA, PASSES)):
        assert fly(plain, server, game, view, events)["moved"]   # they do fly otherwise
        assert fly(reduced, server, game, view, events)["moved"] == []
        assert fly(plain, server, game, view, events, motion="off")["moved"] == []


WATCH = """() => {
  window.flown = [];
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.dataset && n.dataset.testid === 'flying') {
        window.flown.push({kind: n.dataset.kind, from: n.dataset.from, to: n.dataset.to, cards: [...n.querySelectorAll('[data-card]')].map((c) => c.dataset.card)});
      }
    }
  }).observe(document.body, {childList: true});
}"""


def test_at_a_baebae_table_another_seat_s_draw_never_shows_its_face(
        server: ServeProcess, context: BrowserContext) -> None:
    table = server.create(game="baebae", players=2, name="Ada", seats=["human", "random"], deck="sample")
    page = open_table(context, server, table["id"], table["token"])
    page.evaluate(WATCH)
    for _ in range(40):
        flown = page.evaluate("() => window.flown")
        if {"0", "1"} <= {f["to"] for f in flown if f["kind"] == "draw"}:
            break
        if wait_turn_or_over(page) == "over":
            break
        before = seq(page)
        shown = page.get_by_test_id("hand-result-continue")
        if shown.count():  # a round's result waits for Continue, read here (no new position)
            shown.click()
            expect(shown).to_have_count(0)
            continue
        draw = page.get_by_test_id("move-draw")
        target = draw if draw.count() else page.locator(
            "[data-testid=hand] button[data-legal=true], [data-testid=moves] button[data-action]").first
        target.click()
        wait_seq_above(page, before)
    flown = page.evaluate("() => window.flown")
    theirs = [f for f in flown if f["kind"] == "draw" and f["to"] == "1"]
    mine = [f for f in flown if f["kind"] == "draw" and f["to"] == "0"]
    assert theirs and mine, flown
    assert all(f["cards"] == ["?"] for f in theirs), theirs
    assert all(f["cards"] != ["?"] for f in mine), mine


def test_at_a_baha_table_the_passes_fly_and_only_this_seat_s_cards_show(
        server: ServeProcess, context: BrowserContext) -> None:
    table = server.create(game="baha", players=4, name="Ada", seats=["human"] + ["heuristic"] * 3)
    page = open_table(context, server, table["id"], table["token"])
    page.evaluate(WATCH)
    expect(page.get_by_test_id("pass-confirm")).to_be_visible()
    chosen = page.eval_on_selector_all("[data-testid=hand] button.card", "bs => bs.slice(0, 3).map(b => b.dataset.card)")
    for card in chosen:
        page.get_by_test_id(f"card-{card}").click()
    page.get_by_test_id("pass-confirm").click()
    page.wait_for_function("() => window.flown.filter((f) => f.kind === 'pass').length >= 4")
    passes = [f for f in page.evaluate("() => window.flown") if f["kind"] == "pass"]
    mine = [f for f in passes if f["to"] == "0" or f.get("from") == "0"]
    others = [f for f in passes if f not in mine]
    assert len(passes) == 4 and len(mine) == 2 and len(others) == 2, passes
    assert all(f["cards"] == ["?"] * 3 for f in others), others   # passed between two other seats
    sent = next(f for f in mine if f["from"] == "0")
    assert sorted(sent["cards"]) == sorted(chosen)
    assert all("?" not in f["cards"] for f in mine), mine
