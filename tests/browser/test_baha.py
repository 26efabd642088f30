"""A whole hand of Baha played by clicking, one person against three heuristic bots; and a
card played with the keyboard only."""

from __future__ import annotations

import re
import time

from browser_support import (
    GAME_S,
    ServeProcess,
    drawn_update,
    hand_cards,
    legal_cards,
    open_table,
    play_hand_card,
    screenshot_dir,
    seq,
    status,
    wait_seq_above,
    wait_turn_or_over,
)
from playwright.sync_api import BrowserContext, Page, expect


def check_legal_marks(page: Page) -> list[str]:
    """The cards marked legal are exactly the legal moves the server sent this seat; the others
    are marked as not playable. The legal cards."""
    update = drawn_update(page)
    allowed = sorted(m["card"] for m in update["moves"] if m["kind"] in ("play", "pass"))
    legal = legal_cards(page)
    assert sorted(legal) == allowed, f"page marks {legal} playable, the server allows {allowed}"
    for card in set(hand_cards(page)) - set(legal):
        button = page.get_by_test_id(f"card-{card}")
        expect(button).to_have_attribute("aria-disabled", "true")
        expect(button).not_to_have_accessible_name(re.compile("playable"))
    return legal


def pass_three(page: Page) -> None:
    """Baha's pass: choose three cards by clicking, then confirm."""
    expect(page.get_by_test_id("hand")).to_have_attribute("data-count", "13")
    confirm = page.get_by_test_id("pass-confirm")
    expect(confirm).to_be_disabled()
    expect(page.get_by_test_id("pending")).to_contain_text("Choose 3 cards to pass")
    legal = check_legal_marks(page)
    assert len(legal) == 13, "any card may be passed"
    chosen = sorted(legal, key=lambda c: int(c[:-1]))[-3:]     # the three highest
    for i, card in enumerate(chosen):
        page.get_by_test_id(f"card-{card}").click()
        expect(page.get_by_test_id(f"card-{card}")).to_have_attribute("aria-pressed", "true")
        if i < 2:
            expect(confirm).to_be_disabled()
    expect(page.get_by_test_id("pending")).to_contain_text("3/3 chosen")
    expect(confirm).to_be_enabled()
    # Unchoosing and choosing again works too.
    page.get_by_test_id(f"card-{chosen[0]}").click()
    expect(confirm).to_be_disabled()
    page.get_by_test_id(f"card-{chosen[0]}").click()
    before = seq(page)
    confirm.click()
    for card in chosen:
        expect(page.get_by_test_id("pass-info")).to_contain_text(card_words(card))
    expect(page.get_by_test_id("pass-info")).to_contain_text("You passed")
    assert seq(page) > before
    assert not set(chosen) & set(hand_cards(page)), "the passed cards left the hand"
    expect(page.get_by_test_id("hand")).to_have_attribute("data-count", "13")


def test_a_whole_game_of_baha_by_clicking(server: ServeProcess, context: BrowserContext) -> None:
    table = server.create(game="baha", rules={"target": 1}, name="Ada",
                          seats=["human", "heuristic", "heuristic", "heuristic"])
    page = open_table(context, server, table["id"], table["token"])
    expect(page.get_by_test_id("who")).to_have_text("Seat 0: Ada")
    expect(page.get_by_test_id("status")).to_have_attribute("data-status", "running")

    assert wait_turn_or_over(page) == "turn"
    expect(page.get_by_test_id("pass-confirm")).to_be_visible()

    # Every trick: click a legal card; an illegal card does nothing.
    plays = 0
    tried_illegal = False
    shot = screenshot_dir()
    end = time.monotonic() + GAME_S
    while wait_turn_or_over(page) == "turn":
        assert time.monotonic() < end, "the game did not end in time"
        if page.get_by_test_id("hand-result-continue").count():
            page.get_by_test_id("hand-result-continue").click()   # a tie: the result, then a new hand
            continue
        if page.get_by_test_id("pass-confirm").count():
            pass_three(page)   # a new hand (a tie for the lowest total plays another hand)
            continue
        legal = check_legal_marks(page)
        hand = hand_cards(page)
        expect(page.get_by_test_id("turn-indicator")).to_have_text("Your turn")
        expect(page.get_by_test_id("seat-0")).to_have_attribute("data-turn", "true")
        illegal = [c for c in hand if c not in legal]
        if illegal and not tried_illegal:
            tried_illegal = True
            before = seq(page)
            # Marked disabled (aria-disabled), so Playwright will not click it: force a click.
            expect(page.get_by_test_id(f"card-{illegal[0]}")).to_be_disabled()
            page.get_by_test_id(f"card-{illegal[0]}").click(force=True)
            page.wait_for_timeout(300)
            assert seq(page) == before and illegal[0] in hand_cards(page), "an illegal card cannot be played"
            expect(page.get_by_test_id("toasts")).not_to_contain_text("illegal")
        trick_before = page.eval_on_selector_all("[data-testid=trick] [data-card]", "els => els.length")
        if shot and trick_before >= 2 and 6 <= len(hand) <= 11:
            shot.mkdir(parents=True, exist_ok=True)
            if page.get_by_test_id("walkthrough-skip").is_visible():
                page.get_by_test_id("walkthrough-skip").click()   # the table itself, not the first game's steps
            page.mouse.move(0, 0)
            page.evaluate("window.scrollTo(0, 0)")  # the whole table in view, whatever has focus
            page.wait_for_timeout(500)  # the cards just played come to rest
            page.screenshot(path=str(shot / "baha-table.png"))
            shot = None
        play_hand_card(page, legal[len(legal) // 2])
        plays += 1
    assert tried_illegal, "some turn had a card that could not be played"

    # The end: the score row of the hand, the totals, the standings.
    expect(page.get_by_test_id("status")).to_have_attribute("data-status", "over")
    expect(page.get_by_test_id("turn-indicator")).to_contain_text("Game over")
    scores = page.get_by_test_id("scores")
    expect(scores).to_be_visible()
    # One hand, or more when the lowest totals tie (rules-baha.md): a row per hand.
    rows = scores.locator("tbody tr:not(.total)")
    hands = rows.count()
    assert hands >= 1 and plays == 13 * hands, f"played {plays} cards in {hands} hands of 13"
    totals = [0] * 4
    for h in range(hands):
        expect(rows.nth(h).locator("th")).to_have_text(str(h + 1))
        row = [int(t) for t in rows.nth(h).locator("td").all_inner_texts()]
        assert len(row) == 4 and sum(row) in (60, 180), row   # 60 horns a hand, or a moon
        totals = [t + p for t, p in zip(totals, row, strict=True)]
    assert [int(t) for t in scores.locator("tr.total td").all_inner_texts()] == totals
    points = totals
    standings = page.get_by_test_id("standings")
    expect(standings).to_be_visible()
    expect(standings.locator("li")).to_have_count(4)
    best = min(points)
    winners = [i for i, p in enumerate(points) if p == best]
    first = standings.locator("li").first
    expect(first).to_contain_text("1st")
    expect(first).to_contain_text(f"{best} point")
    expect(standings.locator("h2")).to_contain_text("You win!" if winners == [0] else "win")
    expect(standings.get_by_test_id("replay-link")).to_be_visible()
    expect(page.get_by_test_id("hand")).to_have_attribute("data-count", "0")
    expect(page.get_by_test_id("log").locator("li[data-t=end]")).to_have_count(1)
    assert status(page) == "over"
    final = server.get(f"/api/tables/{table['id']}")
    assert final["status"] == "over"


def card_words(card: str) -> str:
    """The words the page uses for a Baha card: "13R" is "13 Red"."""
    colours = {"P": "Purple", "R": "Red", "T": "Turquoise", "O": "Orange"}
    return f"{card[:-1]} {colours[card[-1]]}"


def test_play_a_card_with_the_keyboard_only(server: ServeProcess, context: BrowserContext) -> None:
    table = server.create(game="baha", rules={"passing": False, "target": 1}, name="Kay",
                          seats=["human", "heuristic", "heuristic", "heuristic"])
    page = open_table(context, server, table["id"], table["token"])
    assert wait_turn_or_over(page) == "turn"
    hand = hand_cards(page)
    legal = legal_cards(page)
    # Tab stops: keyboard only, from the top of the page to the hand.
    page.keyboard.press("h")
    focused = page.evaluate("() => document.activeElement.dataset.card")
    assert focused == legal[0], "h focuses the first playable card"
    # Walk to the last card and back to the chosen one with the arrow keys.
    page.keyboard.press("End")
    assert page.evaluate("() => document.activeElement.dataset.card") == hand[-1]
    page.keyboard.press("Home")
    assert page.evaluate("() => document.activeElement.dataset.card") == hand[0]
    target = legal[-1]
    for _ in range(hand.index(target)):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.card") == target
    before = seq(page)
    page.keyboard.press("Enter")
    wait_seq_above(page, before)
    assert target not in hand_cards(page)
    # The card is on the table: in the trick, or in the last trick (its button shows it) once
    # the trick is complete.
    if not page.get_by_test_id(f"trick-card-{target}").is_visible():
        page.get_by_test_id("last-trick-button").click()
    shown = page.locator(f"[data-testid=trick-card-{target}], [data-testid=last-trick-{target}]")
    expect(shown.first).to_be_visible()
    expect(page.get_by_test_id("log")).to_contain_text(f"Kay plays {card_words(target)}")
