"""Nothing lost: the server is killed mid-game and started again; the page comes back by
itself to the same game, and play goes on."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import (
    ServeProcess,
    hand_cards,
    legal_cards,
    open_table,
    seq,
    wait_seq_above,
    wait_turn_or_over,
)
from playwright.sync_api import BrowserContext, expect


def test_a_killed_server_comes_back_and_the_page_plays_on(context: BrowserContext, tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = ServeProcess(data)
    port = int(first.base.rsplit(":", 1)[1])
    try:
        t = first.create(game="baha", rules={"passing": False, "target": 1}, name="Ada",
                         seats=["human", "heuristic", "heuristic", "heuristic"])
        page = open_table(context, first, t["id"], t["token"])
        for _ in range(2):  # two cards played by clicking before the crash
            assert wait_turn_or_over(page) == "turn"
            before = seq(page)
            page.get_by_test_id(f"card-{legal_cards(page)[0]}").click()
            wait_seq_above(page, before)
        assert wait_turn_or_over(page) == "turn"
        at_crash, hand = seq(page), sorted(hand_cards(page))
    finally:
        first.kill()
    expect(page.get_by_test_id("connection")).not_to_have_text("connected")
    try:
        second = ServeProcess(data, port=port)
    except RuntimeError as err:  # the port was taken by someone else meanwhile
        pytest.fail(f"could not start the server again on port {port}: {err}")
    try:
        # The page reconnects by itself and shows the same game: same seq, same hand.
        expect(page.get_by_test_id("connection")).to_have_text("connected", timeout=30_000)
        page.wait_for_function("s => Number(document.body.dataset.seq) === s", arg=at_crash)
        assert sorted(hand_cards(page)) == hand
        assert wait_turn_or_over(page) == "turn"
        page.get_by_test_id(f"card-{legal_cards(page)[0]}").click()
        assert wait_seq_above(page, at_crash) > at_crash
        assert len(second.get(f"/api/tables/{t['id']}")["seats"]) == 4
    finally:
        second.stop()
