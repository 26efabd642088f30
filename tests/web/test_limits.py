"""Limits that keep one client from exhausting the server: bodies, texts, tables, connections."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_support import LiveServer, is_over

from cardroom.record import verify


def test_a_chunked_body_over_the_limit_is_413(server: LiveServer) -> None:
    def chunks() -> Iterator[bytes]:  # no content-length: sent chunked
        for _ in range(40):
            yield b" " * (10 * 1024)

    r = server.http.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "at most 320 KiB" in r.json()["detail"]

    def small() -> Iterator[bytes]:
        yield b'{"game": '
        yield b'"baha"}'

    r = server.http.post("/api/tables", content=small(), headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text


def client_from(server: LiveServer, address: str) -> httpx.Client:
    """An HTTP client whose connections come from another loopback address (another client)."""
    return httpx.Client(base_url=server.base, timeout=20, transport=httpx.HTTPTransport(local_address=address))


def test_table_creation_is_rate_limited_per_address(server: LiveServer) -> None:
    from cardroom.web.guard import CREATES_PER_MINUTE

    with client_from(server, "127.0.0.2") as hasty, client_from(server, "127.0.0.3") as other:
        for _ in range(CREATES_PER_MINUTE):
            assert hasty.post("/api/tables", json={"game": "baha"}).status_code == 200
        r = hasty.post("/api/tables", json={"game": "baha"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert f"{CREATES_PER_MINUTE} tables a minute" in r.json()["detail"]
        assert hasty.post("/api/tables", json={"game": "nope"}).status_code == 429  # checked first
        assert other.post("/api/tables", json={"game": "baha"}).status_code == 200  # others are not held up
    assert len(server.http.get("/api/tables").json()) == CREATES_PER_MINUTE + 1


def test_unfinished_tables_are_capped_per_address(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardroom.web import guard

    monkeypatch.setattr(guard, "CREATES_PER_MINUTE", 1000)
    monkeypatch.setattr(guard, "MAX_TABLES_PER_ADDRESS", 3)
    with client_from(server, "127.0.0.4") as busy, client_from(server, "127.0.0.5") as other:
        made = [busy.post("/api/tables", json={"game": "baha", "players": 2, "seats": ["random", "random"],
                                               "rules": {"target": 40}}).json()["id"]]
        # (a game of several hands: one of a single hand could end before the cap is checked)
        made += [busy.post("/api/tables", json={"game": "baha"}).json()["id"] for _ in range(2)]
        r = busy.post("/api/tables", json={"game": "baha"})
        assert r.status_code == 429 and "3 unfinished tables" in r.json()["detail"]
        assert other.post("/api/tables", json={"game": "baha"}).status_code == 200
        watcher = server.client(made[0])  # the bots' game ends: one more may be made
        watcher.wait(is_over)
        watcher.close()
        assert busy.post("/api/tables", json={"game": "baha"}).status_code == 200


def run_on_server(server: LiveServer, step: Callable[[], None]) -> None:
    """Run ``step`` on the server's event loop (where the table manager lives)."""
    loop = server.manager._sweeper.get_loop()

    async def call() -> None:
        step()

    asyncio.run_coroutine_threadsafe(call(), loop).result(10)


def test_games_with_no_player_for_long_end_as_abandoned(server: LiveServer) -> None:
    from cardroom.web.tables import ABANDON_AFTER

    bots = server.create(game="baha", players=3, seats=["random"] * 3, rules={"target": 10000})
    kept = server.create(game="baha", players=3, seats=["human", "random", "random"], name="Ada")
    left = server.create(game="baha", players=3, seats=["human", "random", "random"], name="Bo")
    watcher = server.client(bots["id"])  # a watcher alone does not keep a game going
    ada = server.client(kept["id"], kept["token"])
    bo = server.client(left["id"], left["token"])
    bo.close()
    end = time.monotonic() + 5
    while server.manager.tables[left["id"]].people() and time.monotonic() < end:
        time.sleep(0.02)
    for table in (bots, kept, left):
        server.manager.tables[table["id"]].seen -= ABANDON_AFTER + 1
    run_on_server(server, lambda: server.manager.sweep(time.time()))
    ended = watcher.wait(is_over, timeout=5)
    assert ended["table"]["status"] == "over"
    for table in (bots, left):
        record = server.http.get(f"/api/tables/{table['id']}/record").json()
        assert verify(record).ok and record["result"]["over"] is False  # the game so far, unfinished
    assert server.http.get(f"/api/tables/{kept['id']}").json()["status"] == "running"
    seq = ended["seq"]
    time.sleep(0.2)
    assert watcher.drain(0.1) == [] and server.manager.tables[bots["id"]].seq == seq  # the bots stopped
    watcher.close()
    ada.close()


def open_raw(server: LiveServer, address: str) -> socket.socket:
    host, port = server.base.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.bind((address, 0))
    sock.connect((host, int(port)))
    return sock


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` within ``seconds`` (whatever it sent first is read)."""
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
        return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_unfinished_requests_time_out(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardroom.web import guard

    monkeypatch.setattr(guard, "REQUEST_TIMEOUT", 1.0)
    silent = open_raw(server, "127.0.0.6")
    half_headers = open_raw(server, "127.0.0.6")
    half_headers.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: appl")
    half_body = open_raw(server, "127.0.0.6")
    half_body.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"game\"")
    started = time.monotonic()
    for sock in (silent, half_headers, half_body):
        assert closed_within(sock, 5.0)
        sock.close()
    assert time.monotonic() - started < 4.0
    assert server.http.get("/api/catalog").status_code == 200  # a whole request is answered


def test_connections_are_capped_per_address_and_in_all(server: LiveServer) -> None:
    gate = server.app.state.gate
    gate.per_address, gate.total = 5, 8
    server.http.close()  # its keep-alive connection would count too
    first = [open_raw(server, "127.0.0.7") for _ in range(5)]
    extra = open_raw(server, "127.0.0.7")
    assert closed_within(extra, 5.0)
    seconds = [open_raw(server, "127.0.0.8") for _ in range(3)]
    with client_from(server, "127.0.0.9") as late:
        r = late.get("/api/catalog")
        assert r.status_code == 503 and "8 connections" in r.json()["detail"]
        for sock in first:
            sock.close()
        time.sleep(0.2)
        assert late.get("/api/catalog").status_code == 200  # room again once others closed
    for sock in (extra, *seconds):
        sock.close()


def server_side_open(server: LiveServer, address: str) -> int:
    """Established TCP connections the server holds to a client at ``address`` (/proc/net/tcp)."""
    port = int(server.base.rsplit(":", 1)[1])
    peer = "".join(reversed([f"{int(x):02X}" for x in address.split(".")]))
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, remote, state = line.split()[1:4]
        if int(local.split(":")[1], 16) == port and remote.split(":")[0] == peer and state == "01":
            count += 1
    return count


def test_a_client_that_stops_reading_is_disconnected(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardroom.web import live

    monkeypatch.setattr(live, "MAX_QUEUED", 50)
    table = server.create(game="baha", players=3, seats=["random"] * 3, rules={"target": 10000})
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # fills up at once
    sock.bind(("127.0.0.10", 0))
    host, port = server.base.removeprefix("http://").split(":")
    sock.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws/tables/{table['id']} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    assert b"101" in sock.recv(12)
    hello = json.dumps({"type": "hello", "token": None}).encode()
    mask = os.urandom(4)
    sock.sendall(bytes([0x81, 0x80 | len(hello)]) + mask + bytes(b ^ mask[k % 4] for k, b in enumerate(hello)))
    assert server_side_open(server, "127.0.0.10") == 1
    end = time.monotonic() + 20  # it reads nothing more: the server gives up on it
    while server.manager.tables[table["id"]].conns and time.monotonic() < end:
        time.sleep(0.05)
    assert not server.manager.tables[table["id"]].conns
    end = time.monotonic() + 3
    while server_side_open(server, "127.0.0.10") and time.monotonic() < end:
        time.sleep(0.05)
    assert server_side_open(server, "127.0.0.10") == 0  # its socket is gone, not only forgotten
    sock.close()


def test_every_text_of_a_create_request_is_bounded(server: LiveServer) -> None:
    cases = [
        ({"game": "b" * 300}, "at most 40 characters"),
        ({"game": "baha", "rules": {f"r{k}": 1 for k in range(21)}}, "at most 20 rule options"),
        ({"game": "baha", "rules": {"x" * 41: 1}}, "at most 40 characters"),
        ({"game": "baha", "rules": {"scoring": "face" * 5000}}, "at most 40 characters"),
        ({"game": "baha", "rules": {"target": [100] * 10000}}, "not a list"),
        ({"game": "baha", "rules": {"target": {"a": {"b": 1}}}}, "not a list or an object"),
        ({"game": "baha", "name": "A" * 41}, "at most 40 characters"),
        ({"game": "baha", "players": 2, "seats": ["human", "r" * 201]}, "at most 200 characters"),
    ]
    for body, words in cases:
        r = server.http.post("/api/tables", json=body)
        assert r.status_code == 400, (str(body)[:80], r.text[:200])
        detail = r.json()["detail"]
        assert words in detail and len(detail) < 400, detail[:500]
    # a bot spec is kept in its shortest form: a padded one costs every summary nothing
    padded = "ismcts" + ":" * 150 + ":iterations=5"
    t = server.create(game="baha", players=2, seats=["human", padded])
    assert t["seats"][1]["bot"] == "ismcts:iterations=5"
    assert server.http.get("/api/tables").json()[0]["seats"][1]["bot"] == "ismcts:iterations=5"


def test_a_replay_is_answered_a_window_at_a_time(server: LiveServer) -> None:
    from cardroom.web.tables import MAX_REPLAY_STEPS

    table = server.create(game="baha", players=3, rules={"target": 1}, seats=["random"] * 3)
    server.client(table["id"]).wait(is_over)
    url = f"/api/tables/{table['id']}/replay"
    whole = server.http.get(url).json()
    total = whole["total"]
    assert whole["start"] == 0 and len(whole["steps"]) == total > 10
    part = server.http.get(url, params={"start": 3, "count": 5}).json()
    assert part["steps"] == whole["steps"][3:8] and part["total"] == total and part["start"] == 3
    for start, count in ((0, 1), (0, 4), (1, 3), (total - 2, 5)):  # the deal, the first action, the end
        window = server.http.get(url, params={"start": start, "count": count}).json()["steps"]
        assert window == whole["steps"][start:start + count], (start, count)
    assert server.http.get(url, params={"start": total, "count": 5}).json()["steps"] == []
    for params in ({"count": MAX_REPLAY_STEPS + 1}, {"count": 0}, {"start": -1}):
        r = server.http.get(url, params=params)
        assert r.status_code == 400, params


def test_the_cap_of_unfinished_tables_an_address_may_have_is_set_by_the_environment() -> None:
    import subprocess
    import sys

    code = "from cardroom.web import guard; print(guard.MAX_TABLES_PER_ADDRESS)"

    def run(value: str | None) -> subprocess.CompletedProcess[str]:
        import os

        env = {k: v for k, v in os.environ.items() if k != "CARDROOM_TABLES_PER_ADDRESS"}
        if value is not None:
            env["CARDROOM_TABLES_PER_ADDRESS"] = value
        return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)

    assert run(None).stdout.strip() == "20"
    assert run("5").stdout.strip() == "5"
    refused = run("many")
    assert refused.returncode != 0
    assert "CARDROOM_TABLES_PER_ADDRESS must be a whole number from 1, not 'many'" in refused.stderr


def test_hints_are_paced_per_address_and_bounded_per_server(server: LiveServer,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from cardroom.web import play
    from cardroom.web.bounded import Pace

    def seated() -> tuple[Any, int]:
        made = server.create(game="baha", players=4, rules={"target": 10000}, name="Ada",
                             seats=["human", "heuristic", "heuristic", "heuristic"])
        ada = server.client(made["id"], made["token"])
        return ada, ada.wait(lambda u: bool(u["moves"]))["seq"]

    def answer(client: Any, kinds: tuple[str, ...] = ("hint", "error")) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = client.recv()
            if message["type"] in kinds:
                return message

    server.manager.hint_pace = Pace("ask for a hint", 0.01, 2, 0.0)
    ada, seq = seated()
    for _ in range(2):
        ada.send({"type": "hint", "seq": seq})
        assert answer(ada)["type"] == "hint"
    ada.send({"type": "hint", "seq": seq})
    said = answer(ada)
    assert said["code"] == "slow_down"
    assert "this address may ask for a hint 0.01 times a second (2 at once)" in said["message"]

    # A second ask while the first waits its turn is refused, and the asker's next message waits unread.
    server.manager.hint_pace = Pace("ask for a hint", 0.5, 1, 5.0)
    monkeypatch.setattr(play, "HINTS_AT_ONCE", 1)
    ada.send({"type": "hint", "seq": seq})
    assert answer(ada)["type"] == "hint"
    ada.send({"type": "hint", "seq": seq})  # waits its turn, about 2 s
    bob, bob_seq = seated()
    bob.send({"type": "hint", "seq": bob_seq})
    said = answer(bob)
    assert said["code"] == "slow_down" and "the server is working out 1 hints, its most" in said["message"]
    began = time.monotonic()
    bob.send({"type": "ping"})
    answer(bob, ("pong",))
    assert time.monotonic() - began >= 0.8
    assert answer(ada)["type"] == "hint"
    ada.close()
    bob.close()
