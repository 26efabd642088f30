"""The table's log tells a pass round's picks in one line (not a line a card): the reader's own
cards named, the others' counted."""

from __future__ import annotations

from browser_support import ServeProcess
from playwright.sync_api import BrowserContext, expect
from staged_table import StagedPage, stage


def test_a_pass_round_s_picks_are_one_line(server: ServeProcess, context: BrowserContext) -> None:
    table = stage("baha", 4)
    page_of = server.create(game="baha", players=2, seats=["human", "human"])["id"]
    staging = StagedPage(context, server.base)
    page = staging.show(page_of, table, "pass")
    staging.send(table.updates["turn"])  # the pass is made: the first trick is on
    picks = [e for name in ("pass", "turn") for e in table.updates[name]["events"] if e["t"] == "pass_pick"]
    assert len(picks) == 12, "each of four seats picked three cards"
    mine = ", ".join(f"{c[:-1]} {dict(P='Purple', R='Red', T='Turquoise', O='Orange')[c[-1]]}" for c in [e["card"] for e in picks if e["p"] == 0])
    mine = " and ".join(mine.rsplit(", ", 1))
    lines = page.get_by_test_id("log").locator("li[data-t=pass_pick]")
    expect(lines).to_have_text([f"Ada picks {mine} to pass; Heuristic 1, Heuristic 2 and Heuristic 3 pick 3 cards each to pass."])
    # The pass itself follows, a line a seat.
    expect(page.get_by_test_id("log").locator("li[data-t=pass]")).to_have_count(4)
