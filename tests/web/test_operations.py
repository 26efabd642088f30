"""Operating a server: /healthz, /readyz (the database answers), /metrics (counts only, no
hidden information) and JSON log lines; the site guard holds on all of them."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from postgres_support import PostgresCluster
from prometheus_client.parser import text_string_to_metric_families
from web_support import LiveServer, all_cards, card_texts, play_out, states_of

from cardroom.web.ops import JsonFormatter, use_json_logs


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_health_and_readiness(server: LiveServer) -> None:
    assert server.http.get("/healthz").json() == {"ok": True}
    r = server.http.get("/readyz")
    assert r.status_code == 200 and r.json() == {"ready": True}


def test_metrics_count_the_play_and_tell_nothing_hidden(server: LiveServer) -> None:
    before = _samples(server.http.get("/metrics").text)
    assert before[("cardroom_actions_total", (("by", "human"),))] == 0
    assert before[("cardroom_tables", (("status", "running"),))] == 0
    table = server.create(game="baha", players=4, rules={"target": 1}, name="Ada",
                          seats=["human", "heuristic", "random", "heuristic"])
    ada = server.client(table["id"], table["token"])
    watcher = server.client(table["id"])
    play_out([ada])
    record = server.http.get(f"/api/tables/{table['id']}/record").json()
    actions = len(record["actions"])
    r = server.http.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert "script-src 'self'" in r.headers["content-security-policy"]  # the site guard's headers
    got = _samples(r.text)
    human = got[("cardroom_actions_total", (("by", "human"),))]
    bots = got[("cardroom_actions_total", (("by", "bot"),))]
    assert human > 0 and bots > 0 and human + bots == actions
    assert got[("cardroom_action_seconds_count", ())] == actions
    assert got[("cardroom_tables", (("status", "over"),))] == 1
    assert got[("cardroom_connections", ())] == 2
    # Counts only: no table id, name, token or card of any hand.
    for secret in (table["id"], "Ada", table["token"]):
        assert secret not in r.text
    assert card_texts(r.text, all_cards(states_of(record)[0])) == set()
    ada.close()
    watcher.close()


def test_the_operations_answers_are_held_to_the_site_guard(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "data", local_only=True)
    try:
        for path in ("/healthz", "/readyz", "/metrics"):
            r = live.http.get(path, headers={"Host": "evil.example"})  # DNS rebinding
            assert r.status_code == 403, path
            assert live.http.get(path).status_code == 200, path
    finally:
        live.stop()


def test_not_ready_when_the_database_is_gone_and_nothing_said_of_it(
    postgres: PostgresCluster, tmp_path: Path,
) -> None:
    url = postgres.database()
    name = url.rsplit("/", 1)[1]
    live = LiveServer(tmp_path / "data", db_url=url)
    try:
        assert live.http.get("/readyz").status_code == 200
        with psycopg.connect(f"host=127.0.0.1 port={postgres.port} user=cardroom dbname=postgres",
                             autocommit=True) as c:
            c.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        r = live.http.get("/readyz")
        assert r.status_code == 503 and r.json()["ready"] is False
        assert name not in r.text and str(postgres.port) not in r.text  # no address of the database
        assert live.http.get("/healthz").status_code == 200  # the process itself is up
    finally:
        live.stop()


@pytest.fixture
def restored_logging() -> Iterator[None]:
    names = ("cardroom", "uvicorn", "uvicorn.error", "uvicorn.access")
    saved: list[tuple[logging.Logger, list[logging.Handler], bool, int]] = [
        (lg, lg.handlers[:], lg.propagate, lg.level) for lg in map(logging.getLogger, names)]
    try:
        yield
    finally:
        for lg, handlers, propagate, level in saved:
            lg.handlers, lg.propagate, lg.level = handlers, propagate, level


def test_json_logs_are_one_object_a_line(restored_logging: None, capsys: pytest.CaptureFixture[str]) -> None:
    use_json_logs()  # here, where standard error is the one capsys reads
    logging.getLogger("cardroom.web").error("table %s: the database refused", "t1")
    try:
        raise ValueError("bad")
    except ValueError:
        logging.getLogger("uvicorn.error").exception("failed")
    lines = [json.loads(x) for x in capsys.readouterr().err.splitlines()]
    first, second = lines
    assert first["level"] == "error" and first["logger"] == "cardroom.web"
    assert first["message"] == "table t1: the database refused" and first["time"].endswith("Z")
    assert second["logger"] == "uvicorn.error" and "ValueError: bad" in second["error"]


def test_the_formatter_escapes_what_a_message_holds() -> None:
    record: Any = logging.LogRecord("cardroom", logging.INFO, __file__, 1, 'a "quote"\nand a line', (), None)
    line = JsonFormatter().format(record)
    assert "\n" not in line and json.loads(line)["message"] == 'a "quote"\nand a line'
