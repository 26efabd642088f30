"""Levels in the terminal: ``cardroom play --bots expert`` seats the level's agent, and the help
names every level with its agent and its rating on each game's shipped ladder."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

import cardroom.cli.play as play_module
from cardroom.agents.levels import LEVELS, SHIPPED, rating, resolve_all, shipped_ladder
from cardroom.cli.main import app

runner = CliRunner()


def test_play_with_levels_seats_their_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def fake_run_play(rules: Any, **kwargs: Any) -> int:
        seen.update(kwargs)
        return 0

    monkeypatch.setattr(play_module, "run_play", fake_run_play)
    result = runner.invoke(app, ["play", "baha", "--seed", "1", "--bots", "beginner,Casual,expert"])
    assert result.exit_code == 0, result.output
    assert seen["bots"] == f"random,heuristic,{LEVELS['expert'].spec}"
    result = runner.invoke(app, ["play", "baha", "--seed", "1", "--bots", "strong", "--think", "1"])
    assert result.exit_code == 2 and "give the bots' budget once" in result.output


def test_play_really_plays_against_a_level() -> None:
    result = runner.invoke(app, ["play", "baha", "--players", "2", "--seed", "3", "--bots", "casual"], input="quit\n")
    assert result.exit_code == 0 and "Traceback" not in result.output


def test_the_help_names_each_level_with_its_rating_on_both_ladders() -> None:
    result = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    text = " ".join(result.output.replace("│", " ").split())  # the help's box and wrapping undone
    for name, level in LEVELS.items():
        baha, baebae = rating("baha", level.spec), rating("baebae", level.spec)
        assert baha is not None and baebae is not None, name
        assert f"{name} = {level.spec} (rated Baha {baha['mu']:.1f}, BAEBAE {baebae['mu']:.1f})" in text


def test_every_level_is_a_shipped_agent_and_every_shipped_agent_is_on_both_ladders() -> None:
    assert {level.spec for level in LEVELS.values()} <= set(SHIPPED)
    for game in ("baha", "baebae"):
        assert {r["agent"] for r in shipped_ladder()["games"][game]["rungs"]} == set(SHIPPED)
    assert resolve_all("beginner, ismcts:iterations=7") == "random,ismcts:iterations=7"
