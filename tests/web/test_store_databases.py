"""The store on both databases it supports: a SQLite file and PostgreSQL (a throwaway cluster
on 127.0.0.1, tests/web/postgres_support.py). Every test here runs once on each."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text
from web_support import LiveServer

import cardroom.web.accounts  # noqa: F401  (the accounts' tables: part of the schema compared)
from cardroom.web.store import (
    HEAD,
    MIGRATIONS,
    Base,
    DatabaseDamaged,
    DatabaseInUse,
    SeatData,
    Store,
    TableData,
)


def _table(table_id: str = "t1") -> TableData:
    return TableData(
        id=table_id, game="baha", players=4, rules={"target": 50}, deck=None, upload=None,
        deck_info=None, seed=2**31 - 1, timer=30.0, status="waiting", created=1.5, finished=None,
        seats=[SeatData(0, "human"), SeatData(1, "bot", "heuristic"), SeatData(2, "bot", "random"),
               SeatData(3, "human")],
        creator_hash="c" * 64,
    )


def test_what_is_stored_is_read_back_after_reopening(db_url: str) -> None:
    store = Store(db_url)
    assert store.migrated == "created"
    store.add_deck("sha256:ab", "mine", "[deck]\n", 1.0)
    store.add_table(_table())
    store.take_seat("t1", 0, "Ann", "a" * 64, "waiting")
    store.take_seat("t1", 3, "Bo", "b" * 64, "running")
    for seq, action in enumerate([7, 3, 11], start=1):
        store.add_action("t1", seq, seq % 4, action, f"card {action}", "human", 2.0 + seq)
    store.leave_seat("t1", 3, after=3)
    store.add_table(_table("t2"))
    store.close()

    again = Store(db_url)
    try:
        assert again.migrated == "current"
        assert again.deck_text("sha256:ab") == "[deck]\n"
        first, second = again.tables(with_actions=True)
        assert (first.id, second.id) == ("t1", "t2")
        assert first.status == "running" and first.seed == 2**31 - 1 and first.rules == {"target": 50}
        assert [(s.kind, s.bot, s.name) for s in first.seats] == [
            ("human", None, "Ann"), ("bot", "heuristic", None), ("bot", "random", None), ("human", None, "Bo")]
        assert first.seats[3].token_hash is None and first.left == {3: 3}
        assert first.actions == [7, 3, 11] and first.creator_hash == "c" * 64
        again.close_table("t1", 3, 9.0, {"game": "baha"})
        assert again.record("t1") == '{"game":"baha"}'
    finally:
        again.close()


def test_the_migrations_make_the_schema_the_models_describe(db_url: str) -> None:
    Store(db_url).close()
    engine = create_engine(db_url)
    try:
        with engine.connect() as c:
            context = MigrationContext.configure(c)
            assert context.get_current_revision() == HEAD
            assert compare_metadata(context, Base.metadata) == []
    finally:
        engine.dispose()
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(config).get_current_head() == HEAD


@pytest.mark.parametrize("made_with", ["core tables", "every table"])
def test_a_database_from_before_alembic_is_adopted(db_url: str, made_with: str) -> None:
    # What the store made before alembic: create_all of the tables it had then (the first
    # databases had only the core ones; the later ones every table of today).
    engine = create_engine(db_url)
    core = ("decks", "tables", "seats", "actions")
    before = core if made_with == "core tables" else (*core, "creators", "departures", "closures", "rematches")
    Base.metadata.create_all(engine, tables=[Base.metadata.tables[name] for name in before])
    with engine.begin() as c:
        c.execute(text("INSERT INTO tables (id, game, players, rules, seed, status, created) "
                       "VALUES ('old', 'baha', 4, '{}', 5, 'waiting', 1.0)"))
        c.execute(text("INSERT INTO seats (table_id, seat, kind) VALUES ('old', 0, 'human')"))
    engine.dispose()

    store = Store(db_url)
    try:
        assert store.migrated == "adopted"
        (old,) = store.tables()
        assert old.id == "old" and old.seed == 5
        store.leave_seat("old", 0, after=0)  # a table of revision 0002, there now
        have = set(inspect(store.engine).get_table_names())
        assert {"creators", "departures", "closures", "rematches", "alembic_version", "accounts",
                "ratings"} <= have
    finally:
        store.close()
    again = Store(db_url)
    assert again.migrated == "current"
    again.close()


def test_a_second_store_on_the_same_database_refuses(db_url: str) -> None:
    first = Store(db_url)
    first.add_table(_table())
    try:
        with pytest.raises(DatabaseInUse, match="in use by another Cardroom server"):
            Store(db_url)
    finally:
        first.close()
    second = Store(db_url)  # once the first lets go, the database opens
    assert [t.id for t in second.tables()] == ["t1"]
    second.close()


def test_a_game_goes_on_after_a_restart(db_url: str, tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "data", db_url=db_url)
    try:
        made = live.create(game="baha", seats=["human", "random", "random", "random"])
        table_id = made["id"]
        joined = live.join(table_id, "Ann")
        before = live.http.get(f"/api/tables/{table_id}").json()
    finally:
        live.stop()
    again = LiveServer(tmp_path / "data", db_url=db_url)
    try:
        after = again.http.get(f"/api/tables/{table_id}").json()
        assert after == before
        assert again.manager.get(table_id).seat_of(joined["token"]) == joined["seat"]
        assert again.http.get("/readyz").json() == {"ready": True}
    finally:
        again.stop()


def _serve(url: str, data: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONUNBUFFERED="1", COLUMNS="300", NO_COLOR="1")
    return subprocess.Popen(
        [sys.executable, "-m", "cardroom.cli.main", "serve", "--port", "0", "--database", url,
         "--data", str(data), "--bot-delay", "0", "--log-json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _address(proc: subprocess.Popen[str]) -> str:
    assert proc.stdout is not None
    line = proc.stdout.readline()  # the address, printed just before Uvicorn listens
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert match, line + (proc.stderr.read() if proc.stderr and proc.poll() is not None else "")
    base = f"http://127.0.0.1:{match.group(1)}"
    end = time.monotonic() + 20
    while True:
        try:
            httpx.get(f"{base}/healthz", timeout=5)
            return base
        except httpx.TransportError:
            assert time.monotonic() < end, "cardroom serve does not answer"
            time.sleep(0.05)


def test_serve_on_a_database_refuses_a_second_server_until_the_first_is_killed(
    db_url: str, tmp_path: Path,
) -> None:
    first = _serve(db_url, tmp_path / "one")
    try:
        base = _address(first)
        assert httpx.get(f"{base}/readyz", timeout=5).json() == {"ready": True}
        second = _serve(db_url, tmp_path / "two")
        out, err = second.communicate(timeout=60)
        assert second.returncode == 2, out + err
        assert "in use by another Cardroom server" in out + err and "Traceback" not in out + err
        first.send_signal(signal.SIGKILL)  # killed outright: the lock goes with the process
        first.wait(20)
        assert first.stderr is not None
        logged = [json.loads(line) for line in first.stderr.read().splitlines()]
        assert {"level": "info", "logger": "cardroom.web", "message": "database schema created at revision "
                + HEAD} in [{k: v for k, v in x.items() if k != "time"} for x in logged]
        end = time.monotonic() + 10
        while True:  # PostgreSQL lets the lock go once it sees the connection closed
            third = _serve(db_url, tmp_path / "three")
            try:
                base = _address(third)
                break
            except AssertionError:
                third.kill()
                third.wait(20)
                assert time.monotonic() < end, "the database stayed locked after its server was killed"
                time.sleep(0.2)
        assert httpx.get(f"{base}/readyz", timeout=5).status_code == 200
        third.terminate()
        third.wait(20)
    finally:
        first.kill()
        first.wait(20)


def test_a_database_a_newer_cardroom_made_is_refused_unchanged(db_url: str) -> None:
    Store(db_url).close()
    engine = create_engine(db_url)
    with engine.begin() as c:
        c.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    try:
        with pytest.raises(DatabaseDamaged, match="the schema revision '9999', which this Cardroom does not know"):
            Store(db_url)
        with engine.connect() as c:
            assert c.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == "9999"
    finally:
        engine.dispose()
