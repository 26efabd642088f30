"""``cardroom drama``: a search oracle values each decision; on a hand-made position where one
choice wins the round, that choice is the best by a wide margin; a game's summary adds up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.agents import make
from cardroom.agents.ismcts import ISMCTSAgent
from cardroom.analysis.drama import game_drama, value_decision
from cardroom.cli.main import app
from cardroom.games import baebae
from cardroom.sim.tournament import Lineup

runner = CliRunner()


def oracle(seed: int, iterations: int = 600) -> ISMCTSAgent:
    found = make("ismcts", seed=seed, iterations=iterations)
    assert isinstance(found, ISMCTSAgent)
    return found


def going_out() -> baebae.BaebaeState:
    """Two players, two cards each, one round. Seat 1 plays 3D; seat 0 holds KD and 3H (sample
    deck): playing 3H lets it put KD (a Critter) under it and go out with no penalty; playing KD
    leaves 3H in hand while seat 1 holds one card."""
    rules = baebae.Rules(players=2, rounds=1, hand_size=2)
    state = rules.new_game(0, deal=baebae.Deal(hands=[["KD", "3H"], ["3D", "9H"]], starter="3C", dealer=0))
    state.apply(state.parse_action("play 3D"))
    return state


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_choice_that_goes_out_is_the_best_by_a_wide_margin(seed: int) -> None:
    state = going_out()
    decision = value_decision(state, oracle(seed), 1)
    assert decision is not None and decision.seat == 0 and decision.legal == 2
    assert max(decision.values, key=lambda a: decision.values[a]) == "play 3H"
    assert decision.range > 0.15 and decision.gap == decision.range  # two actions: gap is range
    assert state.current_player == 0 and len(state.history) == 1  # the search left the game as it was


def test_a_games_summary_adds_up() -> None:
    rules = baebae.Rules(players=3, rounds=1)
    drama = game_drama(rules, 4, Lineup.parse("heuristic", 3), oracle(0, 80))
    summary = drama.summary(0.1)
    assert 0 < summary["valued"] <= summary["real"] <= summary["decisions"]
    assert summary["mattered"] <= summary["valued"] and summary["mistakes"] <= summary["valued"]
    assert all(d.best >= d.second >= d.worst for d in drama.valued)
    assert all(d.chosen for d in drama.valued)
    assert summary["lead_changes"] == 0  # one round: no change of leader


def test_drama_writes_its_figures_and_refuses_a_bad_oracle(tmp_path: Path) -> None:
    out = tmp_path / "drama.json"
    result = runner.invoke(
        app,
        [
            "drama",
            "baha",
            "--games",
            "1",
            "--oracle",
            "ismcts:iterations=30",
            "--rule",
            "target=30",
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    section = json.loads(out.read_text())["sections"]["drama"]
    assert section["figures"]["real"] > 0
    assert {"summary", "games", "moments"} <= set(section["tables"])
    result = runner.invoke(app, ["drama", "baha", "--games", "1", "--oracle", "heuristic"])
    assert result.exit_code == 2 and "--oracle is a search" in result.output
    result = runner.invoke(app, ["drama", "baha", "--games", "1", "--threshold", "-1"])
    assert result.exit_code == 2 and "--threshold" in result.output
