"""The turn timer: a person out of time is played by a heuristic bot until back."""

from __future__ import annotations

import time

from sqlalchemy import select
from web_support import TIMEOUT, LiveServer, play_out

from cardroom.web.schema import ActionRow


def test_timer_stand_in_and_coming_back(server: LiveServer) -> None:
    t = server.create(game="baha", players=2, rules={"target": 1}, timer=1, name="Ada", seats=["human", "human"])
    bo_seat = server.join(t["id"], "Bo")
    ada = server.client(t["id"], t["token"])
    bo = server.client(t["id"], bo_seat["token"])
    deadlines = []
    table = server.manager.tables[t["id"]]
    end = time.monotonic() + 2 * TIMEOUT
    # Bo plays at once; Ada never does: after a second her seat is away and a bot plays it.
    while True:
        assert time.monotonic() < end, (
            f"Ada was never marked away: the table at seq {table.seq}, current player "
            f"{table.state.current_player if table.state else None}, away {table.away}, deadline "
            f"{table.deadline} (now {time.time()}), task {table.task}; Bo's last update "
            f"{bo.last!r:.400}; Bo acted on {sorted(bo.acted)}; Bo's messages {len(bo.messages)}")
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


def test_coming_back_leaves_another_seats_bot_thinking(server: LiveServer) -> None:
    """A player back from being away stops only their own stand-in: a bot thinking for another
    seat is not started again (its agent would be asked twice at once, in two threads)."""
    import threading

    from cardroom.agents import make

    t = server.create(game="baha", players=3, rules={"target": 1}, timer=1, name="Ada",
                      seats=["human", "human", "random"])
    table = server.manager.tables[t["id"]]
    inner = make("random", seed=1)
    thinking = threading.Event()
    release = threading.Event()
    lock = threading.Lock()
    calls = {"now": 0, "most": 0}

    class Slow:
        def act(self, state, seat):  # type: ignore[no-untyped-def]
            with lock:
                calls["now"] += 1
                calls["most"] = max(calls["most"], calls["now"])
            thinking.set()
            release.wait(10)
            with lock:
                calls["now"] -= 1
            return inner.act(state, seat)

    table.agents[2] = Slow()
    bo = server.join(t["id"], "Bo")  # the game starts; nobody plays: both people run out of time
    assert thinking.wait(15), "the bot at seat 2 was never asked"
    assert table.state.current_player == 2 and {0, 1} & table.away
    back = 0 if 0 in table.away else 1
    again = server.client(t["id"], t["token"] if back == 0 else bo["token"])
    assert again.welcome is not None and again.welcome["table"]["seats"][back]["away"] is False
    time.sleep(0.3)
    release.set()
    again.wait(lambda u: u["seq"] >= 1 and u["view"]["current_player"] != 2)
    assert calls["most"] == 1
