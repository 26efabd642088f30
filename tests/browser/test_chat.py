"""The chat at the table in the browser: a message that looks like HTML is shown as text and
runs nothing; a spectator reads but has no chat box; a refusal is shown in words."""

from __future__ import annotations

from collections.abc import Callable

from browser_support import ServeProcess, open_table
from playwright.sync_api import BrowserContext, expect

ATTACK = '<img src=x onerror="window.hacked=1"><script>window.hacked=2</script>'


def test_chat_is_escaped_and_runs_nothing(server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    table = server.create(game="baha", players=3, name="Ada", seats=["human", "human", "heuristic"])
    bea = server.join(table["id"], "Bea")
    ada_page = open_table(new_context(), server, table["id"], table["token"])
    bea_page = open_table(new_context(), server, table["id"], bea["token"])
    watcher = open_table(new_context(), server, table["id"])
    expect(ada_page.get_by_test_id("chat-form")).to_be_visible()
    expect(watcher.get_by_test_id("chat-form")).to_be_hidden()

    ada_page.get_by_test_id("chat-input").fill(ATTACK)
    ada_page.get_by_test_id("chat-send").click()
    for page, who in ((ada_page, "You"), (bea_page, "Ada"), (watcher, "Ada")):
        line = page.get_by_test_id("chat-line").last
        expect(line).to_have_text(f"{who}: {ATTACK}")
        assert line.locator("img, script").count() == 0
        assert page.evaluate("window.hacked") is None
    # a refusal, in words, under the chat
    bea_page.get_by_test_id("chat-input").evaluate("(el) => el.removeAttribute('maxlength')")
    bea_page.get_by_test_id("chat-input").fill("x" * 201)
    bea_page.get_by_test_id("chat-send").click()
    expect(bea_page.get_by_test_id("chat-error")).to_have_text("a chat message is at most 200 characters, not 201")
