"""The pages under the server's Content-Security-Policy: every script, style and connection
they use is allowed (nothing is blocked), and no other site may frame them."""

from __future__ import annotations

from browser_support import ServeProcess, open_table, wait_first_update
from playwright.sync_api import BrowserContext, Page


def watch_violations(context: BrowserContext) -> list[str]:
    """Every Content-Security-Policy violation a page of ``context`` reports."""
    context.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => "
        "(window.__violations = window.__violations || []).push(e.violatedDirective + ' ' + e.blockedURI));")
    found: list[str] = []
    context.on("console", lambda m: found.append(m.text) if "Content Security Policy" in m.text else None)
    return found


def violations(page: Page) -> list[str]:
    return list(page.evaluate("window.__violations || []"))


def test_the_pages_work_under_the_policy_and_cannot_be_framed(context: BrowserContext, server: ServeProcess) -> None:
    console = watch_violations(context)
    finished = server.create(game="baha", players=3, seats=["random"] * 3, rules={"target": 1})
    server.wait_status(finished["id"], "over")
    lobby = context.new_page()
    lobby.goto(server.base + "/")
    lobby.get_by_test_id("game-select").locator("option").first.wait_for(state="attached")
    table = server.create(game="baebae", players=2, seats=["human", "random"], name="Ada")
    page = open_table(context, server, table["id"], table["token"])
    wait_first_update(page)  # the WebSocket connected: connect-src allows it
    replay = context.new_page()
    replay.goto(f"{server.base}/replay/{finished['id']}")
    replay.wait_for_load_state("networkidle")
    for each in (lobby, page, replay):
        assert violations(each) == [], each.url
    assert console == []
    # Framed by another page, the table page is refused.
    framer = context.new_page()
    framer.set_content(f'<iframe id="f" src="{server.base}/table/{table["id"]}"></iframe>')
    framer.wait_for_timeout(500)
    frame = framer.frame_locator("#f")
    assert frame.locator("[data-testid=who]").count() == 0
