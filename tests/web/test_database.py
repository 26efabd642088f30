"""The database: failures answered in JSON and recovered from, bad rows left out, one server."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from web_support import LiveServer


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """The database file cannot be written while inside (``chattr +i``: also binds root)."""
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed")
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("this file system or user cannot make a file immutable")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_database_failures_answer_json_and_the_server_recovers(server: LiveServer) -> None:
    waiting = server.create(game="baha", seats=["human", "human", "random", "random"])
    playing = server.create(game="baha", players=3, seats=["human", "random", "random"], name="Ada")
    ada = server.client(playing["id"], playing["token"])
    ada.wait(lambda u: bool(u["moves"]))
    server.manager.store.engine.dispose()  # so that the next connections open the file as it is then
    with read_only(server.data_dir / "cardroom.db"):
        for r in (server.http.post("/api/tables", json={"game": "baha"}),
                  server.http.post(f"/api/tables/{waiting['id']}/join", json={"name": "Bo"})):
            assert r.status_code == 500
            assert r.headers["content-type"] == "application/json"
            assert "could not store" in r.json()["detail"]
        assert ada.last is not None
        ada.send({"type": "act", "action": ada.last["moves"][0]["action"], "seq": ada.last["seq"]})
        assert ada.expect("error")["code"] == "server_error"
    assert server.http.get(f"/api/tables/{waiting['id']}").json()["seats"][0]["name"] is None  # unchanged
    # writable again: everything works without a restart
    assert server.http.post("/api/tables", json={"game": "baha"}).status_code == 200
    assert server.http.post(f"/api/tables/{waiting['id']}/join", json={"name": "Bo"}).status_code == 200
    seq = ada.last["seq"]
    ada.send({"type": "act", "action": ada.last["moves"][0]["action"], "seq": seq})
    assert ada.wait(lambda u: u["seq"] > seq)["seq"] == seq + 1
    ada.close()


def test_a_row_that_cannot_be_read_is_left_out(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    first = LiveServer(tmp_path / "data")
    try:
        bad = first.create(game="baha")
        good = first.create(game="baha")
    finally:
        first.stop()
    with sqlite3.connect(tmp_path / "data" / "cardroom.db") as db:
        db.execute("UPDATE tables SET rules = '{not json' WHERE id = ?", (bad["id"],))
    caplog.set_level(logging.ERROR, logger="cardroom.web")
    second = LiveServer(tmp_path / "data")
    try:
        assert second.http.get(f"/api/tables/{good['id']}").status_code == 200
        assert second.http.get(f"/api/tables/{bad['id']}").status_code == 404
    finally:
        second.stop()
    assert any(bad["id"] in r.getMessage() and "left out" in r.getMessage() for r in caplog.records)


def test_a_second_server_on_the_same_database_refuses_to_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = dict(os.environ, PYTHONUNBUFFERED="1", COLUMNS="300", NO_COLOR="1")
    cardroom = str(Path(sys.executable).with_name("cardroom"))
    command = [cardroom, "serve", "--port", "0", "--data", str(data)]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        started = threading.Event()

        def read() -> None:
            assert first.stdout is not None
            for line in first.stdout:
                if "http://" in line:
                    started.set()

        threading.Thread(target=read, daemon=True).start()
        assert started.wait(30), "the first server did not start"
        second = subprocess.run(command, capture_output=True, text=True, env=env, timeout=30)
        assert second.returncode == 2
        database = (data / "cardroom.db").resolve()
        assert f"the database {database} is in use by another Cardroom server (pid {first.pid})" in second.stderr
        assert "Traceback" not in second.stderr and len(second.stderr.strip().splitlines()) == 1
        assert first.poll() is None  # the first one serves on
    finally:
        first.kill()
        first.wait(20)
    again = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:  # the lock goes with the process, even killed: the next server starts
        assert again.stdout is not None
        assert "http://" in again.stdout.readline()
    finally:
        again.kill()
        again.wait(20)
