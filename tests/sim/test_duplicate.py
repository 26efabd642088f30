"""Duplicate deals: every rotation of the line-up plays the same cards."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from cardroom.cli.main import app
from cardroom.games import baha
from cardroom.sim import Lineup
from cardroom.sim.duplicate import rotations, run_duplicate, summarize_duplicate


def test_rotations_turn_the_lineup_round_the_table() -> None:
    turned = rotations(Lineup(("a", "b", "b", "b")))
    assert [rotation.specs for rotation in turned] == [("a", "b", "b", "b"), ("b", "a", "b", "b"),
                                         ("b", "b", "a", "b"), ("b", "b", "b", "a")]
    assert len(rotations(Lineup(("x", "x", "x")))) == 1
    assert len(rotations(Lineup(("a", "b", "a", "b")))) == 2


def test_every_rotation_gets_the_same_first_deal() -> None:
    rules = baha.Rules(players=4, target=1)
    lineups, rows = run_duplicate(rules, 3, 40, Lineup.parse("heuristic,random,random,random", 4))
    assert len(rows) == 3 and all(len(row) == 4 for row in rows)
    for deal, row in enumerate(rows):
        assert {r.seed for r in row} == {40 + deal}
    first_hands = {tuple(map(tuple, rules.new_game(40).log[0]["hands"]))}
    assert len(first_hands) == 1


def test_paired_difference_is_the_mean_of_deal_differences() -> None:
    rules = baha.Rules(players=4, target=30)
    lineup = Lineup.parse("heuristic,random,random,random", 4)
    lineups, rows = run_duplicate(rules, 6, 0, lineup)
    summary = summarize_duplicate(rules, lineup, lineups, rows, 0, 1.0)
    by_agent = {a["agent"]: a for a in summary["agents"]}
    diff = summary["pairs"][0]["difference"]
    assert summary["pairs"][0]["agent"] == "heuristic" and summary["pairs"][0]["versus"] == "random"
    expected = by_agent["heuristic"]["mean_points"]["value"] - by_agent["random"]["mean_points"]["value"]
    assert abs(diff["value"] - expected) < 1e-9
    assert diff["low"] < diff["value"] < diff["high"]
    assert diff["high"] < 0  # the heuristic takes fewer horns than random, clearly
    assert by_agent["heuristic"]["seat_games"] == 6 * 4
    assert by_agent["random"]["seat_games"] == 6 * 4 * 3


def test_simulate_duplicate_cli_json() -> None:
    result = CliRunner().invoke(
        app, ["simulate", "baha", "--duplicate", "--games", "2", "--agents", "heuristic,random,random",
              "--players", "3", "--json", "--rule", "target=20"],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["duplicate"] and summary["games"] == 6 and summary["deals"] == 2
    table = CliRunner().invoke(
        app, ["simulate", "baebae", "--duplicate", "--games", "2", "--agents", "random,random",
              "--players", "2", "--rule", "rounds=1"],
    )
    assert table.exit_code == 0 and "Penalty per round" in table.output
