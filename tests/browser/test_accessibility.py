"""Every page of the web table passes axe-core's checks with no serious or critical violation:
the lobby, a table of each game (seated, watched, waiting, finished; in play and on a deal's
result), the replay, the rules, the account pages and the leaderboard."""

from __future__ import annotations

from browser_support import ServeProcess, axe_violations, deal_at_first_turn, open_table, wait_turn_or_over
from playwright.sync_api import BrowserContext, Page, expect
from staged_table import StagedPage, stage


def check(page: Page, what: str) -> None:
    found = axe_violations(page)
    assert not found, f"{what}: " + "\n".join(found)


def test_the_lobby_rules_account_and_leaderboard_pages(server: ServeProcess, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(server.base + "/")
    expect(page.get_by_test_id("game-select").locator("option")).to_have_count(2)
    check(page, "the lobby")
    page.get_by_test_id("game-select").select_option("baebae")
    expect(page.get_by_test_id("deck-fieldset")).to_be_visible()
    check(page, "the lobby with BAEBAE chosen")
    for game in ("baha", "baebae"):
        page.goto(f"{server.base}/rules/{game}")
        check(page, f"the rules of {game}")
    page.goto(server.base + "/account")
    expect(page.get_by_test_id("signup-name")).to_be_visible()
    check(page, "the account page")
    # (signed up here: a module named test_accounts is also in tests/web, on the same path)
    page.get_by_test_id("signup-name").fill("Axel")
    page.get_by_test_id("signup-password").fill("a long enough password")
    page.get_by_test_id("signup-submit").click()
    expect(page.get_by_test_id("signed-in")).to_be_visible()
    check(page, "the account page, signed in")
    page.goto(server.base + "/player/Axel")
    page.wait_for_load_state("networkidle")
    check(page, "a player's page")
    page.goto(server.base + "/leaderboard")
    page.wait_for_load_state("networkidle")
    check(page, "the leaderboard")


def test_a_table_of_each_game_seated_watched_and_finished(server: ServeProcess, context: BrowserContext) -> None:
    baha = server.create(game="baha", players=4, rules={"target": 1}, name="Ada",
                         seats=["human", "heuristic", "heuristic", "heuristic"])
    page = open_table(context, server, baha["id"], baha["token"])
    assert wait_turn_or_over(page) == "turn"
    check(page, "a Baha table, the seat's turn to pass")
    baebae, page = deal_at_first_turn(server, context, game="baebae", players=3, rules={"rounds": 1}, deck="sample",
                                      name="Bo", seats=["human", "heuristic", "heuristic"])
    check(page, "a BAEBAE table, the seat's turn")
    watcher = open_table(context, server, baebae["id"])
    check(watcher, "a BAEBAE table watched")
    waiting = server.create(game="baha", players=3, name="Cy", seats=["human", "human", "heuristic"])
    page = open_table(context, server, waiting["id"], waiting["token"])
    expect(page.get_by_test_id("share-bar")).to_be_visible()
    check(page, "a table waiting for a player")
    bots = server.create(game="baha", players=3, rules={"target": 1}, seats=["heuristic", "random", "heuristic"])
    server.wait_status(bots["id"], "over")
    page = open_table(context, server, bots["id"])
    expect(page.get_by_test_id("standings")).to_be_visible()
    check(page, "a finished table")
    page.goto(f"{server.base}/replay/{bots['id']}")
    expect(page.get_by_test_id("replay-step")).to_contain_text("Step 1 of")
    check(page, "the replay")


def test_a_table_during_play_and_each_game_s_result(server: ServeProcess, context: BrowserContext) -> None:
    """In play (Baha's trick, BAEBAE's piles and suit) and on the result panel (cream, on the
    felt: "X went out." was light text on it), at a desktop's size and a phone's."""
    staging = StagedPage(context, server.base)
    page_of = server.create(game="baha", players=2, seats=["human", "human"])["id"]
    for game in ("baha", "baebae"):
        table = stage(game, 4)
        for width, height in ((1280, 800), (375, 812)):
            staging.page.set_viewport_size({"width": width, "height": height})
            page = staging.show(page_of, table, "turn")
            check(page, f"a {game} table at {width}x{height}, the seat's turn to play")
            staging.send(table.updates["result"])
            expect(page.get_by_test_id("hand-result")).to_be_visible()
            check(page, f"a {game} table at {width}x{height}, the result of its first deal")
