"""A closed table says so (once) and asks nothing; the page's words and names; the lobby's
labels, help and rules links; a bots-only table made while a name is remembered."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from browser_support import ServeProcess, click_create, open_table, wait_turn_or_over
from playwright.sync_api import BrowserContext, Page, expect


def as_creator(context: BrowserContext, server: ServeProcess, table_id: str, token: str) -> None:
    context.add_init_script(f"if (location.origin === {json.dumps(server.base)}) "
                            f"localStorage.setItem({json.dumps('cardroom.creator.' + table_id)}, {json.dumps(token)})")


def expect_closed(page: Page) -> None:
    expect(page.get_by_test_id("closed-bar")).to_be_visible()
    expect(page.get_by_test_id("closed-lobby-link")).to_have_attribute("href", "/")
    expect(page.get_by_test_id("status")).to_have_text("closed")


def test_a_closed_waiting_table_says_so_once_and_waits_for_nobody(
        server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    table = server.create(game="baha", name="Ada", seats=["human", "human", "heuristic", "heuristic"])
    ctx = new_context()
    as_creator(ctx, server, table["id"], table["creator_token"])
    ada = open_table(ctx, server, table["id"], table["token"])
    bo = open_table(new_context(), server, table["id"])
    expect(ada.get_by_test_id("share-bar")).to_be_visible()
    ada.on("dialog", lambda d: d.accept())
    ada.get_by_test_id("close-button").click()
    for page in (ada, bo):
        expect_closed(page)
        expect(page.get_by_test_id("turn-indicator")).to_have_text("Table closed")
        expect(page.get_by_test_id("share-bar")).to_be_hidden()
        expect(page.get_by_test_id("join-bar")).to_be_hidden()
        expect(page.get_by_test_id("waiting-note")).to_have_count(0)
        page.wait_for_timeout(300)  # both the close's answer and the server's message are in
        expect(page.get_by_test_id("toast-error")).to_have_count(1)
        assert "waiting" not in page.inner_text("body").lower()
    ada.get_by_test_id("closed-lobby-link").click()
    ada.wait_for_url(f"{server.base}/")


def test_a_closed_game_asks_nothing_and_a_left_seat_says_the_bot_plays_it(
        server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    table = server.create(game="baha", name="Ada", seats=["human", "human", "heuristic", "heuristic"])
    bo = server.join(table["id"], "Bo")
    assert server.request("POST", f"/api/tables/{table['id']}/leave", {"token": bo["token"]})[0] == 200
    ctx = new_context()
    as_creator(ctx, server, table["id"], table["creator_token"])
    ada = open_table(ctx, server, table["id"], table["token"])
    assert wait_turn_or_over(ada) == "turn"
    expect(ada.get_by_test_id("seat-1")).to_contain_text("left · bot plays")
    ada.on("dialog", lambda d: d.accept())
    ada.get_by_test_id("close-button").click()
    expect(ada.get_by_test_id("status")).to_have_attribute("data-status", "over")
    expect_closed(ada)
    expect(ada.get_by_test_id("seat-1")).to_contain_text("left · bot plays")
    expect(ada.get_by_test_id("seat-1")).not_to_contain_text("offline")
    for gone in ("hint", "pending", "pass-confirm", "moves"):
        expect(ada.get_by_test_id(gone)).to_have_count(0)
    expect(ada.locator("[data-testid=hand] button[data-legal=true]")).to_have_count(0)
    expect(ada.locator("[data-testid=seats] [data-turn=true]")).to_have_count(0)
    expect(ada.locator("[data-testid=turn-indicator].my-turn")).to_have_count(0)


DRAW = """async ([game, view, extra]) => {
  const { TableView } = await import('/static/render.js');
  await (await import('/static/common.js')).loadGames();
  const sheet = document.createElement('link');
  sheet.rel = 'stylesheet';
  sheet.href = '/static/style.css';
  await new Promise((done) => { sheet.onload = done; document.head.append(sheet); });
  const els = {};
  for (const k of ['seats', 'center', 'turn', 'decision', 'hand', 'scores', 'standings', 'log', 'lastTrick', 'lastTrickPanel']) {
    els[k] = document.createElement(k === 'log' ? 'ol' : 'div');
    els[k].dataset.testid = k;
    document.body.append(els[k]);
  }
  document.body.style.width = '320px';  // a side panel's width
  const tv = new TableView(els);
  const names = extra.names;
  const table = {id: 't', game, status: 'running', seats: names.map((n, s) => ({seat: s, kind: 'human', name: n, title: n}))};
  tv.render({view, moves: extra.moves || [], table, events: [], seat: 0, spectator: false, seq: 1, result: extra.result || null});
  const cut = [...document.querySelectorAll('figcaption')].filter((f) => f.scrollWidth > f.clientWidth + 1).map((f) => f.textContent);
  return {seats: els.seats.innerText, scores: els.scores.innerText, decision: els.decision.innerText,
          turn: els.turn.innerText, lastTrick: els.lastTrick.innerText, cut};
}"""


def draw(page: Page, server: ServeProcess, game: str, view: dict[str, object], **extra: object) -> dict[str, object]:
    page.goto(f"{server.base}/static/style.css")
    return page.evaluate(DRAW, [game, view, extra])  # type: ignore[no-any-return]


BAEBAE = {"game": "baebae", "seat": 0, "players": 2, "hand": ["6C", "7D"], "hand_sizes": [2, 3], "totals": [0, 0],
          "phase": "play", "discard": ["8H"], "suit": "H", "direction": 1, "round": 1, "rules": {"rounds": 1},
          "round_penalties": [-1, 2], "current_player": 0,
          "pending": {"kind": "optional", "seat": 0, "card": "7H", "text": "carry out 7H's optional action or not"}}


def test_baebae_words_a_bonus_one_round_and_one_card_notation(server: ServeProcess, page: Page) -> None:
    shown = draw(page, server, "baebae", BAEBAE, names=["Ada", "Bo"],
                 moves=[{"action": 1, "text": "yes", "kind": "yes"}, {"action": 2, "text": "no", "kind": "no"}])
    seats = str(shown["seats"])
    assert "\u22121 this round" in seats and "+-1" not in seats and "+2 this round" in seats
    assert "after 1 round wins" in str(shown["scores"])
    decision = str(shown["decision"])
    assert "7\u2665's optional action" in decision and "7H" not in decision, decision


def test_no_seats_turn_is_shown_while_a_result_waits_for_continue(server: ServeProcess, page: Page) -> None:
    view = {**BAEBAE, "current_player": 1, "pending": None}
    result = {"t": "round_end", "n": 1, "out": 0, "penalties": [0, 5], "totals": [0, 5]}
    shown = draw(page, server, "baebae", view, names=["Ada", "Bo"], result=result)
    assert "Bo's turn" not in str(shown["turn"]) and "continue" in str(shown["turn"]).lower()


def test_long_names_in_the_last_trick_are_not_cut(server: ServeProcess, page: Page) -> None:
    names = ["Ada", "Heuristic 1", "Bartholomew-Fitzgerald", "Heuristic 3"]
    view = {"game": "baha", "seat": 0, "players": 4, "hand": ["2P"], "hand_sizes": [1, 1, 1, 1], "totals": [0] * 4,
            "phase": "play", "hand_number": 1, "current_player": 0, "trick": [], "tricks_done": 12,
            "last_trick": {"leader": 1, "winner": 2, "cards": ["3P", "13P", "4P", "5P"]}}
    shown = draw(page, server, "baha", view, names=names)
    assert not shown["cut"], f"names cut in the last trick: {shown['cut']}"
    assert "Bartholomew" in str(shown["lastTrick"])


def test_the_lobby_labels_and_helps_every_field_and_links_the_rules(server: ServeProcess, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(server.base + "/")
    expect(page.get_by_test_id("rule-draw_pile-label")).to_have_text("Draw pile (2 or 3 players)")
    for game in ("baha", "baebae"):
        page.get_by_test_id("game-select").select_option(game)
        fields = page.locator("#create-form select, #create-form input:not([type=file])")
        for i in range(fields.count()):
            field = fields.nth(i)
            if field.get_attribute("data-testid", timeout=1000) is not None and field.get_attribute(
                    "data-testid", timeout=1000).startswith("seat-kind-"):
                continue
            helped = field.get_attribute("aria-describedby")
            assert helped, f"no help for {field.get_attribute('data-testid')}"
            assert page.locator(f"#{helped}").inner_text().strip()
        labels = page.locator("#rules .option-label").all_inner_texts()
        assert labels and all("_" not in x and x[0].isupper() for x in labels), labels
        # Fields side by side line up: their inputs start at one height, whatever their help says.
        boxes = page.evaluate("""() => [...document.querySelectorAll('#rules label')].map((l) => {
            const r = l.getBoundingClientRect();
            return [r.top, r.bottom, Math.round(l.querySelector('[data-rule]').getBoundingClientRect().top)]; })""")
        for top, bottom, _ in boxes:  # the fields beside this one (their boxes share a height)
            beside = {input_top for t, b, input_top in boxes if t < bottom and b > top}
            assert len(beside) == 1, f"{game}: inputs side by side at different heights: {boxes}"
    assert page.get_by_test_id("timer-input").get_attribute("min") == "1"
    page.get_by_test_id("rules-link-baebae").click()
    page.wait_for_url(re.compile(r"/rules/baebae$"))
    expect(page.get_by_test_id("rules-text")).to_contain_text("BAEBAE")


def test_a_bots_only_table_is_made_while_a_name_is_remembered(server: ServeProcess, context: BrowserContext) -> None:
    context.add_init_script(f"if (location.origin === {json.dumps(server.base)}) localStorage.setItem('cardroom.name', 'Ada')")
    page = context.new_page()
    page.goto(server.base + "/")
    expect(page.get_by_test_id("name-input")).to_have_value("Ada")
    page.get_by_test_id("seat-kind-0").select_option("random")
    click_create(page)
    page.wait_for_url(re.compile(r"/table/"))
    expect(page.get_by_test_id("who")).to_have_text("Watching")
    expect(page.get_by_test_id("rules-link")).to_have_attribute("href", "/rules/baha")
