"""Bad WebSocket messages: each gets an error to its sender only, and nothing changes."""

from __future__ import annotations

import json

import pytest
from web_support import Client, LiveServer
from websockets.exceptions import ConnectionClosed


def error_of(client: Client, message: object) -> dict:
    client.send(message)
    reply = client.recv(5)
    assert reply["type"] == "error", reply
    return reply


@pytest.fixture
def two(server: LiveServer) -> tuple[LiveServer, str, Client, Client, Client]:
    """A Baha table of two people (seats 0 and 1) and a bot, with a spectator."""
    table = server.create(game="baha", players=3, rules={"target": 1}, name="Ada",
                          seats=["human", "human", "heuristic"])
    bo = server.join(table["id"], "Bo")
    ada = server.client(table["id"], table["token"])
    bo_c = server.client(table["id"], bo["token"])
    watcher = server.client(table["id"])
    for c in (ada, bo_c, watcher):
        c.drain(0.1)
    return server, table["id"], ada, bo_c, watcher


def test_bad_messages_change_nothing(two: tuple[LiveServer, str, Client, Client, Client]) -> None:
    server, table_id, ada, bo, watcher = two
    table = server.manager.tables[table_id]
    assert ada.last is not None
    seq = ada.last["seq"]
    turn = ada.last["view"]["current_player"]
    mover, other = (ada, bo) if turn == 0 else (bo, ada)
    assert mover.last is not None and other.last is not None
    log_before = len(table.state.log)

    cases = [
        ("not json", "bad_message"),
        (b"\xff\xfe", "bad_message"),
        ("[1, 2]", "bad_message"),
        ('"act"', "bad_message"),
        ({"type": "dance"}, "bad_message"),
        ({"kind": "act"}, "bad_message"),
        ({"type": "act", "action": "play 9P", "seq": seq}, "bad_message"),
        ({"type": "act", "action": True, "seq": seq}, "bad_message"),
        ({"type": "act", "action": 1.5, "seq": seq}, "bad_message"),
        ({"type": "act", "seq": seq}, "bad_message"),
        ({"type": "act", "action": -3, "seq": seq}, "bad_message"),
        ({"type": "act", "action": 1, "seq": seq, "extra": 1}, "bad_message"),
        ({"type": "act", "action": 10**400, "seq": seq}, "bad_message"),
        ("[" * 3000 + "]" * 3000, "bad_message"),
        ({"type": "act", "action": 1, "seq": seq, "pad": "x" * 5000}, "bad_message"),
        ({"type": "hello", "token": None}, "bad_message"),  # hello twice
        ({"type": "act", "action": mover.last["moves"][0]["action"], "seq": seq + 1}, "stale"),
        ({"type": "act", "action": 9999, "seq": seq}, "illegal"),
    ]
    for message, code in cases:
        reply = error_of(mover, message)
        assert reply["code"] == code, (message if len(str(message)) < 100 else str(message)[:100], reply)
        assert reply["message"]
    big = error_of(mover, {"type": "ping", "pad": "y" * 5000})
    assert "4096" in big["message"]
    # an illegal move lists the mover's own moves, to the mover only
    illegal = error_of(mover, {"type": "act", "action": 9999, "seq": seq})
    assert "allowed" in illegal["message"]
    # the other seat: not its turn, whatever it sends
    assert error_of(other, {"type": "act", "action": mover.last["moves"][0]["action"], "seq": seq})["code"] \
        == "not_your_turn"
    assert error_of(watcher, {"type": "act", "action": 0, "seq": seq})["code"] == "spectator"
    watcher.send({"type": "ping"})
    assert watcher.recv(5) == {"type": "pong"}
    # nobody else heard of any of it, and the game did not move
    for c in (other, watcher):
        assert c.drain(0.2) == []
    assert table.seq == seq and len(table.state.log) == log_before
    assert server.manager.store.actions(table_id) == list(a for _, a in table.state.history)
    # the mover can still act, with the right seq
    mover.send({"type": "act", "action": mover.last["moves"][0]["action"], "seq": seq})
    assert mover.wait(lambda u: u["seq"] == seq + 1)["seq"] == seq + 1
    assert other.wait(lambda u: u["seq"] == seq + 1)


def test_before_hello_and_unknown_tokens(server: LiveServer) -> None:
    table = server.create(game="baha", players=2, rules={"target": 1}, name="Ada", seats=["human", "random"])
    c = Client(server.base.replace("http", "ws", 1), table["id"], None, hello=False)
    assert error_of(c, {"type": "act", "action": 0, "seq": 0})["code"] == "not_seated"
    assert error_of(c, {"type": "hello", "token": "not-a-token"})["code"] == "not_seated"
    assert error_of(c, {"type": "hello", "token": 7})["code"] == "bad_message"
    assert error_of(c, '{"type": "hello", "token": "\\ud800"}')["code"] == "bad_message"  # not a server error
    c.send({"type": "hello", "token": table["token"]})
    welcome = c.expect("welcome")
    assert welcome["seat"] == 0
    update = c.expect("update")
    assert update["events"] and update["view"]["seat"] == 0
    assert update["seq"] == len(server.manager.store.actions(table["id"]))


def test_unknown_table_and_waiting_table(server: LiveServer) -> None:
    c = Client(server.base.replace("http", "ws", 1), "nope", None, hello=False)
    reply = c.recv(5)
    assert reply["code"] == "not_found"
    table = server.create(game="baebae", players=2, rules={"rounds": 1}, name="Ada", seats=["human", "human"])
    ada = server.client(table["id"], table["token"])
    assert ada.last is not None and ada.last["view"] is None and ada.last["seq"] == 0
    assert error_of(ada, {"type": "act", "action": 0, "seq": 0})["code"] == "not_your_turn"


def test_finished_game_refuses_actions(server: LiveServer) -> None:
    table = server.create(game="baha", players=3, rules={"target": 1}, seats=["random"] * 3)
    watcher = server.client(table["id"])
    watcher.wait(lambda u: u["table"]["status"] == "over")
    # a player at a finished table: the seat's token would be needed; a spectator is told it watches
    assert error_of(watcher, {"type": "act", "action": 0, "seq": watcher.last["seq"]})["code"] == "spectator"
    people = server.create(game="baha", players=2, rules={"target": 1}, name="Ada", seats=["human", "random"])
    ada = server.client(people["id"], people["token"])
    from web_support import play_out

    play_out([ada])
    assert ada.last is not None
    assert error_of(ada, {"type": "act", "action": 0, "seq": ada.last["seq"]})["code"] == "over"


def test_message_over_the_frame_limit_closes_only_that_connection(server: LiveServer) -> None:
    table = server.create(game="baha", players=2, rules={"target": 1}, name="Ada", seats=["human", "random"])
    ada = server.client(table["id"], table["token"])
    rude = server.client(table["id"])
    rude.send(json.dumps({"type": "ping", "pad": "z" * 100_000}))
    with pytest.raises(ConnectionClosed):  # closed by the server: the frame is too big
        for _ in range(100):
            assert rude.recv(5)["type"] == "update"
    ada.send({"type": "ping"})
    assert {"type": "pong"} in ada.drain(0.5)


def codes_until_closed(client: Client) -> list[str]:
    """The error codes a connection gets until the server closes it."""
    codes = []
    with pytest.raises(ConnectionClosed):
        for _ in range(100):
            message = client.recv(5)
            if message["type"] == "error":
                codes.append(message["code"])
    return codes


def test_watchers_cannot_keep_a_player_from_their_seat(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardroom.web import play

    monkeypatch.setattr(play, "MAX_CONNECTIONS", 3)
    table = server.create(game="baha", players=2, rules={"target": 1}, name="Ada", seats=["human", "random"])
    watchers = [server.client(table["id"]) for _ in range(2)]
    lurker = Client(server.base.replace("http", "ws", 1), table["id"], None, hello=False)  # never says hello
    ada = server.client(table["id"], table["token"])  # the table is full: the oldest watcher makes room
    assert ada.welcome is not None and ada.welcome["seat"] == 0
    assert "full" in codes_until_closed(watchers[0])
    live = server.manager.tables[table["id"]].conns
    assert len(live) == 3 and sum(c.seat == 0 for c in live) == 1
    late = Client(server.base.replace("http", "ws", 1), table["id"], None, hello=False)
    assert len(live) == 4  # seated connections are bounded apart: three without a seat, and Ada
    more = server.client(table["id"])  # a fourth without a seat: the oldest of them, a watcher, goes
    assert "full" in codes_until_closed(watchers[1])
    assert sum(c.seat is None for c in live) == 3
    for c in (ada, more):
        c.send({"type": "ping"})
        assert {"type": "pong"} in c.drain(0.3)
    for c in (lurker, late, more, ada):
        c.close()


def test_a_client_that_stops_reading_is_dropped() -> None:
    """Past the queue's bound a connection is closed at once, even while a send waits on the client."""
    import asyncio

    from cardroom.web.tables import MAX_QUEUED_BYTES, Connection

    async def scenario() -> None:
        stuck = asyncio.Event()

        async def send(text: str) -> None:
            stuck.set()
            await asyncio.Future()  # the client never reads: this send never completes

        conn = Connection(send)
        writer = asyncio.create_task(conn.write())
        conn.push({"type": "update", "pad": "x" * 1000})
        await asyncio.wait_for(stuck.wait(), 5)
        big = {"type": "update", "pad": "y" * 100_000}
        pushed = 0
        while not conn.closed:
            conn.push(big)
            pushed += 1
            assert pushed * 100_000 <= 2 * MAX_QUEUED_BYTES
        assert conn.queued == 0  # what was queued is let go
        await asyncio.wait_for(asyncio.gather(writer, return_exceptions=True), 5)  # the stuck send ends
        conn.push(big)
        assert conn.queue.qsize() <= 1

    # In a thread of its own: a browser test's Playwright (run earlier by the same worker) keeps
    # an event loop running in this one for the session.
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, scenario()).result(60)


def test_a_second_tab_of_a_seat_sends_the_others_nothing(server: LiveServer) -> None:
    t = server.create(game="baha", players=2, rules={"target": 1}, seats=["human", "human"], name="Ada")
    bo_seat = server.join(t["id"], "Bo")
    bo = server.client(t["id"], bo_seat["token"])
    bo.drain(0.3)
    ada = server.client(t["id"], t["token"])  # Ada's first connection: Bo sees her connected
    seen = bo.wait(lambda u: u["table"]["seats"][0]["connected"])
    assert seen["seq"] == 0 or seen["seq"] == ada.last["seq"]
    bo.drain(0.3)
    ada2 = server.client(t["id"], t["token"])  # a second tab changes nothing Bo can see
    assert ada2.welcome is not None and ada2.welcome["seat"] == 0
    assert [m for m in bo.drain(0.5) if m["type"] == "update"] == []
    ada2.close()
    assert [m for m in bo.drain(0.5) if m["type"] == "update"] == []  # Ada is still there
    ada.close()
    gone = bo.wait(lambda u: not u["table"]["seats"][0]["connected"])
    assert gone["type"] == "update"
