"""A deck file is shown by its name and digest wherever a person reads rules, never as its text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli.main import app
from cardroom.games.baebae.deck import SAMPLE_DECK

runner = CliRunner()


@pytest.fixture
def mydeck(tmp_path: Path) -> Path:
    path = tmp_path / "mydeck.toml"
    path.write_text(SAMPLE_DECK.read_text().replace('name = "Cardroom Sample Deck"', 'name = "My Deck"', 1))
    return path


def _no_text(output: str) -> None:
    assert "deck_files" not in output and "[[card]]" not in output and "Puddingstone" not in output


@pytest.mark.parametrize("extra", [[], ["--duplicate", "--players", "2"]], ids=["plain", "duplicate"])
def test_simulate_names_a_deck_file_by_name_and_digest(mydeck: Path, extra: list[str]) -> None:
    result = runner.invoke(app, ["simulate", "baebae", "--deck", str(mydeck), "--games", "1", *extra])
    assert result.exit_code == 0, result.output
    _no_text(result.output)
    rules_line = next(line for line in result.output.splitlines() if line.startswith("rules:"))
    assert "deck=My Deck (sha256:" in rules_line and len(rules_line) < 300
    as_json = runner.invoke(app, ["simulate", "baebae", "--deck", str(mydeck), "--games", "1", "--json", *extra])
    summary = json.loads(as_json.stdout)
    _no_text(as_json.stdout)
    assert summary["rules"]["deck"] == summary["deck"]["digest"] and summary["deck"]["name"] == "My Deck"


def test_report_and_analyze_name_a_deck_file_by_name_and_digest(mydeck: Path, tmp_path: Path) -> None:
    records, out = tmp_path / "records", tmp_path / "out"
    result = runner.invoke(app, ["simulate", "baebae", "--deck", str(mydeck), "--games", "2", "--records",
                                 str(records), "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = runner.invoke(app, ["report", str(records)])
    assert report.exit_code == 0, report.output
    _no_text(report.output)
    assert "deck=My Deck (sha256:" in report.output
    analyzed = runner.invoke(app, ["analyze", str(out), "--json", str(tmp_path / "figures.json")])
    assert analyzed.exit_code == 0, analyzed.output
    facts = json.loads((tmp_path / "figures.json").read_text())["facts"]
    assert "deck=My Deck (sha256:" in facts["rules"] and "deck=My Deck (sha256:" in analyzed.output
