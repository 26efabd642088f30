"""The wait for a person's first turn at a table (browser_support.deal_at_first_turn, which the
tests that wait for one at BAEBAE tables use), on a deal known to end its first round before that
turn: a one-round table over without a turn is left and another dealt, and a round's result on
the way is closed with Continue. The server is started with the deal's seed pinned
(browser_support.SEEDED_SERVE); the seed is found here by playing the deals as the server does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import ServeProcess, deal_at_first_turn, drawn_update, seq, wait_seq_above
from playwright.sync_api import BrowserContext, expect

from cardroom.agents import make
from cardroom.engine import State
from cardroom.games import make_rules, start_game
from cardroom.match import choose

SEATS = ["human", "heuristic", "heuristic", "heuristic"]
TABLE: dict[str, Any] = {"game": "baebae", "players": 4, "deck": "sample", "name": "Bo", "seats": SEATS}


def until_seat_0(rounds: int, seed: int) -> State:
    """The deal of ``seed`` played by the server's heuristic bots at seats 1 to 3 (each seeded
    as web/play.py seeds a table's bot: the table's seed plus 7919 times the seat plus one)
    until seat 0 is asked to play or the game is over."""
    state = start_game(make_rules("baebae", {"players": 4, "rounds": rounds}), seed)
    bots = {seat: make("heuristic", seed=seed + 7919 * (seat + 1)) for seat in range(1, 4)}
    while not state.is_over and state.current_player != 0:
        seat = state.current_player
        assert seat is not None
        state.apply(choose(bots[seat], state, seat))
    return state


@pytest.fixture(scope="module")
def seed_over_first() -> int:
    """A seed whose first round the bots end before seat 0's first turn (a one-round game is
    then over), and whose second round does give seat 0 a turn (a two-round game)."""
    for seed in range(50_000):  # about one deal in 1,400 at four seats: a second or two
        if until_seat_0(1, seed).is_over:
            state = until_seat_0(2, seed)
            if not state.is_over and [e["t"] for e in state.log].count("round_end") == 1:
                return seed
    raise AssertionError("no deal of 50,000 ends before seat 0's first turn")


@pytest.fixture
def pinned(seed_over_first: int, tmp_path: Path) -> Iterator[tuple[ServeProcess, list[dict[str, Any]]]]:
    """A server whose first table is dealt from ``seed_over_first``, and the tables it made."""
    server = ServeProcess(tmp_path / "data", first_seeds=(seed_over_first,))
    made: list[dict[str, Any]] = []
    create = server.create

    def kept(**body: Any) -> dict[str, Any]:
        made.append(create(**body))
        return made[-1]

    server.create = kept  # type: ignore[method-assign]
    try:
        yield server, made
    finally:
        server.stop()


def test_a_one_round_table_over_before_the_person_s_first_turn_is_left_and_another_dealt(
        pinned: tuple[ServeProcess, list[dict[str, Any]]], seed_over_first: int, context: BrowserContext) -> None:
    server, made = pinned
    table, page = deal_at_first_turn(server, context, rules={"rounds": 1}, **TABLE)
    assert len(made) == 2 and table == made[1], made
    first = server.get(f"/api/tables/{made[0]['id']}/record")
    # The case itself: the pinned deal, over, and not one action of the person's seat.
    assert first["seed"] == seed_over_first
    assert server.get(f"/api/tables/{made[0]['id']}")["status"] == "over"
    assert first["actions"] and not [a for a in first["actions"] if a[0] == 0], first["actions"]
    assert context.pages == [page], "the first table's tab is left"
    assert server.get(f"/api/tables/{table['id']}")["status"] == "running"
    before = seq(page)
    page.locator("[data-testid=hand] button[data-legal=true], [data-testid=moves] button[data-action]").first.click()
    wait_seq_above(page, before)  # the turn is the person's to play


def test_a_round_over_before_the_person_s_first_turn_is_read_and_continued(
        pinned: tuple[ServeProcess, list[dict[str, Any]]], seed_over_first: int, context: BrowserContext) -> None:
    """Two rounds: the first is over before the person's first turn. Its result is shown to a
    page that was open when it ended (here: a browser that had seen no result of the table),
    and is closed with Continue; the person's first turn is in the second round."""
    server, made = pinned
    # A page's count of results seen (table.js SEEN_KEY): none, as on a page open since the deal.
    context.add_init_script("if (location.pathname.startsWith('/table/')) "
                            "localStorage.setItem('cardroom.results.' + location.pathname.split('/')[2], '0')")
    table, page = deal_at_first_turn(server, context, rules={"rounds": 2}, **TABLE)
    assert len(made) == 1, made
    assert drawn_update(page)["view"]["round"] == 2, "the person's first turn is in the second round"
    expect(page.get_by_test_id("hand-result")).to_have_count(0)
    assert page.evaluate(f"() => localStorage.getItem('cardroom.results.{table['id']}')") == "1", \
        "the first round's result was shown and closed with Continue"
    expect(page.get_by_test_id("log").locator("li[data-t=round_end]")).to_have_count(1)
