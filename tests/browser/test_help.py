"""Help at hand on the table page: a suggested move for the player's own turn (the heuristic's,
marked on its card and said with its rule of thumb) that the player can then play, and a
first-game walkthrough shown once per game in a browser; a spectator gets neither."""

from __future__ import annotations

from browser_support import ServeProcess, drawn_update, open_table, seq, wait_seq_above, wait_turn_or_over
from playwright.sync_api import BrowserContext, expect


def test_a_suggested_move_is_marked_said_and_played(server: ServeProcess, context: BrowserContext) -> None:
    table = server.create(game="baha", players=4, rules={"target": 1}, name="Ada",
                          seats=["human", "heuristic", "heuristic", "heuristic"])
    context.add_init_script(f"if (location.origin === '{server.base}') localStorage.setItem('cardroom.walkthrough.baha', 'done')")
    page = open_table(context, server, table["id"], table["token"])
    for _ in range(14):  # the three picks of the pass, then the first turn with a choice
        assert wait_turn_or_over(page) == "turn"
        if page.get_by_test_id("pass-confirm").count():
            legal = page.eval_on_selector_all("[data-testid=hand] button.card[data-legal=true]", "bs => bs.map(b => b.dataset.card)")
            for card in legal[:3]:
                page.get_by_test_id(f"card-{card}").click()
            before = seq(page)
            page.get_by_test_id("pass-confirm").click()
            wait_seq_above(page, before + 2)
            continue
        if len(drawn_update(page)["moves"]) == 1:
            before = seq(page)  # a single legal card: nothing to suggest, it is played
            page.locator("[data-testid=hand] button.card[data-legal=true]").first.click()
            wait_seq_above(page, before)
            continue
        page.get_by_test_id("suggest-button").click()
        said = page.get_by_test_id("suggestion")
        expect(said).to_contain_text("Suggested: play")
        expect(said).to_contain_text("\u2014")  # its rule of thumb, in words
        marked = page.locator("[data-testid=hand] button.card.suggested")
        expect(marked).to_have_count(1)
        card = marked.get_attribute("data-card")
        moves = {m["card"]: m for m in drawn_update(page)["moves"]}
        assert card in moves and moves[card]["kind"] == "play"
        before = seq(page)
        marked.click()
        after = wait_seq_above(page, before)
        assert after > before
        expect(page.get_by_test_id("log")).to_contain_text("Ada plays")
        return
    raise AssertionError("no turn with a choice of cards in a whole hand")


def test_a_first_game_walkthrough_once_per_game(server: ServeProcess, context: BrowserContext) -> None:
    table = server.create(game="baebae", players=2, rules={"rounds": 1}, deck="sample", name="Wil",
                          seats=["human", "heuristic"])
    page = open_table(context, server, table["id"], table["token"])
    box = page.get_by_test_id("walkthrough")
    expect(box).to_be_visible()
    texts = []
    while page.get_by_test_id("walkthrough-next").inner_text() != "Got it":
        texts.append(page.get_by_test_id("walkthrough-text").inner_text())
        page.get_by_test_id("walkthrough-next").click()
    assert len(texts) >= 3 and len(set(texts)) == len(texts)
    page.get_by_test_id("walkthrough-next").click()
    expect(box).to_be_hidden()
    page.reload()
    expect(page.get_by_test_id("turn-indicator")).not_to_have_text("Connecting\u2026")
    page.wait_for_function("() => Number(document.body.dataset.seq) >= 0")
    expect(box).to_be_hidden()  # once per game in this browser
    watcher = context.browser.new_context().new_page()  # type: ignore[union-attr]
    try:
        watcher.goto(f"{server.base}/table/{table['id']}")
        watcher.wait_for_function("() => Number(document.body.dataset.seq) >= 0")
        expect(watcher.get_by_test_id("walkthrough")).to_be_hidden()
        expect(watcher.get_by_test_id("suggest-button")).to_have_count(0)
    finally:
        watcher.context.close()


def test_a_spectator_may_watch_behind_the_game(server: ServeProcess, context: BrowserContext) -> None:
    table = server.create(game="baha", players=3, rules={"target": 1}, name="Ada",
                          seats=["human", "heuristic", "heuristic"])
    ada = open_table(context, server, table["id"], table["token"])
    for _ in range(5):  # Ada's three picks, then her cards: the game moves on
        if wait_turn_or_over(ada) != "turn":
            break
        before = seq(ada)
        if ada.get_by_test_id("pass-confirm").count():
            for card in ada.eval_on_selector_all("[data-testid=hand] button.card[data-legal=true]", "bs => bs.map(b => b.dataset.card)")[:3]:
                ada.get_by_test_id(f"card-{card}").click()
            ada.get_by_test_id("pass-confirm").click()
        else:
            ada.locator("[data-testid=hand] button.card[data-legal=true]").first.click()
        wait_seq_above(ada, before)
    assert wait_turn_or_over(ada) == "turn"  # the game waits for Ada: its seq stays
    live_seq = seq(ada)
    assert live_seq >= 4
    watcher = context.browser.new_context().new_page()  # type: ignore[union-attr]
    try:
        watcher.goto(f"{server.base}/table/{table['id']}?delay=4")
        watcher.wait_for_function("() => Number(document.body.dataset.seq) >= 0")
        expect(watcher.get_by_test_id("who")).to_have_text("Watching 4 actions behind")
        assert seq(watcher) == live_seq - 4
        expect(watcher.locator("[data-testid=hand] button.card")).to_have_count(0)  # never a hand
    finally:
        watcher.context.close()
