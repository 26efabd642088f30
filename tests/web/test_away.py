"""A person gone from a running game (every connection closed): past the grace period a
stand-in plays their seat while another person is at the table, so no table freezes; back,
the seat is theirs again. With nobody at the table, the game waits."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import select
from web_support import TIMEOUT, Client, LiveServer, play_out

from cardroom.web.schema import ActionRow

GRACE = 0.5


def actions_by(server: LiveServer, table_id: str) -> list[tuple[int, int, str]]:
    """The table's actions: (seq, seat, who chose it)."""
    with server.manager.store.engine.connect() as db:
        rows = db.execute(select(ActionRow.seq, ActionRow.seat, ActionRow.by)
                          .where(ActionRow.table_id == table_id).order_by(ActionRow.seq)).all()
    return [(seq, seat, by) for seq, seat, by in rows]


def two_people(server: LiveServer) -> tuple[dict[str, Any], Client, Client]:
    """A running Baha game of one hand, no turn timer: Ada at seat 0, Bo at seat 1 (his token
    kept in the answer as ``bo_token``)."""
    t = server.create(game="baha", players=2, rules={"target": 1}, name="Ada", seats=["human", "human"])
    assert t["timer"] is None
    t["bo_token"] = server.join(t["id"], "Bo")["token"]
    return t, server.client(t["id"], t["token"]), server.client(t["id"], t["bo_token"])


def act(client: Client) -> bool:
    """Take the client's first move if it is asked to act now; whether it did."""
    u = client.last
    if u is None or not u["moves"] or u["seq"] in client.acted:
        return False
    client.acted.add(u["seq"])
    client.send({"type": "act", "action": u["moves"][0]["action"], "seq": u["seq"]})
    return True


def test_a_person_gone_mid_game_is_played_by_a_stand_in_and_takes_the_seat_back(server: LiveServer) -> None:
    server.manager.away_after = GRACE
    t, ada, bo = two_people(server)
    table = server.manager.tables[t["id"]]
    # Ada makes two decisions, then her tab closes; Bo plays on alone.
    end = time.monotonic() + TIMEOUT
    while len(ada.acted) < 2:
        assert time.monotonic() < end, f"Ada was not asked twice; the table at seq {table.seq}"
        for c in (ada, bo):
            c.drain(0.01)
            act(c)
    ada.close()
    gone_at = time.monotonic()
    # Bo is not left waiting for ever: past the grace period a stand-in plays her turns.
    end = time.monotonic() + TIMEOUT
    while (0, "heuristic (stand-in)") not in {(seat, by) for _, seat, by in actions_by(server, t["id"])}:
        assert time.monotonic() < end, (
            f"no stand-in played for Ada: the table at seq {table.seq}, turn "
            f"{table.state.current_player}, away {table.away}, gone {table.gone}")
        bo.drain(0.02)
        act(bo)
    assert time.monotonic() - gone_at >= GRACE  # not before her grace period ended
    assert bo.wait(lambda u: u["table"]["seats"][0]["away"] is True)["table"]["status"] == "running"
    # Ada comes back (the same token, a new connection): the seat is hers again.
    back = server.client(t["id"], t["token"])
    assert back.welcome is not None and back.welcome["seat"] == 0
    assert back.welcome["table"]["seats"][0]["away"] is False
    assert bo.wait(lambda u: u["table"]["seats"][0]["away"] is False and u["table"]["seats"][0]["connected"])
    returned = max(seq for seq, _, _ in actions_by(server, t["id"]))
    play_out([back, bo])
    assert back.last is not None and back.last["table"]["status"] == "over"
    later = [(seat, by) for seq, seat, by in actions_by(server, t["id"]) if seq > returned + 1]
    assert (0, "human") in later and (0, "heuristic (stand-in)") not in later  # her own moves again
    back.close()
    bo.close()


def test_with_nobody_at_the_table_the_game_waits_for_its_people(server: LiveServer) -> None:
    server.manager.away_after = GRACE
    t, ada, bo = two_people(server)
    table = server.manager.tables[t["id"]]
    ada.close()
    bo.close()
    time.sleep(4 * GRACE)
    seq = table.seq
    assert not table.away and actions_by(server, t["id"]) == []  # nobody here: no stand-in plays
    # Bo comes back: Ada, gone past her grace period, is played by a stand-in; Bo is not.
    again = server.client(t["id"], t["bo_token"])
    assert again.welcome is not None and again.welcome["table"]["seats"][0]["away"] is True
    assert again.welcome["table"]["seats"][1]["away"] is False
    play_out([again])
    assert table.status == "over" and seq == 0
    by = {(seat, who) for _, seat, who in actions_by(server, t["id"])}
    assert by == {(0, "heuristic (stand-in)"), (1, "human")}
    again.close()
