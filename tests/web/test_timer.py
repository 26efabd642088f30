"""The turn timer: a person out of time is played by a heuristic bot until back."""

from __future__ import annotations

import time

from sqlalchemy import select
from web_support import LiveServer, play_out

from cardroom.web.store import ActionRow


def test_timer_stand_in_and_coming_back(server: LiveServer) -> None:
    t = server.create(game="baha", players=2, rules={"target": 1}, timer=1, name="Ada", seats=["human", "human"])
    bo_seat = server.join(t["id"], "Bo")
    ada = server.client(t["id"], t["token"])
    bo = server.client(t["id"], bo_seat["token"])
    deadlines = []
    end = time.monotonic() + 20
    # Bo plays at once; Ada never does: after a second her seat is away and a bot plays it.
    while True:
        assert time.monotonic() < end, "Ada was never marked away"
        for c in (ada, bo):
            c.drain(0.01)
        u = bo.last
        assert u is not None
        if u["view"]["current_player"] == 0 and u["deadline"] is not None:
            deadlines.append(u["deadline"])
            assert 0 < u["deadline"] - u["now"] <= 1.0  # the timer is 1 s, in the server's clock
        if u["table"]["seats"][0]["away"]:
            break
        if u["moves"] and u["seq"] not in bo.acted:
            bo.acted.add(u["seq"])
            bo.send({"type": "act", "action": u["moves"][0]["action"], "seq": u["seq"]})
    assert deadlines and all(d > time.time() - 30 for d in deadlines)
    assert ada.wait(lambda u: u["table"]["seats"][0]["away"])
    # Coming back (the same token, a new connection) gives the seat back.
    again = server.client(t["id"], t["token"])
    assert again.welcome is not None and again.welcome["table"]["seats"][0]["away"] is False
    assert again.last is not None and again.last["table"]["seats"][0]["away"] is False
    ada.close()
    play_out([again, bo])
    with server.manager.store.engine.connect() as db:
        by = db.execute(select(ActionRow.seat, ActionRow.by).where(ActionRow.table_id == t["id"])).all()
    assert (0, "heuristic (stand-in)") in by
    assert (0, "human") in by  # after coming back, Ada played her own turns
