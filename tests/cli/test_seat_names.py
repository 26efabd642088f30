"""One seat naming for every front and every record (cardroom.seats): the web table's summary
and record, the terminal's screen and record, and the narration of a record all call seat 2's
heuristic bot "Heuristic 2"; a terminal record without --name narrates in good grammar."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from typer.testing import CliRunner

from cardroom.cli.main import app
from cardroom.record import load
from cardroom.seats import record_names, seat_name

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from web_support import LiveServer, play_out  # noqa: E402

runner = CliRunner()
FIRST_MOVES = "1 2 3\n\n1\n" * 1000
"""At a pass the first three cards then Enter to send them (a play prompt refuses those two
lines); at a play the first move: far more answers than a game to target=1 needs."""


def test_the_web_table_names_seats_as_the_terminal_and_the_records_do(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "data")
    try:
        table = server.create(game="baha", rules={"target": 1}, name="Ada",
                              seats=["human", "heuristic", "random", "ismcts:iterations=20"])
        titles = [s["title"] for s in table["seats"]]
        assert titles == ["Ada", "Heuristic 1", "Random 2", "ISMCTS 3"]
        ada = server.client(table["id"], table["token"])
        play_out([ada])
        ada.close()
        record = server.http.get(f"/api/tables/{table['id']}/record").json()
    finally:
        server.stop()
    assert [s["name"] for s in record["seats"]] == titles
    path = tmp_path / "web.json"
    path.write_text(json.dumps(record))
    told = runner.invoke(app, ["replay", str(path), "--narrate"])
    assert told.exit_code == 0, told.output
    heading = told.output.splitlines()[0]
    assert "seats Ada (human), Heuristic 1, Random 2, ISMCTS 3" in heading, heading
    assert "(heuristic)" not in heading and "Seat " not in told.output


def test_the_terminal_and_its_record_name_bots_by_kind_and_seat(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "baha", "--seed", "4", "--rule", "target=1", "--bots", "heuristic,random,heuristic",
                                 "--record", str(path)], input=FIRST_MOVES)
    assert result.exit_code == 0, result.output
    assert re.search(r"^Heuristic 1 (plays|leads) ", result.output, re.M), result.output[-2000:]
    assert "Seat 1" not in result.output and "Seat 2" not in result.output
    record = load(path)
    assert [s["name"] for s in record["seats"]] == ["Seat 0", "Heuristic 1", "Random 2", "Heuristic 3"]
    # Told from the record, the default name makes good sentences: no "You holds", no "You's".
    told = runner.invoke(app, ["replay", str(path), "--narrate"])
    assert told.exit_code == 0, told.output
    assert "Seat 0 holds " in told.output and "Heuristic 1 holds " in told.output
    assert not re.search(r"\bYou(s|'s)?\b", told.output), told.output[:2000]


def test_an_older_records_bot_seats_are_named_as_the_fronts_name_them() -> None:
    seats = [{"name": "You", "agent": "human"}, {"name": "Seat 1", "agent": "heuristic"},
             {"name": "Seat 2", "agent": "unknown"}, {"name": "Bo", "agent": "human"}]
    assert record_names(seats) == ["You", "Heuristic 1", "Seat 2", "Bo"]
    assert seat_name(4, agent="policy:path=x.zip") == "Policy 4"


def test_a_searching_level_s_bot_is_named_by_its_level_at_the_table(tmp_path: Path) -> None:
    """The lobby offers "Expert"; the table names that bot "Expert 1", not by its agent
    ("ISMCTS 1"). (A table waiting for its person: no search is played.)"""
    server = LiveServer(tmp_path / "data")
    try:
        table = server.create(game="baha", players=3, seats=["human", "expert", "strong"])
        assert [s["title"] for s in table["seats"]] == ["Seat 0", "Expert 1", "Strong 2"]
        assert [s["bot"] for s in table["seats"]] == [None, "ismcts:iterations=1000", "ismcts:iterations=300"]
    finally:
        server.stop()
