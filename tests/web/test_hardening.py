"""Issue 18: what one hostile client could still do to the others, each bounded now.

Several loopback addresses (127.0.0.2, 127.0.0.3...) stand for several clients.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.exc import OperationalError
from web_support import LiveServer, in_a_loop


def client_from(server: LiveServer, address: str, **headers: str) -> httpx.Client:
    """An HTTP client whose connections come from another loopback address (another client)."""
    return httpx.Client(base_url=server.base, timeout=20, headers=headers,
                        transport=httpx.HTTPTransport(local_address=address))


# -- 8. a refused close changes nothing ---------------------------------------------------------


def test_a_close_the_database_refuses_leaves_the_table_running(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = server.create(game="baha", players=3, seats=["human", "random", "random"], name="Ada")
    ada = server.client(table["id"], table["token"])
    ada.wait(lambda u: bool(u["moves"]))

    def refuse(*args: Any) -> None:
        raise OperationalError("UPDATE tables", {}, Exception("attempt to write a readonly database"))

    monkeypatch.setattr(server.manager.store, "close_table", refuse)
    r = server.http.post(f"/api/tables/{table['id']}/close", json={"token": table["creator_token"]})
    assert r.status_code == 500
    summary = server.http.get(f"/api/tables/{table['id']}").json()
    assert summary["status"] == "running" and summary["closed"] is False
    monkeypatch.undo()
    r = server.http.post(f"/api/tables/{table['id']}/close", json={"token": table["creator_token"]})
    assert r.status_code == 200 and r.json()["table"]["closed"] is True
    ada.close()


# -- 1. X-Forwarded-For is believed only from configured proxies ------------------------------


def test_forwarded_addresses_from_a_client_do_not_dodge_the_quota(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardroom.web import guard

    monkeypatch.setattr(guard, "CREATES_PER_MINUTE", 3)
    answers = []
    for k in range(6):  # from loopback (which Uvicorn believed by default), a made-up address each time
        r = server.http.post("/api/tables", json={"game": "baha"}, headers={"X-Forwarded-For": f"10.9.{k}.1"})
        answers.append(r.status_code)
    assert answers == [200, 200, 200, 429, 429, 429]


def test_a_configured_proxy_is_believed(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardroom.web import guard

    monkeypatch.setattr(guard, "CREATES_PER_MINUTE", 2)
    live = LiveServer(tmp_path / "data", forwarded_allow_ips="127.0.0.1")
    try:
        def create(forwarded: str) -> int:
            r = live.http.post("/api/tables", json={"game": "baha"}, headers={"X-Forwarded-For": forwarded})
            return r.status_code

        assert [create("10.0.0.1") for _ in range(3)] == [200, 200, 429]
        assert create("10.0.0.2") == 200  # another client behind the proxy
        # Strings that are no address are one client, not one each.
        assert [create(f"client-{k}") for k in range(3)] == [200, 200, 429]
        # The IPv4 client as an IPv6 proxy may write it is the same client.
        assert create("::ffff:10.0.0.1") == 429
    finally:
        live.stop()


def test_one_client_is_one_address_on_a_dual_stack_server() -> None:
    from cardroom.web.guard import CREATES_PER_MINUTE, ConnectionGate, TableQuota, client_address

    assert client_address("::1") == client_address("127.0.0.1") == "127.0.0.1"
    assert client_address("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_address("2001:db8::1") == "2001:db8::1"
    quota = TableQuota()
    for k in range(CREATES_PER_MINUTE):
        quota.created("::1" if k % 2 else "127.0.0.1", f"t{k}", 0.0)
    assert quota.refusal("::1", lambda t: True, 0.0) is not None
    assert quota.refusal("127.0.0.1", lambda t: True, 0.0) is not None

    class Open:
        def is_closing(self) -> bool:
            return False

    gate = ConnectionGate(per_address=2, total=10)
    assert gate.admit("::1", 1, Open()) is None  # type: ignore[arg-type]
    assert gate.admit("127.0.0.1", 2, Open()) is None  # type: ignore[arg-type]
    assert gate.admit("::1", 3, Open()) is not None  # type: ignore[arg-type]


# -- 2. rematches count against their creator ---------------------------------------------------


def test_close_then_rematch_is_held_to_the_creators_quota(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardroom.web import guard

    monkeypatch.setattr(guard, "CREATES_PER_MINUTE", 4)
    monkeypatch.setattr(guard, "MAX_TABLES_PER_ADDRESS", 2)
    body = {"game": "baha", "players": 3, "seats": ["random"] * 3, "rules": {"target": 10000}}
    with client_from(server, "127.0.0.2") as maker, client_from(server, "127.0.0.3") as helper:
        table = maker.post("/api/tables", json=body).json()
        token = table["creator_token"]
        made, answers = 1, []
        for k in range(6):  # close, rematch, again: from the creator, or from another address
            asker = maker if k % 2 else helper
            assert asker.post(f"/api/tables/{table['id']}/close", json={"token": token}).status_code == 200
            r = asker.post(f"/api/tables/{table['id']}/rematch", json={"token": token})
            answers.append(r.status_code)
            if r.status_code != 200:
                assert "Retry-After" in r.headers and "rematch" in r.json()["detail"]
                break
            table = r.json()
            made += 1
        assert made == 4 and answers == [200, 200, 200, 429]  # the rate: 4 a minute, rematches too
    monkeypatch.setattr(guard, "CREATES_PER_MINUTE", 1000)
    with client_from(server, "127.0.0.4") as maker:
        running = [maker.post("/api/tables", json=body).json() for _ in range(2)]
        assert all(t["status"] == "running" for t in running)
        assert maker.post("/api/tables", json=body).status_code == 429
        assert maker.post(f"/api/tables/{running[0]['id']}/close",
                          json={"token": running[0]["creator_token"]}).status_code == 200
        again = maker.post(f"/api/tables/{running[0]['id']}/rematch", json={"token": running[0]["creator_token"]})
        assert again.status_code == 200  # one finished, one may follow
        assert maker.post(f"/api/tables/{running[1]['id']}/close",
                          json={"token": running[1]["creator_token"]}).status_code == 200
        assert maker.post("/api/tables", json=body).status_code == 200
        third = maker.post(f"/api/tables/{running[1]['id']}/rematch", json={"token": running[1]["creator_token"]})
        assert third.status_code == 429 and "2 unfinished tables" in third.json()["detail"]


# -- 3. one seat holds a few connections; a seat's owner always gets in --------------------------


def test_one_player_cannot_lock_another_out_of_their_seat(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from websockets.exceptions import ConnectionClosed

    from cardroom.web import play

    monkeypatch.setattr(play, "MAX_CONNECTIONS", 4)
    monkeypatch.setattr(play, "MAX_SEAT_CONNECTIONS", 2, raising=False)
    table = server.create(game="baha", players=3, seats=["human", "human", "random"], name="Ada")
    bo = server.join(table["id"], "Bo")
    hoard = [server.client(table["id"], table["token"]) for _ in range(8)]  # Ada opens tab after tab
    live = server.manager.tables[table["id"]].conns
    assert sum(c.seat == 0 for c in live) == 2  # her newest two
    for old in hoard[:6]:
        with pytest.raises(ConnectionClosed):
            for _ in range(100):
                old.recv(5)
    for _ in range(3):  # Bo's tab drops and comes back, again and again: he always gets his seat
        back = server.client(table["id"], bo["token"])
        assert back.welcome is not None and back.welcome["seat"] == 1
        back.close()
    watchers = [server.client(table["id"]) for _ in range(6)]  # watchers fill the rest
    back = server.client(table["id"], bo["token"])
    assert back.welcome is not None and back.welcome["seat"] == 1
    assert sum(c.seat is None for c in live) <= 4 and len(live) <= 4 + 2 + 1
    for c in (*hoard[6:], *watchers, back):
        c.close()


# -- 7. the one-server lock is the database file's, whatever names it ----------------------------


def test_no_url_or_link_gets_round_the_one_server_lock(tmp_path: Any) -> None:
    import os

    from cardroom.web.store import DatabaseInUse, Store

    first = Store(f"sqlite:///{tmp_path / 'cardroom.db'}")
    try:
        os.link(tmp_path / "cardroom.db", tmp_path / "linked.db")
        os.symlink(tmp_path / "cardroom.db", tmp_path / "symlinked.db")
        (tmp_path / "sub").mkdir()
        for url in (f"sqlite:///file:{tmp_path / 'cardroom.db'}?uri=true",
                    f"sqlite:///file:{tmp_path / 'sub' / '..' / 'cardroom.db'}?uri=true&cache=shared",
                    f"sqlite:///{tmp_path / 'linked.db'}", f"sqlite:///{tmp_path / 'symlinked.db'}",
                    f"sqlite:///file:{tmp_path / 'linked.db'}?uri=true"):
            with pytest.raises(DatabaseInUse, match=rf"in use by another Cardroom server \(pid {os.getpid()}\)"):
                Store(url)
    finally:
        first.close()
    again = Store(f"sqlite:///file:{tmp_path / 'linked.db'}?uri=true")  # once let go, any name opens it
    again.close()


# -- Also: a damaged database is refused at start, in words --------------------------------------


def test_a_database_that_lost_its_actions_or_everything_is_refused(tmp_path: Any) -> None:
    import sqlite3
    import subprocess
    import sys
    from pathlib import Path

    from cardroom.web.store import DatabaseDamaged, Store

    live = LiveServer(tmp_path / "data")
    try:
        live.create(game="baha", players=3, seats=["human", "random", "random"], name="Ada")
    finally:
        live.stop()
    database = tmp_path / "data" / "cardroom.db"
    with sqlite3.connect(database) as db:
        db.execute("DROP TABLE actions")
    with pytest.raises(DatabaseDamaged, match="lost its table 'actions'"):
        Store(f"sqlite:///{database}")
    cardroom = str(Path(sys.executable).with_name("cardroom"))
    done = subprocess.run([cardroom, "serve", "--port", "0", "--data", str(tmp_path / "data")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "lost its table 'actions'" in done.stderr
    assert "Traceback" not in done.stderr
    with sqlite3.connect(database) as db:  # nothing was made again in its place
        assert "actions" not in {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
    database.unlink()
    database.write_bytes(b"")
    with pytest.raises(DatabaseDamaged, match="is an empty file"):
        Store(f"sqlite:///{database}")
    database.unlink()
    Store(f"sqlite:///{database}").close()  # a new database (no file) is made as always


# -- 4. every search move is bounded in time, can be stopped, and people come first ----------------

BOTTOMLESS = Path(__file__).parent / "data" / "bottomless.toml"
"""Every card makes its player draw one: no hand shrinks, each round runs to its turn limit
(with turn_limit=100000 one ISMCTS iteration takes half a minute)."""


def bottomless_state() -> Any:
    from cardroom.games import make_rules, start_game
    from cardroom.games.baebae.rules import read_decks

    rules = make_rules("baebae", {"players": 3, "turn_limit": 100000, **read_decks(str(BOTTOMLESS))})
    return start_game(rules, 1)



def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_search_stops_at_the_moves_time_bound_and_when_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardroom.web import thinking
    from cardroom.web.thinking import BotPool, SearchTimeout

    monkeypatch.setattr(thinking, "MOVE_SECONDS", 3.0)
    state = bottomless_state()
    seat = state.current_player

    async def run() -> tuple[float, float, int]:
        pool = BotPool(1)
        try:
            assert await pool.act("random", 1, state, seat, True) in state.legal_actions()  # started
            first = pool.pids[0]
            began = time.monotonic()
            with pytest.raises(SearchTimeout):
                await pool.act("ismcts:iterations=5000", 1, state, seat, True)
            bounded = time.monotonic() - began
            assert not alive(first)  # the search was stopped, not left to run
            search = asyncio.create_task(pool.act("ismcts:iterations=5000", 1, state, seat, True))
            await asyncio.sleep(2.0)  # a new worker starts and begins to search
            second = pool.pids[0]
            search.cancel()
            began = time.monotonic()
            while alive(second) and time.monotonic() - began < 5:
                await asyncio.sleep(0.02)
            stopped = time.monotonic() - began
            assert await pool.act("random", 1, state, seat, True) in state.legal_actions()  # serves on
            return bounded, stopped, len(pool.pids)
        finally:
            pool.close()

    bounded, stopped, workers = in_a_loop(run)
    assert 3.0 <= bounded < 5.0  # not half a minute per iteration
    assert stopped < 1.0 and workers == 1


def test_search_turns_of_connected_people_go_first(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[bool] = []
    pool = server.manager.bot_pool

    async def act(spec: str, seed: int, state: Any, seat: int, people: Any) -> int:
        asked.append(people() if callable(people) else people)
        return int(state.legal_actions()[0])

    monkeypatch.setattr(pool, "act", act)
    # Ada has a seat but is not here: a stand-in plays her turns when her timer runs out.
    table = server.create(game="baha", players=3, seats=["human", "ismcts:iterations=5", "random"],
                          name="Ada", timer=1)
    end = time.monotonic() + 20
    while len(asked) < 2 and time.monotonic() < end:
        time.sleep(0.05)
    assert asked and not any(asked)  # a human seat nobody sits at is not a person
    ada = server.client(table["id"], table["token"])
    seen = len(asked)
    while len(asked) < seen + 2 and time.monotonic() < end + 20:
        ada.drain(0.05)
        u = ada.last
        if u is not None and u["moves"] and u["seq"] not in ada.acted:
            ada.acted.add(u["seq"])
            ada.send({"type": "act", "action": u["moves"][0]["action"], "seq": u["seq"]})
    assert all(asked[seen:]) and len(asked) >= seen + 2
    ada.close()


# -- 10. the bot workers die with their server ------------------------------------------------


def children_of(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if parent == pid:
                out.append(int(entry.name))
    return out


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_the_bot_workers_end_with_their_server(tmp_path: Path, how: signal.Signals) -> None:
    cardroom = str(Path(sys.executable).with_name("cardroom"))
    server = subprocess.Popen([cardroom, "serve", "--port", "0", "--data", str(tmp_path), "--bot-delay", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env=dict(os.environ, COLUMNS="300", NO_COLOR="1"))
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        base = line.split("open ", 1)[1].split()[0].rstrip("/")
        r = httpx.post(f"{base}/api/tables", json={"game": "baha", "players": 3,
                                                   "seats": ["ismcts:iterations=5000"] * 3}, timeout=20)
        assert r.status_code == 200, r.text
        end = time.monotonic() + 20
        while not children_of(server.pid) and time.monotonic() < end:
            time.sleep(0.1)
        workers = children_of(server.pid)
        assert workers, "no bot worker started"
        time.sleep(1.0)  # it is thinking now
        server.send_signal(how)
        server.wait(20)
        end = time.monotonic() + 5
        while any(alive(w) for w in workers) and time.monotonic() < end:
            time.sleep(0.05)
        assert not any(alive(w) for w in workers)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(20)


# -- 5. replays cannot keep the quick bots waiting ------------------------------------------


def test_many_replays_do_not_stop_a_table_of_quick_bots(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardroom.web import tables

    finished = server.create(game="baha", players=3, seats=["random"] * 3, rules={"target": 1})
    watcher = server.client(finished["id"])
    watcher.wait(lambda u: u["table"]["status"] == "over", timeout=60)
    watcher.close()
    slow_steps = server.manager._replay_steps

    def slow(*args: Any) -> Any:  # a replay that takes a while to work out (a long game)
        time.sleep(3.0)
        return slow_steps(*args)

    monkeypatch.setattr(server.manager, "_replay_steps", slow)
    playing = server.create(game="baha", players=3, seats=["heuristic"] * 3, rules={"target": 10000})
    live = server.manager.tables[playing["id"]]
    time.sleep(0.3)

    def replay(k: int) -> int:
        with client_from(server, "127.0.0.2") as hasty:
            return hasty.get(f"/api/tables/{finished['id']}/replay", params={"start": k, "count": 5}).status_code

    with ThreadPoolExecutor(40) as threads:
        answers = threads.map(replay, range(40))
        time.sleep(0.5)  # the replays have been asked for
        before = live.seq
        time.sleep(1.5)
        moved = live.seq - before
        answers = list(answers)
    assert moved >= 20, f"the bots' table took {moved} actions in 1.5 s"
    assert answers.count(200) == tables.MAX_REPLAYS_PER_ADDRESS and answers.count(429) == 40 - answers.count(200)
    assert server.manager._replaying == {}  # each answered: nothing is counted any more


# -- 6. the bytes queued for all connections together are bounded -----------------------------


def stuck_watcher(server: LiveServer, table_id: str, address: str) -> socket.socket:
    """A WebSocket watcher from ``address`` that says hello and then reads nothing."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # fills up at once
    sock.bind((address, 0))
    host, port = server.base.removeprefix("http://").split(":")
    sock.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    assert b"101" in sock.recv(12)
    hello = json.dumps({"type": "hello", "token": None}).encode()
    mask = os.urandom(4)
    sock.sendall(bytes([0x81, 0x80 | len(hello)]) + mask + bytes(b ^ mask[k % 4] for k, b in enumerate(hello)))
    return sock


def test_clients_that_stop_reading_cannot_hold_more_than_the_servers_bound(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardroom.web import live

    monkeypatch.setattr(live, "MAX_QUEUED_BYTES", 200_000)
    limit = 150_000
    budget = getattr(server.manager, "queue_budget", None)
    if budget is not None:
        budget.limit = limit
    table = server.create(game="baha", players=3, seats=["random"] * 3, rules={"target": 10000})
    conns = server.manager.tables[table["id"]].conns
    socks = [stuck_watcher(server, table["id"], f"127.0.0.{k}") for k in range(2, 8)]
    most = 0
    end = time.monotonic() + 8
    while time.monotonic() < end and not getattr(budget, "dropped", 0):
        most = max(most, sum(c.queued for c in list(conns)))
        time.sleep(0.005)
    assert most <= limit, f"{most} bytes were queued"
    assert budget is not None and budget.dropped >= 1  # the furthest behind was dropped
    assert budget.used == sum(c.queued for c in conns)  # and the count is right
    for sock in socks:
        sock.close()
    end = time.monotonic() + 10
    while conns and time.monotonic() < end:
        time.sleep(0.05)
    assert not conns and budget.used == 0  # gone, each counted out (not left to fill the bound)


# -- 9. control and bidirectional-override characters are refused, and escaped when printed ----

EVIL = "\\u001b]8;;http://x.invalid/\\u0007a\\u001b]8;;\\u0007\\u001b[2J\\u202eAda\\u0000"
"""As a deck file writes it (TOML escapes): a hyperlink (OSC 8), a screen clear, RLO and NUL."""


def evil_deck() -> str:
    from cardroom.games.baebae.deck import SAMPLE_DECK

    text = SAMPLE_DECK.read_text()
    head, cards = text.split("[[card]]", 1)
    evil = f'name = "{EVIL}"'  # within every length bound: refused for its characters only
    def put(part: str) -> str:
        return re.sub(r'name = "[^"]*"', lambda _: evil, part, count=1)

    return put(head) + "[[card]]" + put(cards)


def raw_controls(text: str) -> int:
    return sum(text.count(c) for c in ("\x1b", "\x00", "\x07", "\u202e"))


def test_a_deck_with_control_characters_is_refused_everywhere(server: LiveServer, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardroom.cli.main import app
    from cardroom.games.baebae.deck import DeckError, parse_deck

    with pytest.raises(DeckError) as refused:
        parse_deck(evil_deck(), "evil.toml")
    words = str(refused.value)
    assert "evil.toml: name holds U+001B (ESC) at character 1" in words
    assert "evil.toml: card 1.name holds U+001B (ESC)" in words and raw_controls(words) == 0
    r = server.http.post("/api/tables", json={"game": "baebae", "deck_toml": evil_deck()})
    assert r.status_code == 400 and "U+001B (ESC)" in r.json()["detail"] and raw_controls(r.text) == 0
    for text in ("Bo\u202eb", "Bo\u0000", "\u2066Bo"):  # names too
        r = server.http.post("/api/tables", json={"game": "baha", "name": text})
        assert r.status_code == 400 and "may not hold control characters" in r.json()["detail"]
    (tmp_path / "evil.toml").write_text(evil_deck())
    for command in (["deck", "show", str(tmp_path / "evil.toml")], ["deck", "validate", str(tmp_path / "evil.toml")]):
        result = CliRunner().invoke(app, command)
        assert result.exit_code != 0 and "U+001B (ESC)" in result.output and raw_controls(result.output) == 0


def test_a_record_carrying_such_a_deck_is_refused_and_narration_is_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from cardroom.cli import replay as replay_command
    from cardroom.cli.main import app
    from cardroom.games import make_rules, start_game
    from cardroom.record import make_record

    state = start_game(make_rules("baebae", {"players": 2, "rounds": 1}), 3)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    record = make_record(state)
    record["rules"]["deck_files"] = [json.loads(json.dumps(evil_deck()))]
    record["rules"]["deck"] = "sha256:" + "0" * 64
    (tmp_path / "evil.json").write_text(json.dumps(record))
    result = CliRunner().invoke(app, ["replay", "--narrate", str(tmp_path / "evil.json")])
    assert result.exit_code != 0 and "U+001B (ESC)" in result.output and raw_controls(result.output) == 0
    # Whatever a narration holds reaches the terminal escaped.
    (tmp_path / "fine.json").write_text(json.dumps(make_record(state)))
    monkeypatch.setattr(replay_command, "narration", lambda *args: ["\x1b]8;;http://x\x07link\x1b[2J\u202eAda\x00"])
    result = CliRunner().invoke(app, ["replay", "--narrate", str(tmp_path / "fine.json")])
    assert result.exit_code == 0 and raw_controls(result.output) == 0
    assert "\\x1b]8;;http://x\\x07link\\x1b[2J\\u202eAda\\x00" in result.output


# -- Also: a full disk logs one line per refused action, and a count --------------------------


def test_a_full_disk_logs_one_line_per_refused_action(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    table = server.create(game="baha", players=3, seats=["human", "random", "random"], name="Ada")
    ada = server.client(table["id"], table["token"])
    ada.wait(lambda u: bool(u["moves"]))

    def full(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("INSERT INTO actions", {}, Exception("database or disk is full"))

    monkeypatch.setattr(server.manager.store, "add_action", full)
    caplog.set_level(logging.ERROR, logger="cardroom.web")
    for _ in range(3):
        assert ada.last is not None
        ada.send({"type": "act", "action": ada.last["moves"][0]["action"], "seq": ada.last["seq"]})
        assert ada.expect("error")["code"] == "server_error"
    refused = [r for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 3 and all(r.exc_info is None for r in refused)  # no traceback
    assert [r.getMessage().count("\n") for r in refused] == [0, 0, 0]
    assert "database or disk is full" in refused[0].getMessage()
    assert [f"({k} refused since the server started)" in r.getMessage() for k, r in enumerate(refused, 1)] == [True] * 3
    ada.close()


# -- Also: security headers, and Host and Origin checked -----------------------------------------


def test_every_answer_forbids_framing_and_foreign_scripts(server: LiveServer) -> None:
    table = server.create(game="baha")
    for path in ("/", f"/table/{table['id']}", "/api/catalog", "/api/tables/nope", "/static/style.css"):
        r = server.http.get(path)
        policy = r.headers.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy, path
        assert r.headers.get("x-frame-options") == "DENY" and r.headers.get("x-content-type-options") == "nosniff"


def test_a_websocket_from_another_sites_page_is_refused(tmp_path: Path) -> None:
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    live = LiveServer(tmp_path / "data", local_only=True)
    try:
        table = live.create(game="baha", name="Ada")
        ws = live.base.replace("http", "ws", 1) + f"/ws/tables/{table['id']}"
        with pytest.raises(InvalidStatus):  # cross-site WebSocket hijacking
            connect(ws, origin="http://evil.example", open_timeout=10)  # type: ignore[arg-type]
        with pytest.raises(InvalidStatus):  # a foreign name pointed at 127.0.0.1 (DNS rebinding)
            connect(ws, additional_headers={"Host": "evil.example:80"},
                    origin="http://evil.example:80", open_timeout=10)  # type: ignore[arg-type]
        r = live.http.get("/api/catalog", headers={"Host": "evil.example"})
        assert r.status_code == 403 and "only requests for this machine" in r.json()["detail"]
        with connect(ws, origin=live.base, open_timeout=10) as mine:  # type: ignore[arg-type]
            mine.send(json.dumps({"type": "hello", "token": table["token"]}))
            assert json.loads(mine.recv(10))["type"] == "welcome"
        with connect(ws, open_timeout=10) as program:  # not a browser: no Origin
            program.send(json.dumps({"type": "ping"}))
            assert json.loads(program.recv(10))["type"] in ("pong", "error")
        assert live.http.get("/api/catalog", headers={"Host": "localhost:8000"}).status_code == 200
    finally:
        live.stop()


def test_a_turn_for_people_does_not_wait_behind_a_long_search_for_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardroom.web import thinking
    from cardroom.web.thinking import BotPool, SearchTimeout

    monkeypatch.setattr(thinking, "MOVE_SECONDS", 8.0)
    state = bottomless_state()
    seat = state.current_player

    async def run() -> tuple[float, bool]:
        pool = BotPool(1)
        try:
            await pool.act("random", 1, state, seat, False)  # the worker has started
            bots = asyncio.create_task(pool.act("ismcts:iterations=5000", 1, state, seat, False))
            await asyncio.sleep(1.0)  # it searches, for bots only
            began = time.monotonic()
            assert await pool.act("random", 2, state, seat, True) in state.legal_actions()
            waited = time.monotonic() - began
            try:
                await bots  # thought again from the start, then bounded as always
            except SearchTimeout:
                return waited, True
            return waited, False
        finally:
            pool.close()

    waited, bounded = in_a_loop(run)
    assert waited < 5.0 and bounded  # not the 7 s left of the bots' search


def test_a_person_who_sits_down_lifts_their_tables_waiting_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardroom.web import thinking
    from cardroom.web.thinking import BotPool

    monkeypatch.setattr(thinking, "MOVE_SECONDS", 8.0)
    state = bottomless_state()
    seat = state.current_player
    here = [False]

    async def run() -> float:
        pool = BotPool(1)
        try:
            await pool.act("random", 1, state, seat, False)
            bots = asyncio.create_task(pool.act("ismcts:iterations=5000", 1, state, seat, False))
            await asyncio.sleep(0.5)
            # Queued while its person is not yet connected: behind the bots' search.
            mine = asyncio.create_task(pool.act("random", 2, state, seat, lambda: here[0]))
            await asyncio.sleep(1.0)
            assert not mine.done()
            here[0] = True  # the person says hello
            began = time.monotonic()
            pool.reconsider()
            await mine
            waited = time.monotonic() - began
            bots.cancel()
            return waited
        finally:
            pool.close()

    assert in_a_loop(run) < 4.0


def test_memory_freed_by_connections_that_went_is_handed_back(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardroom.web import live

    trims: list[float] = []
    monkeypatch.setattr(live, "_malloc_trim", lambda: trims.append(time.monotonic()))
    monkeypatch.setattr(live, "TRIM_EVERY", 0.3)

    async def run() -> int:
        budget = live.QueueBudget()
        conns = [live.Connection(lambda text: None, budget) for _ in range(20)]
        for conn in conns:
            conn.push({"type": "update", "pad": "x" * 100_000})
        assert budget.used > 20 * 100_000
        for conn in conns:  # they all go at once
            conn.release()
        await asyncio.sleep(0.5)
        assert budget.used == 0
        return len(trims)

    assert in_a_loop(run) == 2  # at once, then once for all the others
