"""``cardroom serve`` killed with SIGKILL and started again: every game goes on, nothing lost."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from web_support import Client, check_messages, is_over, play_out, states_of

from cardroom.record import verify


class Served:
    """``cardroom serve --port 0`` in a subprocess; its address read from what it prints."""

    def __init__(self, data: Path) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1", COLUMNS="300", NO_COLOR="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardroom.cli.main", "serve", "--port", "0", "--data", str(data),
             "--bot-delay", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        )
        self.lines: list[str] = []
        found = threading.Event()

        def read() -> None:
            assert self.proc.stdout is not None
            for line in self.proc.stdout:
                self.lines.append(line)
                if "http://" in line:
                    found.set()

        threading.Thread(target=read, daemon=True).start()
        if not found.wait(30):
            self.kill()
            raise AssertionError(f"cardroom serve did not start: {''.join(self.lines)}")
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", "".join(self.lines))
        assert match, self.lines
        self.base = f"http://127.0.0.1:{match.group(1)}"
        self.http = httpx.Client(base_url=self.base, timeout=20)
        end = time.monotonic() + 20
        while True:  # the address is printed just before Uvicorn listens
            try:
                self.http.get("/api/catalog")
                break
            except httpx.TransportError:
                assert time.monotonic() < end, "cardroom serve does not answer"
                time.sleep(0.05)

    def client(self, table_id: str, token: str | None) -> Client:
        return Client(self.base.replace("http", "ws", 1), table_id, token)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(20)


def test_kill_and_restart_loses_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = Served(data)
    try:
        table = first.http.post("/api/tables", json={
            "game": "baha", "players": 3, "rules": {"target": 1}, "name": "Ada",
            "seats": ["human", "human", "heuristic"],
        }).json()
        bo = first.http.post(f"/api/tables/{table['id']}/join", json={"name": "Bo"}).json()
        running = first.http.post("/api/tables", json={
            "game": "baebae", "players": 2, "rules": {"rounds": 1}, "seats": ["human", "random"],
        }).json()  # a waiting table, too
        ada = first.client(table["id"], table["token"])
        bob = first.client(table["id"], bo["token"])
        acted = 0
        end = time.monotonic() + 30
        while acted < 12:
            assert time.monotonic() < end, "the game stalled"  # the people take a dozen actions; the bot plays its turns in between
            for c in (ada, bob):
                c.drain(0.01)
                u = c.last
                assert u is not None
                if u["moves"] and u["seq"] not in c.acted:
                    c.acted.add(u["seq"])
                    c.send({"type": "act", "action": u["moves"][0]["action"], "seq": u["seq"]})
                    acted += 1
        # wait until a person is to act (then nothing moves) and both have heard of it
        for c in (ada, bob):
            c.drain(0.3)
        assert ada.last is not None and bob.last is not None
        seq = ada.last["seq"]
        assert bob.last["seq"] == seq and (ada.last["moves"] or bob.last["moves"])
        seen = {0: ada.last["view"], 1: bob.last["view"]}
    finally:
        first.kill()
    assert first.proc.returncode == -signal.SIGKILL

    second = Served(data)
    try:
        listed = second.http.get("/api/tables").json()
        assert {t["id"] for t in listed} == {table["id"], running["id"]}
        ada2 = second.client(table["id"], table["token"])
        bob2 = second.client(table["id"], bo["token"])
        assert ada2.last is not None and bob2.last is not None
        assert ada2.last["seq"] == seq and bob2.last["seq"] == seq
        assert ada2.last["view"] == seen[0] and bob2.last["view"] == seen[1]
        play_out([ada2, bob2])  # and the bot plays again
        assert is_over(ada2.last)
        record = second.http.get(f"/api/tables/{table['id']}/record").json()
        assert verify(record).ok
        states = states_of(record)
        assert states[seq].view(0) == seen[0]
        check_messages(ada2.messages, 0, states)
        check_messages(bob2.messages, 1, states)
        assert [p for p, _ in record["actions"][seq:]].count(2) > 0  # the bot acted after the restart
    finally:
        second.kill()


def test_finished_games_after_a_restart(tmp_path: Path) -> None:
    from web_support import LiveServer

    data = tmp_path / "data"
    first = LiveServer(data)
    try:
        table = first.create(game="baebae", players=3, rules={"rounds": 1}, seats=["random"] * 3)
        first.client(table["id"]).wait(is_over)
        record = first.http.get(f"/api/tables/{table['id']}/record").json()
    finally:
        first.stop()
    second = LiveServer(data)
    try:
        assert [t["id"] for t in second.http.get("/api/tables", params={"status": "over"}).json()] == [table["id"]]
        assert second.http.get(f"/api/tables/{table['id']}/record").json() == record
        # a replay asked for before anyone looks at the table still describes the deck's designs
        replayed = second.http.get(f"/api/tables/{table['id']}/replay", params={"seat": 0}).json()
        assert replayed["cards"] is not None and len(replayed["cards"]) == 52
        watcher = second.client(table["id"])
        assert watcher.welcome is not None and len(watcher.welcome["cards"]) == 52
        assert watcher.last is not None and watcher.last["seq"] == len(record["actions"])
        assert watcher.last["view"]["ranking"] is not None
        steps = second.http.get(f"/api/tables/{table['id']}/replay", params={"seat": 1}).json()["steps"]
        assert len(steps) == len(record["actions"]) + 1
        check_messages(watcher.messages, None, states_of(record))
    finally:
        second.stop()


def test_uploaded_deck_survives_a_restart_without_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from web_support import LiveServer

    from cardroom.games.baebae.deck import SAMPLE_DECK, parse_deck

    text = SAMPLE_DECK.read_text().replace('name = "Cardroom Sample Deck"', 'name = "Kept Deck"', 1)
    digest = parse_deck(text).digest
    data = tmp_path / "data"
    first = LiveServer(data)
    try:
        table = first.create(game="baebae", players=2, rules={"rounds": 1}, deck_toml=text,
                             seats=["human", "human"], name="Ada")
    finally:
        first.stop()
    assert not (data / "decks").exists()  # the database keeps the text; no file is needed
    second = LiveServer(data)
    try:
        assert second.http.get(f"/api/tables/{table['id']}").json()["deck"] == {"name": "Kept Deck", "digest": digest}
        bo = second.join(table["id"], "Bo")
        ada = second.client(table["id"], table["token"])
        bob = second.client(table["id"], bo["token"])
        play_out([ada, bob])
        record = second.http.get(f"/api/tables/{table['id']}/record").json()
        monkeypatch.chdir(tmp_path)  # the record carries its deck: no file beside it
        assert record["deck"]["digest"] == digest and verify(record).ok
    finally:
        second.stop()
