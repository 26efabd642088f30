"""A whole round of BAEBAE played by clicking, one person against three heuristic bots: every
decision (play, draw, pass, declare, yes/no, target, option, select/done) answered with the
cards and move buttons the page shows."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

from browser_support import (
    GAME_S,
    ServeProcess,
    deal_at_first_turn,
    drawn_update,
    hand_cards,
    legal_cards,
    screenshot_dir,
    seat_update,
    seq,
    wait_seq_above,
    wait_turn_or_over,
)
from playwright.sync_api import BrowserContext, Page, Route, WebSocketRoute, expect

BUTTON_IDS = re.compile(r"move-(draw|pass|done|yes|no|declare-[CDHS]|target-\d|option-\d+)$")


def offered(page: Page) -> tuple[dict[str, str], dict[str, str]]:
    """What the page lets this seat do: {card: its test id} for the highlighted cards and
    {move button test id: data-action}."""
    cards = {c: f"card-{c}" for c in legal_cards(page)}
    buttons = dict(page.eval_on_selector_all(
        "[data-testid=moves] button[data-action]:not([disabled])",
        "bs => bs.map(b => [b.dataset.testid, b.dataset.action])"))
    return cards, buttons


RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def every_decision_deck() -> str:
    """A 52-card deck whose cards ask their player every kind of question: an optional action
    (yes/no) with a choice of two options (give a card to a chosen player: target, select; or
    put a card under it: select or done), then a suit to name (declare). The 8s are wild."""
    out = ['name = "Every Decision"', 'description = "Each card asks its player something."', 'types = ["Folk"]', ""]
    for suit in "CDHS":
        for rank in RANKS:
            out += ["[[card]]", f'rank = "{rank}"', f'suit = "{suit}"', f'name = "Folk {rank}{suit}"', 'types = ["Folk"]']
            if rank == "8":
                out += ['marks = ["wild"]', ""]
                continue
            out += ["[card.action]",
                    'text = "Optional: give a card to a player of your choice, or put a card under this one; then name the suit."',
                    "optional = true",
                    'effects = [{step = "choose", options = ['
                    '{label = "Give", effects = [{step = "give", who = "self", to = "chosen"}]}, '
                    '{label = "Under", effects = [{step = "discard_under", count = 1}]}]}, '
                    '{step = "declare_suit"}]', ""]
    return "\n".join(out)


WANTED = {"play", "draw", "pass", "yes", "no", "option-1", "option-2", "target", "select", "done", "declare"}
LEADS_TO = {"yes": {"option-1", "option-2", "target", "select", "done"}, "option-1": {"target", "select"},
            "option-2": {"select", "done"}, "draw": {"pass"}, "play": {"yes", "no", "declare"}}


def play_round(page: Page, server: ServeProcess, table: dict[str, Any], rng: random.Random,
               screenshot: str | None = None) -> dict[str, int]:
    """Play this seat's every decision by clicking until the game is over: a kind of move not
    made yet if one is offered, else mostly a card. Checks each time that the page offers
    exactly the server's moves. How many moves of each kind were made."""
    kinds: dict[str, int] = {}
    shot = screenshot_dir() if screenshot else None
    turns = 0
    end = time.monotonic() + GAME_S
    while wait_turn_or_over(page) == "turn":
        assert time.monotonic() < end, f"the round did not end in time ({turns} decisions)"
        turns += 1
        cards, buttons = offered(page)
        # The page offers exactly the moves the server sent this seat: cards for card moves
        # (play X, select X), a button for each other one. (Not asked on a second connection:
        # its hello makes the server send the page an update, which redraws the hand and can
        # swallow the click that follows.)
        update = drawn_update(page)
        card_moves = {m["card"]: m for m in update["moves"] if m["kind"] in ("play", "select")}
        assert set(cards) == set(card_moves), f"highlighted {sorted(cards)}, the server allows {sorted(card_moves)}"
        assert sorted(int(a) for a in buttons.values()) == sorted(
            m["action"] for m in update["moves"] if m["kind"] not in ("play", "select")), (buttons, update["moves"])
        for testid in buttons:
            assert BUTTON_IDS.match(testid), f"a move button this test does not know: {testid}"
        for card in set(hand_cards(page)) - set(cards):
            expect(page.get_by_test_id(f"card-{card}")).to_have_attribute("data-legal", "false")
        if update["view"]["pending"]:
            expect(page.get_by_test_id("pending")).to_be_visible()
        if update["view"]["drawn"]:
            expect(page.get_by_test_id("drawn")).to_contain_text("You drew")

        if shot and len(update["view"]["discard"]) >= 4 and len(hand_cards(page)) >= 4 and cards:
            shot.mkdir(parents=True, exist_ok=True)
            if page.get_by_test_id("walkthrough-skip").is_visible():
                page.get_by_test_id("walkthrough-skip").click()   # the table itself, not the first game's steps
            page.get_by_test_id(f"card-{next(iter(cards))}").hover()   # shows the card's text
            page.wait_for_timeout(500)  # the cards just played come to rest
            page.screenshot(path=str(shot / screenshot), full_page=True)  # type: ignore[operator]
            shot = None

        choices = [(card_moves[c]["kind"], f"card-{c}") for c in cards]
        # A kind is the move's verb; each option of a choice counts as its own kind.
        choices += [(b[len("move-"):] if b.startswith("move-option") else re.sub(r"^move-|-.*$", "", b), b)
                    for b in buttons]
        unseen = [c for c in choices if c[0] not in kinds]
        if not unseen:   # else a move that leads to a decision not seen yet
            missing = WANTED - set(kinds)
            unseen = [c for c in choices if LEADS_TO.get(c[0], set()) & missing]
        plays = [c for c in choices if c[0] == "play"]
        verb, testid = rng.choice(unseen or (plays if plays and rng.random() < 0.7 else choices))
        kinds[verb] = kinds.get(verb, 0) + 1
        before = seq(page)
        page.get_by_test_id(testid).click()
        wait_seq_above(page, before)
    assert turns > 0
    return kinds


def test_a_whole_round_of_baebae_by_clicking(server: ServeProcess, context: BrowserContext) -> None:
    table, page = deal_at_first_turn(server, context, game="baebae", players=4, rules={"rounds": 1}, deck="sample",
                                     name="Bo", seats=["human", "heuristic", "heuristic", "heuristic"])
    expect(page.get_by_test_id("who")).to_have_text("Seat 0: Bo")
    expect(page.get_by_test_id("discard-top")).to_be_visible()
    expect(page.get_by_test_id("suit-in-play")).to_have_attribute("data-suit", re.compile("^[CDHS]$"))

    kinds = play_round(page, server, table, random.Random(2024), screenshot="baebae-table.png")
    print(f"BAEBAE decisions by kind: {kinds}")

    expect(page.get_by_test_id("status")).to_have_attribute("data-status", "over")
    expect(page.get_by_test_id("turn-indicator")).to_contain_text("Game over")
    final = seat_update(server, table["id"], table["token"])["view"]
    assert final["phase"] == "over"
    ranking, shame, totals = final["ranking"], final["shame"], final["totals"]
    names = {s["seat"]: s["name"] or f"Heuristic {s['seat']}" for s in table["seats"]}
    names[0] = "Bo"

    scores = page.get_by_test_id("scores")
    row = scores.locator("tbody tr").first
    expect(row.locator("th")).to_have_text("1")
    assert [int(t) for t in scores.locator("tr.total td").all_inner_texts()] == totals

    standings = page.get_by_test_id("standings")
    expect(standings).to_be_visible()
    items = standings.locator("li")
    expect(items).to_have_count(4)
    for i, r in enumerate(ranking):
        item = items.nth(i)
        expect(item).to_have_attribute("data-seat", str(r["seat"]))
        expect(item.locator(".who")).to_have_text(names[r["seat"]])
        expect(item.locator(".pts")).to_have_text(f"{r['total']} point{'' if r['total'] == 1 else 's'}")
    if shame:
        line = standings.get_by_test_id("shame")
        expect(line).to_be_visible()
        expect(line).to_contain_text("bury your head in shame")
        for s in shame:
            expect(line).to_contain_text("You" if s == 0 else names[s])
        for s in set(range(4)) - set(shame):
            if s != 0:
                expect(line).not_to_contain_text(names[s])
        assert all(totals[s] == max(totals) for s in shame)
    else:
        expect(standings.get_by_test_id("shame")).to_have_count(0)
        assert len(set(totals)) == 1, "nobody is last only when everyone ties"
    expect(page.get_by_test_id("log").locator("li[data-t=round_end]")).to_have_count(1)


def test_every_kind_of_baebae_decision_by_clicking(server: ServeProcess, context: BrowserContext) -> None:
    """A deck of questions and draw_when_able: the player draws, passes, says yes and no, picks
    an option, a player, a card, stops with done and names a suit, all by clicking."""
    table, page = deal_at_first_turn(
        server, context, game="baebae", players=3, rules={"rounds": 1, "draw_when_able": True, "hand_size": 10},
        deck_toml=every_decision_deck(), name="Cy", seats=["human", "heuristic", "heuristic"])
    kinds = play_round(page, server, table, random.Random(7))
    print(f"BAEBAE decisions by kind: {kinds}")
    assert set(kinds) >= WANTED, f"decisions never offered: {sorted(WANTED - set(kinds))} (made: {kinds})"
    expect(page.get_by_test_id("standings")).to_be_visible()
    expect(page.get_by_test_id("standings").locator("li")).to_have_count(3)


def without_action_text(message: str | bytes, taken: list[int]) -> str | bytes:
    """A server's message with the text of every move taken out (counted in ``taken``): what is
    left is the data."""
    try:
        parsed = json.loads(message)
    except ValueError:
        return message
    if isinstance(parsed, dict) and parsed.get("type") == "update":
        for move in parsed.get("moves") or []:
            del move["text"]
            taken[0] += 1
    return json.dumps(parsed)


MOVES_IN_PAGE = "async () => (await import('/static/table.js')).state.moves"


def test_the_pages_play_and_replay_on_the_moves_fields_alone(server: ServeProcess, context: BrowserContext) -> None:
    """The server's moves carry decode()'s fields beside their text: with the text taken out of
    every move (live) and every replay step, the table page still offers and takes every kind
    of decision, and the replay still says each move in words."""
    taken = [0]

    def route(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        upstream.on_message(lambda message: ws.send(without_action_text(message, taken)))

    context.route_web_socket(re.compile(r".*/ws/tables/.*"), route)
    table, page = deal_at_first_turn(
        server, context, game="baebae", players=3, rules={"rounds": 1, "draw_when_able": True, "hand_size": 10},
        deck_toml=every_decision_deck(), name="Di", seats=["human", "heuristic", "heuristic"])
    moves = page.evaluate(MOVES_IN_PAGE)
    assert moves and all("text" not in m and m["kind"] for m in moves), moves  # the page got data alone
    kinds = play_round(page, server, table, random.Random(7))
    assert set(kinds) >= WANTED, f"decisions never offered: {sorted(WANTED - set(kinds))} (made: {kinds})"
    assert taken[0] > 20

    def replay_without_text(r: Route) -> None:
        answer = r.fetch().json()
        for step in answer["steps"]:
            del step["action"]
        r.fulfill(json=answer)

    context.route(re.compile(r".*/api/tables/[^/]+/replay.*"), replay_without_text)
    steps = server.get(f"/api/tables/{table['id']}/replay?seat=0")["steps"]
    replay = context.new_page()
    replay.goto(f"{server.base}/replay/{table['id']}?seat=0")
    said = replay.get_by_test_id("replay-action")
    expect(said).to_have_text("The deal")
    shown = {}
    for i, step in enumerate(steps[1:40], start=1):
        replay.get_by_test_id("replay-next").click()
        expect(replay.locator("body")).to_have_attribute("data-step", str(i))
        words = said.inner_text()
        if step["hidden"]:
            assert words.endswith("a hidden choice"), words
        else:
            assert step["move"]["kind"] in words, (words, step["move"])
            shown[step["move"]["kind"]] = words
    assert "play" in shown and len(shown) >= 3, shown
