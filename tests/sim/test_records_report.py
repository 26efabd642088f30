"""``cardroom report``: the summary of saved records equals the summary of the run itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli.main import app
from cardroom.games import baha
from cardroom.record import RecordError
from cardroom.sim import Lineup, run_games
from cardroom.sim.duplicate import run_duplicate, summarize_duplicate
from cardroom.sim.records import report_records
from cardroom.sim.report import summarize


def test_duplicate_run_in_two_parts_reports_as_one(tmp_path: Path) -> None:
    rules = baha.Rules(players=4, target=20)
    lineup = Lineup.parse("heuristic,random,random,random", 4)
    lineups, rows = run_duplicate(rules, 5, 30, lineup)
    whole = summarize_duplicate(rules, lineup, lineups, rows, 30, 0.0)
    run_duplicate(rules, 3, 30, lineup, records=tmp_path / "part1")
    run_duplicate(rules, 2, 33, lineup, records=tmp_path / "part2")
    reported = report_records([tmp_path / "part1", tmp_path / "part2"])
    assert reported["duplicate"] and reported["deals"] == 5 and reported["records"] == 20
    assert reported["agents"] == whole["agents"]
    assert reported["pairs"] == whole["pairs"]


def test_plain_run_reports_like_simulate(tmp_path: Path) -> None:
    rules = baha.Rules(players=3)
    lineup = Lineup.parse("heuristic,random,random", 3)
    results = run_games(rules, 6, 4, lineup, records=tmp_path)
    plain = summarize(rules, lineup, results, 4, 0.0)
    reported = report_records([tmp_path])
    assert reported["seats"] == plain["seats"] and reported["agents"] == plain["agents"]


def test_report_refuses_mixed_or_missing_records(tmp_path: Path) -> None:
    run_games(baha.Rules(players=3), 1, 0, Lineup.parse("random", 3), records=tmp_path / "a")
    run_games(baha.Rules(players=4), 1, 0, Lineup.parse("random", 4), records=tmp_path / "b")
    with pytest.raises(RecordError, match="another game, rules or deck"):
        report_records([tmp_path / "a", tmp_path / "b"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(RecordError, match="no record files"):
        report_records([tmp_path / "empty"])
    with pytest.raises(RecordError, match="cannot read"):
        report_records([tmp_path / "missing.json"])
    result = CliRunner().invoke(app, ["report", str(tmp_path / "a"), str(tmp_path / "b")])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_report_cli_json(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(app, ["simulate", "baebae", "--games", "2", "--records", str(tmp_path)]).exit_code == 0
    result = runner.invoke(app, ["report", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["game"] == "baebae" and summary["games"] == 2
    table = runner.invoke(app, ["report", str(tmp_path)])
    assert table.exit_code == 0 and "Penalty per round" in table.output


def test_a_run_stopped_part_way_reports_its_complete_deals(tmp_path: Path) -> None:
    rules = baha.Rules(players=4, target=20)
    lineup = Lineup.parse("heuristic,random,random,random", 4)
    lineups, rows = run_duplicate(rules, 3, 40, lineup)
    whole = summarize_duplicate(rules, lineup, lineups, rows, 40, 0.0)
    run_duplicate(rules, 4, 40, lineup, records=tmp_path / "run")
    files = sorted((tmp_path / "run").glob("*.json"))
    assert len(files) == 16
    for path in files[-2:]:  # the last deal lost two of its rotations
        path.unlink()
    reported = report_records([tmp_path / "run"])
    assert reported["deals"] == 3 and reported["incomplete_deals_left_out"] == 1
    assert reported["games_left_out"] == 2
    assert reported["agents"] == whole["agents"] and reported["pairs"] == whole["pairs"]
    result = CliRunner().invoke(app, ["report", str(tmp_path / "run")])
    assert result.exit_code == 0 and "left out: 1 deal not played in every rotation (2 games)" in result.output
    assert "seeds 40..42" in result.output


def test_report_refuses_the_same_game_twice(tmp_path: Path) -> None:
    lineup = Lineup.parse("heuristic,random,random,random", 4)
    run_duplicate(baha.Rules(players=4, target=20), 1, 7, lineup, records=tmp_path / "a")
    run_duplicate(baha.Rules(players=4, target=20), 1, 7, lineup, records=tmp_path / "b")
    with pytest.raises(RecordError, match="two records of seed 7"):
        report_records([tmp_path / "a", tmp_path / "b"])
