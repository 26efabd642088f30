"""The simulate and replay commands, driven as a user would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli.main import app

runner = CliRunner()


def test_simulate_prints_tables() -> None:
    result = runner.invoke(app, ["simulate", "baha", "--players", "4", "--games", "10", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "Per seat" in result.output and "Per agent" in result.output
    assert "Horns per hand" in result.output and "heuristic" in result.output


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_simulate_and_compare_seat_the_same_bots_by_default(game: str) -> None:
    """Without --agents, simulate seats the heuristic bot, as compare, sweep, tune and drama do."""
    result = runner.invoke(app, ["simulate", game, "--games", "2", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert [s["agent"] for s in summary["seats"]] == ["heuristic"] * len(summary["seats"])


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "2"],
        ["--players", "3", "--rule", "draw_pile=true"],
        ["--players", "3"],
        ["--players", "4", "--rule", "scoring=face", "--rule", "moon=false"],
        ["--players", "5", "--rule", "passing=false"],
        ["--players", "6", "--rule", "random_dealer=true", "--rule", "target=50"],
        ["--players", "2", "--rule", "draw_pile=false"],
    ],
)
def test_simulate_json_and_records_replay(tmp_path: Path, args: list[str]) -> None:
    records = tmp_path / "records"
    result = runner.invoke(
        app, ["simulate", "baha", "--games", "3", "--seed", "7", "--records", str(records), "--json", *args]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 3
    assert len(summary["seats"]) == summary["rules"]["players"]
    files = sorted(records.glob("*.json"))
    assert len(files) == 3
    verified = runner.invoke(app, ["replay", "--verify", *map(str, files)])
    assert verified.exit_code == 0, verified.output
    assert verified.output.count("replays exactly") == 3


def test_simulate_agents_by_seat() -> None:
    result = runner.invoke(
        app, ["simulate", "baha", "--players", "3", "--games", "2", "--agents", "random,random,random", "--json"]
    )
    assert result.exit_code == 0
    assert [s["agent"] for s in json.loads(result.stdout)["seats"]] == ["random"] * 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "7"], "players must be"),
        (["--rule", "target=-5"], "target must be"),
        (["--rule", "scoring=x"], "scoring must be"),
        (["--rule", "bogus=1"], "unknown Baha option"),
        (["--rule", "target"], "KEY=VALUE"),
        (["--rule", "moon=maybe"], "true or false"),
        (["--agents", "random,random"], "every seat"),
        (["--agents", "nosuch"], "unknown agent"),
        (["--agents", "random:foo=1"], "random has no option 'foo'; its options: seed"),
        (["--agents", "ismcts:seed=x"], "seed must be a whole number from 0"),
        (["--workers", "99999"], "--workers 99999: give 0 (one per core"),
        (["--workers", "-1"], "--workers -1: give 0 (one per core"),
        (["--players", "4", "--rule", "draw_pile=true"], "draw_pile"),
    ],
)
def test_simulate_bad_arguments(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["simulate", "baha", "--games", "1", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("spec", ["random:seed=3", "heuristic:seed=1", "ismcts:seed=3:iterations=5"])
def test_simulate_takes_a_seat_seed(spec: str) -> None:
    result = runner.invoke(app, ["simulate", "baha", "--games", "2", "--agents", spec, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["agents"][0]["agent"] == spec


def test_simulate_unknown_game_and_bad_count() -> None:
    result = runner.invoke(app, ["simulate", "poker"])
    assert result.exit_code == 2 and "unknown game" in result.output
    result = runner.invoke(app, ["simulate", "baha", "--games", "0"])
    assert result.exit_code != 0 and "Traceback" not in result.output


def test_replay_refuses_malformed_and_tampered(tmp_path: Path) -> None:
    records = tmp_path / "r"
    assert runner.invoke(app, ["simulate", "baha", "--games", "1", "--records", str(records)]).exit_code == 0
    good = records / "game-000000.json"
    record = json.loads(good.read_text())
    record["log"][5] = {"t": "play", "p": 0, "card": "1P"}
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(record))
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    result = runner.invoke(app, ["replay", "--verify", str(good), str(tampered), str(broken), str(tmp_path / "none.json")])
    assert result.exit_code == 1
    assert "replays exactly" in result.output
    assert "event 5 differs" in result.output
    assert "not JSON" in result.output
    assert "cannot read" in result.output
    assert "Traceback" not in result.output
    as_json = runner.invoke(app, ["replay", "--verify", "--json", str(good), str(broken)])
    verdicts = json.loads(as_json.stdout)
    assert [v["ok"] for v in verdicts] == [True, False]


def test_piped_lines_are_not_wrapped(tmp_path: Path) -> None:
    """Output read by another program keeps one line per verdict, however long."""
    records = tmp_path / ("a-folder-with-a-long-name-" * 4)
    assert runner.invoke(app, ["simulate", "baha", "--games", "2", "--records", str(records)]).exit_code == 0
    files = sorted(map(str, records.glob("*.json")))
    result = runner.invoke(app, ["replay", "--verify", *files])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and all(line.startswith("ok") and "replays exactly" in line for line in lines)
    assert [line[len("ok"):].split(": replays")[0].strip() for line in lines] == files


def test_replay_without_verify_summarizes(tmp_path: Path) -> None:
    records = tmp_path / "r"
    runner.invoke(app, ["simulate", "baha", "--games", "1", "--records", str(records)])
    result = runner.invoke(app, ["replay", str(records / "game-000000.json")])
    assert result.exit_code == 0 and "winner seat" in result.output


def _tampered(tmp_path: Path) -> dict[str, Path]:
    """A good record, one whose result was edited, one whose log was cut, one without a log."""
    records = tmp_path / "r"
    assert runner.invoke(app, ["simulate", "baha", "--games", "1", "--records", str(records)]).exit_code == 0
    good = records / "game-000000.json"
    record = json.loads(good.read_text())
    files = {"good": good}
    edited = dict(record, result={**record["result"], "winner": (record["result"]["winner"] + 1) % 4})
    cut = dict(record, log=record["log"][: len(record["log"]) // 2])
    unlogged = {k: v for k, v in record.items() if k != "log"}
    for name, changed in (("edited", edited), ("cut", cut), ("unlogged", unlogged)):
        files[name] = tmp_path / f"{name}.json"
        files[name].write_text(json.dumps(changed))
    return files


def test_replay_without_verify_refuses_an_edited_result_or_a_cut_log(tmp_path: Path) -> None:
    files = _tampered(tmp_path)
    for name in ("edited", "cut"):
        result = runner.invoke(app, ["replay", str(files[name])])
        assert result.exit_code == 1, (name, result.output)
        assert "FAIL" in result.output and "winner seat" not in result.output, result.output
        assert "does not replay to what it says" in result.output
    assert "result differs" in runner.invoke(app, ["replay", str(files["edited"])]).output
    assert "the replay has" in runner.invoke(app, ["replay", str(files["cut"])]).output
    # What is there is checked; a record without a log (made by hand) still replays.
    assert runner.invoke(app, ["replay", str(files["unlogged"])]).exit_code == 0
    assert runner.invoke(app, ["replay", "--verify", str(files["unlogged"])]).exit_code == 1


def test_narrate_refuses_an_edited_result(tmp_path: Path) -> None:
    files = _tampered(tmp_path)
    result = runner.invoke(app, ["replay", "--narrate", str(files["edited"])])
    assert result.exit_code == 1 and "result differs" in result.output
    assert runner.invoke(app, ["replay", "--narrate", str(files["good"])]).exit_code == 0
