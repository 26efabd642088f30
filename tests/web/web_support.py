"""Helpers for the web table's tests: a live server in a thread, WebSocket clients, game
drivers and the hidden-information referee."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import re
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cardroom.engine import ActionInfo, State
from cardroom.record import replay
from cardroom.web.app import create_app
from cardroom.web.guard import server_config

TIMEOUT = 20.0


class LiveServer:
    """``create_app`` under Uvicorn in a thread, on 127.0.0.1 and a port the system picks."""

    def __init__(self, data_dir: Path, bot_delay: float = 0.0, db_url: str | None = None,
                 forwarded_allow_ips: str | None = None, local_only: bool = False,
                 redis_url: str | None = None) -> None:
        self.data_dir = data_dir
        self.app = create_app(db_url, data_dir, bot_delay=bot_delay, local_only=local_only, redis_url=redis_url)
        config = server_config(self.app, forwarded_allow_ips=forwarded_allow_ips, host="127.0.0.1", port=0,
                               log_level="warning", ws_max_size=64 * 1024, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        end = time.monotonic() + TIMEOUT
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > end:
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        self.http = httpx.Client(base_url=self.base, timeout=TIMEOUT)
        if redis_url is not None:  # a node of a cluster: where the others reach it
            self.app.state.manager.address = self.base

    @property
    def manager(self) -> Any:
        return self.app.state.manager

    def stop(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(TIMEOUT)

    def create(self, **body: Any) -> dict[str, Any]:
        r = self.http.post("/api/tables", json=body)
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    def join(self, table_id: str, name: str, seat: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"name": name}
        if seat is not None:
            body["seat"] = seat
        r = self.http.post(f"/api/tables/{table_id}/join", json=body)
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    def client(self, table_id: str, token: str | None = None) -> Client:
        return Client(self.base.replace("http", "ws", 1), table_id, token)


class Client:
    """One WebSocket at a table; keeps every message it received."""

    def __init__(self, ws_base: str, table_id: str, token: str | None, hello: bool = True) -> None:
        self.ws: ClientConnection = connect(f"{ws_base}/ws/tables/{table_id}", open_timeout=TIMEOUT, legacy=True,
                                            max_size=2**24)
        self.messages: list[dict[str, Any]] = []
        self.last: dict[str, Any] | None = None   # the last update
        self.acted: set[int] = set()
        self.welcome: dict[str, Any] | None = None
        if hello:
            self.send({"type": "hello", "token": token})
            self.welcome = self.expect("welcome")
            self.expect("update")

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(message)
        if message["type"] == "update":
            assert self.last is None or message["seq"] >= self.last["seq"], "updates go forward"
            self.last = message
        return message

    def expect(self, kind: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message, which must be of type ``kind``."""
        message = self.recv(timeout)
        assert message["type"] == kind, message
        return message

    def drain(self, timeout: float = 0.02) -> list[dict[str, Any]]:
        """Every message that arrives within ``timeout`` of the previous one."""
        out = []
        while True:
            try:
                out.append(self.recv(timeout))
            except TimeoutError:
                return out

    def wait(self, test: Callable[[dict[str, Any]], bool], timeout: float = TIMEOUT) -> dict[str, Any]:
        """Read until an update passes ``test``; that update."""
        if self.last is not None and test(self.last):
            return self.last
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such update in {timeout} s; the last was {self.last!r:.300}")
            message = self.recv(left)
            if message["type"] == "update" and test(message):
                return message

    def close(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            self.ws.close()


def in_a_loop(run: Any) -> Any:
    """``asyncio.run(run())`` in a thread of its own: another test of the same worker may have
    left an event loop running in this one, where ``asyncio.run`` refuses to start."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, run()).result(60)


def is_over(update: dict[str, Any]) -> bool:
    return update["table"]["status"] == "over"


def play_out(clients: Iterable[Client], choose: Callable[[list[dict[str, Any]]], int] | None = None,
             timeout: float = 40.0) -> None:
    """Play every seat held by ``clients`` until the game is over (bots play the rest)."""
    clients = list(clients)
    pick = choose or (lambda moves: moves[-1]["action"])
    end = time.monotonic() + timeout
    while True:
        for c in clients:
            c.drain(0.005)
        if all(c.last is not None and is_over(c.last) for c in clients):
            return
        if time.monotonic() > end:
            raise AssertionError("the game did not end in time")
        for c in clients:
            u = c.last
            if u is not None and u["moves"] and u["seq"] not in c.acted:
                c.acted.add(u["seq"])
                c.send({"type": "act", "action": pick(u["moves"]), "seq": u["seq"]})


# -- the hidden-information referee -------------------------------------------------------

_SKIP_KEYS = {"id", "url", "name", "token"}  # names and ids are not cards
_WORDS = re.compile(r"[0-9A-Za-z#]+")


def card_texts(obj: Any, cards: set[str]) -> set[str]:
    """Every card text found anywhere in a JSON value (strings split into words)."""
    found: set[str] = set()

    def walk(value: Any, key: str | None) -> None:
        if key in _SKIP_KEYS:
            return
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str):
            found.update(w for w in _WORDS.findall(value) if w in cards)

    walk(obj, None)
    return found


def all_cards(state: State) -> set[str]:
    if state.rules.game == "baha":  # type: ignore[attr-defined]
        from cardroom.games.baha.cards import BAHA_DECK, baha_card_text

        return {baha_card_text(c) for c in BAHA_DECK}
    return {c.key for c in state.rules.cards}  # type: ignore[attr-defined]


def decoded(move: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``decode()`` a move the server sent carries (its ``kind``, ``card``...)."""
    return {f.name: move[f.name] for f in dataclasses.fields(ActionInfo)}


def states_of(record: dict[str, Any]) -> list[State]:
    """The game of a record after 0, 1, 2... actions (rebuilt independently of the server)."""
    start = dict(record, actions=[])
    state = replay(start)
    out = [state.clone()]
    for _seat, text in record["actions"]:
        state.apply(state.parse_action(text))
        out.append(state.clone())
    return out


def secrets_of(state: State, seat: int, cards: set[str]) -> set[str]:
    """Cards in other seats' hands now that ``seat`` (-1: a spectator) has never been shown."""
    from cardroom.web.views import visible_events

    held: set[str] = set()
    for other in range(len(state.scores)):
        if other != seat:
            held.update(state.view(other)["hand"])
    known = card_texts(visible_events(state, seat), cards)
    if seat >= 0:
        known |= card_texts(state.view(seat), cards)
    return held - known


def check_messages(messages: list[dict[str, Any]], seat: int | None, states: list[State]) -> int:
    """Referee every message one connection received over a whole game (one deal).

    For a seat: each update's view is exactly the seat's view after ``seq`` actions, its moves
    are the legal actions when it is the seat's turn and none otherwise, and the events of all
    updates together are the seat's filtered log, each once. For everyone: no message carries
    a card that sat in another seat's hand unseen by this connection. Returns the number of
    updates checked.
    """
    from cardroom.web.views import visible_events

    who = -1 if seat is None else seat
    cards = all_cards(states[0])
    seq = 0
    events: list[Any] = []
    updates = 0
    for m in messages:
        if m["type"] == "update":
            if m["view"] is None:
                continue
            seq = m["seq"]
            state = states[seq]
            updates += 1
            events.extend(m["events"])
            if seat is not None:
                assert m["view"] == json.loads(json.dumps(state.view(seat))), f"view at seq {seq}"
                legal = state.legal_actions() if state.current_player == seat else []
                assert [x["action"] for x in m["moves"]] == legal, f"moves at seq {seq}"
                for x in m["moves"]:  # each move carries the state's decode() of it, the page's data
                    assert decoded(x) == dataclasses.asdict(state.decode(x["action"])), f"move {x}"
            else:
                assert m["view"]["hand"] == [] and m["view"]["seat"] is None and m["moves"] == []
                assert m["view"]["legal_actions"] == []
        checked = {k: v for k, v in m.items() if k != "cards"}  # welcome's deck designs are public
        leaked = card_texts(checked, cards) & secrets_of(states[seq], who, cards)
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} at seq {seq}: {m['type']}"
    final = states[seq]
    assert events == json.loads(json.dumps(visible_events(final, who))), "the events, each once, in order"
    return updates
