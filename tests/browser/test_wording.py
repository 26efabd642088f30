"""Words on the pages: the lobby's rule options, the server's refusals shown as they are, the
score table's names whole, a BAEBAE card said as printed."""

from __future__ import annotations

import json
import re

from browser_support import ServeProcess, open_table, wait_turn_or_over
from playwright.sync_api import BrowserContext, Page, WebSocketRoute, expect
from staged_table import StagedPage, stage


def test_the_lobby_says_what_a_default_is_without_null(server: ServeProcess, page: Page) -> None:
    page.goto(server.base + "/")
    page.get_by_test_id("game-select").select_option("baha")
    expect(page.get_by_test_id("rule-draw_pile")).to_be_visible()
    text = page.get_by_test_id("create-form").inner_text()
    assert "by default on for 2 players" in text
    assert not re.search(r"\bnull\b", text), text
    page.get_by_test_id("game-select").select_option("baebae")
    expect(page.get_by_test_id("rule-hand_size")).to_be_visible()
    assert not re.search(r"\bnull\b", page.get_by_test_id("create-form").inner_text())


def test_a_refusal_is_shown_as_the_server_wrote_it(server: ServeProcess, context: BrowserContext) -> None:
    """The page's click is changed on its way into an action the engine refuses; the notice
    shows the server's message word for word (the page never rebuilds it)."""
    refusals: list[str] = []

    def route(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "act":
                data["action"] += 52   # the same card as a pass pick: never allowed while playing
            upstream.send(json.dumps(data))

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "error":
                refusals.append(data["message"])
            ws.send(message)

        ws.on_message(to_server)
        upstream.on_message(to_page)

    context.route_web_socket(re.compile(r".*/ws/tables/.*"), route)
    table = server.create(game="baha", rules={"passing": False}, name="Ada",
                          seats=["human", "heuristic", "heuristic", "heuristic"])
    page = open_table(context, server, table["id"], table["token"])
    assert wait_turn_or_over(page) == "turn"
    hand = page.eval_on_selector_all("[data-testid=hand] button.card", "bs => bs.map(b => b.dataset.card)")
    legal = page.eval_on_selector_all("[data-testid=hand] button.card[data-legal=true]",
                                      "bs => bs.map(b => b.dataset.card)")
    page.get_by_test_id(f"card-{legal[0]}").click()
    toast = page.get_by_test_id("toast-error").last
    expect(toast).to_be_visible()
    assert refusals, "the server refused the changed action"
    expect(toast.locator("span")).to_have_text(refusals[-1])
    assert hand == page.eval_on_selector_all("[data-testid=hand] button.card", "bs => bs.map(b => b.dataset.card)")


HEADER_WORDS = """() => [...document.querySelectorAll('[data-testid=scores] thead th:not(:first-child)')].map((th) => {
  const node = document.createTreeWalker(th, NodeFilter.SHOW_TEXT).nextNode();
  const broken = [];
  let at = 0;
  for (const word of node.data.split(' ')) {
    const r = document.createRange();
    r.setStart(node, at);
    r.setEnd(node, at + word.length);
    if ([...r.getClientRects()].filter((x) => x.width > 0).length > 1) broken.push(word);
    at += word.length + 1;
  }
  return {text: th.textContent, broken, cut: th.scrollWidth > th.clientWidth + 1 || th.scrollHeight > th.clientHeight + 1};
})"""


def test_score_headers_keep_each_word_of_a_name_whole(server: ServeProcess, context: BrowserContext) -> None:
    """Five or six names over a narrow panel: no "Heuristi / c 1", nothing cut."""
    staging = StagedPage(context, server.base)
    page_of = server.create(game="baha", players=2, seats=["human", "human"])["id"]
    for n, width, height in ((6, 1280, 800), (5, 1024, 768), (4, 1024, 768), (6, 375, 812)):
        table = stage("baha", n)
        staging.page.set_viewport_size({"width": width, "height": height})
        heads = staging.show(page_of, table).evaluate(HEADER_WORDS)
        assert [h["text"] for h in heads] == ["Ada"] + [f"Heuristic {s}" for s in range(1, n)]
        assert not [h for h in heads if h["broken"] or h["cut"]], f"{n} seats at {width}: {heads}"


def test_a_baebae_card_is_said_as_its_corner_prints_it(server: ServeProcess, page: Page) -> None:
    """The prompt, the log and the moves say "A♣" as the card's corner does, never "Ace♣"."""
    page.goto(f"{server.base}/static/cards.js")  # any page of the server: the modules are imported there
    said = page.evaluate("""async () => {
      const common = await import('/static/common.js');
      await common.loadGames();
      const designs = new Map([['AC', {key: 'AC', name: 'Old Fennick'}]]);
      return [common.cardWords('baebae', 'AC', designs), common.cardWords('baebae', 'KH', null),
              common.renderer('baebae').pendingWords('carry out AC\\'s action')];
    }""")
    assert said == ["A\u2663 Old Fennick", "K\u2665", "carry out A\u2663's action"]


def test_the_lobby_says_every_problem_of_the_form_at_once(server: ServeProcess, page: Page) -> None:
    """A missing name no longer hides the rest: a timer of 0 is said beside it."""
    page.goto(server.base + "/")
    expect(page.get_by_test_id("game-select").locator("option")).to_have_count(2)
    page.get_by_test_id("name-input").fill("")
    page.get_by_test_id("timer-input").fill("0")
    page.get_by_test_id("create-button").click()
    error = page.get_by_test_id("create-error")
    expect(error).to_contain_text("Enter your name")
    expect(error).to_contain_text(re.compile(r"Turn timer \(seconds\): .*1"))
    assert page.url == server.base + "/"
