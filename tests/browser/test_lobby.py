"""The lobby: a table created through the form, listed, joined from the table page's join bar
and watched by a spectator who sees no hand; a private table left out of the list; two people
at one table in two browsers."""

from __future__ import annotations

import re
from collections.abc import Callable

from browser_support import (
    ServeProcess,
    click_create,
    hand_cards,
    open_table,
    seq,
    wait_first_update,
    wait_seq_above,
    wait_turn_or_over,
)
from playwright.sync_api import BrowserContext, Page, Route, expect

TABLE_URL = re.compile(r"/table/([^/?#]+)$")


def lobby(context: BrowserContext, server: ServeProcess) -> Page:
    page = context.new_page()
    page.goto(server.base + "/")
    expect(page.get_by_test_id("game-select").locator("option")).to_have_count(2)
    return page


def all_cards_in_page(page: Page) -> set[str]:
    """Every card the page shows anywhere (hand, trick, log aside)."""
    return set(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))


def test_create_a_table_in_the_lobby_join_it_and_watch_it(
        server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    # Ada creates a Baha table with a seat for a friend and a rule changed.
    ada = lobby(new_context(), server)
    ada.get_by_test_id("name-input").fill("Ada")
    ada.get_by_test_id("game-select").select_option("baebae")
    expect(ada.get_by_test_id("deck-fieldset")).to_be_visible()
    ada.get_by_test_id("game-select").select_option("baha")
    expect(ada.get_by_test_id("deck-fieldset")).to_be_hidden()
    ada.get_by_test_id("players-input").fill("4")
    expect(ada.locator("[data-testid^=seat-kind-]")).to_have_count(4)
    ada.get_by_test_id("seat-kind-1").select_option("human")
    ada.get_by_test_id("seat-kind-2").select_option("random")
    ada.get_by_test_id("rule-target").fill("50")
    click_create(ada)
    ada.wait_for_url(TABLE_URL)
    table_id = TABLE_URL.search(ada.url).group(1)  # type: ignore[union-attr]
    wait_first_update(ada)
    expect(ada.get_by_test_id("who")).to_have_text("Seat 0: Ada")
    expect(ada.get_by_test_id("status")).to_have_attribute("data-status", "waiting")
    expect(ada.get_by_test_id("turn-indicator")).to_contain_text("Waiting")
    summary = server.get(f"/api/tables/{table_id}")
    assert summary["rules"]["target"] == 50, summary["rules"]
    assert [s["kind"] for s in summary["seats"]] == ["human", "human", "bot", "bot"]
    assert [s["bot"] for s in summary["seats"][2:]] == ["random", "heuristic"]
    assert summary["seats"][0]["name"] == "Ada"
    # While a seat waits for a friend, Ada's page shows the link to send (without her token).
    expect(ada.get_by_test_id("share-bar")).to_be_visible()
    expect(ada.get_by_test_id("share-link")).to_have_value(f"{server.base}/table/{table_id}")

    # Bea finds it in the lobby's list, watches, and takes the free seat from the join bar.
    bea = lobby(new_context(), server)
    item = bea.get_by_test_id(f"table-{table_id}")
    expect(item).to_be_visible()
    expect(item).to_have_attribute("data-status", "waiting")
    expect(item).to_contain_text("Ada")
    expect(bea.get_by_test_id(f"join-button-{table_id}")).to_be_visible()
    bea.get_by_test_id(f"watch-link-{table_id}").click()
    bea.wait_for_url(f"**/table/{table_id}")
    wait_first_update(bea)
    expect(bea.get_by_test_id("who")).to_have_text("Watching")
    expect(bea.get_by_test_id("join-bar")).to_be_visible()
    bea.get_by_test_id("join-name").fill("Bea")
    bea.get_by_test_id("join-button").click()
    expect(bea.get_by_test_id("who")).to_have_text("Seat 1: Bea")
    expect(bea.get_by_test_id("join-bar")).to_be_hidden()
    expect(bea.get_by_test_id("status")).to_have_attribute("data-status", "running")
    expect(bea.get_by_test_id("hand")).to_have_attribute("data-count", "13")
    expect(ada.get_by_test_id("status")).to_have_attribute("data-status", "running")
    expect(ada.get_by_test_id("share-bar")).to_be_hidden()  # every seat is taken now
    expect(ada.get_by_test_id("hand")).to_have_attribute("data-count", "13")
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Bea")

    # Cy watches from the lobby: the table is running, no seat is free, no hand is shown.
    cy_context = new_context()
    cy = lobby(cy_context, server)
    expect(cy.get_by_test_id(f"table-{table_id}")).to_have_attribute("data-status", "running")
    expect(cy.get_by_test_id(f"join-button-{table_id}")).to_have_count(0)
    cy.get_by_test_id(f"watch-link-{table_id}").click()
    cy.wait_for_url(f"**/table/{table_id}")
    wait_first_update(cy)
    expect(cy.get_by_test_id("who")).to_have_text("Watching")
    expect(cy.get_by_test_id("join-bar")).to_be_hidden()
    expect(cy.get_by_test_id("hand")).to_have_attribute("data-count", "0")
    expect(cy.get_by_test_id("hand")).to_contain_text("You are watching: hands are hidden.")
    expect(cy.locator("[data-testid=hand] button")).to_have_count(0)
    expect(cy.get_by_test_id("decision")).to_be_hidden()
    for i in range(4):
        expect(cy.get_by_test_id(f"seat-{i}")).to_contain_text("13 cards")
    hands = set(hand_cards(ada)) | set(hand_cards(bea))
    assert not all_cards_in_page(cy) & hands, "the spectator's page holds a player's card"
    assert cy.evaluate("() => localStorage.length") == 0, "the spectator holds no token"


def test_a_private_table_is_left_out_of_the_lobbys_list_and_joined_by_its_link(
        server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    ada = lobby(new_context(), server)
    ada.get_by_test_id("name-input").fill("Ada")
    ada.get_by_test_id("game-select").select_option("baha")
    ada.get_by_test_id("players-input").fill("3")
    ada.get_by_test_id("seat-kind-1").select_option("human")
    ada.get_by_test_id("private-input").check()
    click_create(ada)
    ada.wait_for_url(TABLE_URL)
    table_id = TABLE_URL.search(ada.url).group(1)  # type: ignore[union-attr]
    expect(ada.get_by_test_id("share-text")).to_contain_text("a private table: the lobby does not list it")
    assert server.get(f"/api/tables/{table_id}")["private"] is True
    listed = server.create(game="baha", players=3, name="Ada", seats=["human", "human", "random"])
    bea = lobby(new_context(), server)
    expect(bea.get_by_test_id(f"table-{listed['id']}")).to_be_visible()   # the list is drawn
    expect(bea.get_by_test_id(f"table-{table_id}")).to_have_count(0)
    bea.goto(f"{server.base}/table/{table_id}")   # the link Ada sent
    bea.get_by_test_id("join-name").fill("Bea")
    bea.get_by_test_id("join-button").click()
    expect(bea.get_by_test_id("who")).to_have_text("Seat 1: Bea")


def test_two_people_at_one_table(server: ServeProcess, new_context: Callable[..., BrowserContext]) -> None:
    table = server.create(game="baha", seats=["human", "human", "heuristic", "heuristic"])
    assert table["status"] == "waiting" and "token" not in table

    # Ada joins through the lobby's list; Bea with a token from the API, as a shared link would.
    ada_context = new_context()
    ada = lobby(ada_context, server)
    ada.get_by_test_id("name-input").fill("Ada")
    ada.get_by_test_id(f"join-button-{table['id']}").click()
    ada.wait_for_url(f"**/table/{table['id']}")
    wait_first_update(ada)
    expect(ada.get_by_test_id("who")).to_have_text("Seat 0: Ada")
    expect(ada.get_by_test_id("status")).to_have_attribute("data-status", "waiting")
    bea_seat = server.join(table["id"], "Bea")
    assert bea_seat["seat"] == 1
    bea = open_table(new_context(), server, table["id"], bea_seat["token"])
    expect(bea.get_by_test_id("who")).to_have_text("Seat 1: Bea")
    for page in (ada, bea):
        expect(page.get_by_test_id("status")).to_have_attribute("data-status", "running")
        expect(page.get_by_test_id("hand")).to_have_attribute("data-count", "13")
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Bea")
    expect(bea.get_by_test_id("seat-0")).to_contain_text("Ada")

    # Each sees its own hand and nothing of the other's.
    ada_hand, bea_hand = set(hand_cards(ada)), set(hand_cards(bea))
    assert len(ada_hand) == len(bea_hand) == 13 and not ada_hand & bea_hand
    assert not all_cards_in_page(ada) & bea_hand, "Ada's page shows one of Bea's cards"
    assert not all_cards_in_page(bea) & ada_hand, "Bea's page shows one of Ada's cards"

    # The pass: whoever of the two is asked first chooses three cards; the other sees it.
    ada.wait_for_function("() => ['0', '1'].includes(document.querySelector('[data-testid=turn-indicator]').dataset.turn)")
    first = int(ada.get_by_test_id("turn-indicator").get_attribute("data-turn") or "")
    actor, other = (ada, bea) if first == 0 else (bea, ada)
    name = "Ada" if first == 0 else "Bea"
    assert wait_turn_or_over(actor) == "turn"
    expect(other.get_by_test_id("turn-indicator")).to_have_text(f"{name}'s turn")
    expect(other.get_by_test_id("pass-confirm")).to_have_count(0)
    assert other.eval_on_selector_all("[data-testid=hand] button[data-legal=true]", "b => b.length") == 0
    seen = seq(other)
    chosen = hand_cards(actor)[:3]
    for card in chosen:
        actor.get_by_test_id(f"card-{card}").click()
    actor.get_by_test_id("pass-confirm").click()
    expect(other.get_by_test_id(f"seat-{first}")).to_contain_text("picked 3/3")
    assert seq(other) >= seen + 3
    # One line for the pass round's picks, the cards hidden.
    picks = other.get_by_test_id("log").locator("li[data-t=pass_pick]")
    expect(picks).to_have_count(1)
    expect(picks).to_have_text(re.compile(rf"^(\w+ \d, )*{name}\b.* pick(s 3 cards| 3 cards each) to pass\.$"))
    assert not all_cards_in_page(other) & set(chosen), "the other player sees a card passed"
    expect(actor.get_by_test_id(f"seat-{first}")).to_contain_text("picked 3/3")
    for card in chosen:
        expect(actor.get_by_test_id(f"card-{card}")).to_have_accessible_name(re.compile("chosen to pass"))

    # Then the other passes, and both see the hand move on to the tricks.
    if wait_turn_or_over(other) == "turn" and other.get_by_test_id("pass-confirm").count():
        before = seq(actor)
        for card in hand_cards(other)[:3]:
            other.get_by_test_id(f"card-{card}").click()
        other.get_by_test_id("pass-confirm").click()
        wait_seq_above(actor, before)
    for page in (ada, bea):
        expect(page.get_by_test_id("pass-info")).to_contain_text("received")
        expect(page.get_by_test_id("center-info")).to_contain_text("Trick 1")
        expect(page.get_by_test_id("hand")).to_have_attribute("data-count", "13")


def test_a_baebae_table_with_an_uploaded_deck(server: ServeProcess, context: BrowserContext,
                                              tmp_path: object) -> None:
    from pathlib import Path

    from cardroom.games.baebae.deck import SAMPLE_DECK

    folder = Path(str(tmp_path))
    bad = folder / "broken.toml"
    bad.write_text('name = "Broken"\n[[card]]\nrank = "Z"\n')
    good = folder / "mine.toml"
    good.write_text(SAMPLE_DECK.read_text().replace('name = "Cardroom Sample Deck"', 'name = "Our Deck"', 1))
    page = lobby(context, server)
    page.get_by_test_id("name-input").fill("Di")
    page.get_by_test_id("game-select").select_option("baebae")
    page.get_by_test_id("deck-select").select_option("__upload__")
    page.get_by_test_id("deck-file").set_input_files(str(bad))
    click_create(page)
    # The server's deck check, in words, and no table made.
    expect(page.get_by_test_id("create-error")).to_contain_text("broken.toml: card 1: the field 'suit' is missing")
    assert TABLE_URL.search(page.url) is None
    page.get_by_test_id("deck-file").set_input_files(str(good))
    click_create(page)
    page.wait_for_url(TABLE_URL)
    table_id = TABLE_URL.search(page.url).group(1)  # type: ignore[union-attr]
    summary = server.get(f"/api/tables/{table_id}")
    assert summary["deck"]["name"] == "Our Deck"
    wait_first_update(page)
    expect(page.get_by_test_id("status")).to_have_attribute("data-status", "running")
    # dealt: Di holds cards (5 at the deal; the bots, playing at once, may already have made
    # her draw, or taken or swapped some with an action)
    page.wait_for_function("() => Number(document.querySelector('[data-testid=hand]').dataset.count) >= 1")


def test_the_lobby_offers_a_game_its_own_decks(server: ServeProcess, context: BrowserContext) -> None:
    """Each catalog deck names its game: the deck list of BAEBAE shows BAEBAE's decks alone
    (a deck the catalog gives another game is not offered), then the upload."""
    def with_another_game_s_deck(r: Route) -> None:
        answer = r.fetch().json()
        answer["decks"].append({"name": "elsewhere", "game": "baha", "title": "Another Game's Deck", "cards": 40})
        r.fulfill(json=answer)

    context.route(re.compile(r".*/api/catalog$"), with_another_game_s_deck)
    page = lobby(context, server)
    page.get_by_test_id("game-select").select_option("baebae")
    ours = [d["name"] for d in server.get("/api/catalog")["decks"] if d["game"] == "baebae"]
    assert ours
    offered = page.get_by_test_id("deck-select").locator("option")
    expect(offered).to_have_count(len(ours) + 1)
    assert offered.evaluate_all("os => os.map(o => o.value)") == [*ours, "__upload__"]
