"""The evaluation helper (agents against agents on paired duplicate deals) and the ladder built on it."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli.main import app
from cardroom.games import baebae, baha
from cardroom.sim.duplicate import rotations, run_duplicate
from cardroom.sim.evaluate import bootstrap_mean, elo_of, evaluate, evaluate_pairs, seating
from cardroom.sim.ladder import fit, put_in_doc, rate, run_ladder, save_ladder

runner = CliRunner()
BAHA = baha.Rules(target=1)


def test_a_pairing_is_the_duplicate_deals_of_a_b_a_b_and_its_figures_come_from_them() -> None:
    result = evaluate(BAHA, ["heuristic"], ["random"], deals=6, seed=4, bootstrap=200)
    p = result.pairings[0]
    lineups, rows = run_duplicate(BAHA, 6, 4, seating("heuristic", "random", 4))
    assert [lu.specs for lu in lineups] == [
        ("heuristic", "random", "heuristic", "random"),
        ("random", "heuristic", "random", "heuristic"),
    ]
    # deal by deal: the mean of each agent's seats over both rotations
    expected = []
    for row in rows:
        mine = [
            pts[s]
            for rot, g in enumerate(row)
            for pts in g.deal_points
            for s in range(4)
            if lineups[rot].specs[s] == "heuristic"
        ]
        theirs = [
            pts[s]
            for rot, g in enumerate(row)
            for pts in g.deal_points
            for s in range(4)
            if lineups[rot].specs[s] == "random"
        ]
        expected.append(sum(mine) / len(mine) - sum(theirs) / len(theirs))
    assert p.differences == pytest.approx(tuple(expected))
    assert p.difference.value == pytest.approx(sum(expected) / 6)
    assert p.outcomes == tuple(0.5 if d == 0 else 1.0 if d < 0 else 0.0 for d in expected)
    assert p.games == 12 and p.deals == 6
    assert p.difference.value < 0 and p.score.value > 0.5  # the heuristic takes fewer horns
    lo, hi = p.difference_bootstrap.low, p.difference_bootstrap.high
    assert lo <= p.difference.value <= hi
    assert p.elo.value == pytest.approx(elo_of(p.score.value))


def test_every_pairing_plays_the_same_deals_and_a_pair_is_played_once() -> None:
    result = evaluate(BAHA, ["heuristic", "random"], ["random", "heuristic"], deals=3, seed=9, bootstrap=0)
    assert [(p.agent, p.versus) for p in result.pairings] == [("heuristic", "random")]
    turned = result.pairing("random", "heuristic")
    assert turned.difference.value == pytest.approx(-result.pairings[0].difference.value)
    assert turned.score.value == pytest.approx(1 - result.pairings[0].score.value)
    with pytest.raises(KeyError):
        result.pairing("random", "ismcts")


def test_a_two_player_game_seats_one_of_each_and_a_search_agent_plays_too() -> None:
    rules = baebae.Rules(players=2, rounds=1)
    result = evaluate_pairs(rules, [("ismcts:iterations=10", "random")], deals=2, seed=1, bootstrap=20)
    p = result.pairings[0]
    assert p.games == 2 * len(rotations(seating("a", "b", 2))) == 4
    assert p.win_rate.n == 4  # one seat each per game


@pytest.mark.parametrize("pairs", [[("random", "random")], [("random", "nosuch")]])
def test_bad_pairings_are_refused_before_any_deal(pairs: list[tuple[str, str]]) -> None:
    with pytest.raises(Exception, match="itself|nosuch"):
        evaluate_pairs(BAHA, pairs, deals=1, seed=0)


def test_bootstrap_and_elo_helpers() -> None:
    assert bootstrap_mean([0.0, 1.0], []).low != bootstrap_mean([0.0, 1.0], []).low  # nan without resamples
    assert elo_of(1.0) == 800 and elo_of(0.0) == -800 and math.isnan(elo_of(math.nan))
    assert elo_of(0.6) == pytest.approx(70.4, abs=0.1)


def test_the_ladder_puts_the_agent_that_wins_every_deal_on_top_with_intervals() -> None:
    ladder = run_ladder(BAHA, ["random", "heuristic"], deals=5, seed=2, bootstrap=30)
    assert [r.agent for r in ladder.rungs] == ["heuristic", "random"]
    top, bottom = ladder.rungs
    assert top.mu > 25 > bottom.mu and top.low <= top.mu <= top.high
    assert ladder.neighbours[0].agent == "heuristic" and ladder.neighbours[0].versus == "random"
    data = ladder.to_dict()
    assert data["games"] == 10 and data["rungs"][0]["agent"] == "heuristic"
    json.dumps(data, allow_nan=False)


def test_openskill_fit_follows_the_outcomes_a_draw_moves_nobody_apart() -> None:
    result = evaluate(BAHA, ["heuristic"], ["random"], deals=3, seed=5, bootstrap=0)
    ratings = fit(["heuristic", "random"], result.pairings, [])
    assert ratings["heuristic"] == ratings["random"]  # no match: both at the start
    ladder = rate(["random", "heuristic"], result, bootstrap=0)
    assert math.isnan(ladder.rungs[0].low)  # no bootstrap, no interval


def test_the_ladder_command_prints_json_saves_a_ladder_file_and_fills_a_document(tmp_path: Path) -> None:
    doc = tmp_path / "strength.md"
    doc.write_text("# Strength\n<!-- ladder baha -->\nold\n<!-- /ladder baha -->\nafter\n")
    saved = tmp_path / "ladder.json"
    args = [
        "ladder",
        "baha",
        "--agents",
        "random,casual",
        "--deals",
        "3",
        "--rule",
        "target=1",
        "--bootstrap",
        "10",
        "--save",
        str(saved),
        "--doc",
        str(doc),
        "--json",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [r["agent"] for r in data["rungs"]] == ["heuristic", "random"]  # casual is the heuristic
    file = json.loads(saved.read_text())
    assert (
        file["games"]["baha"]["rungs"] == data["rungs"]
        and "cardroom ladder baha" in file["games"]["baha"]["command"]
    )
    text = doc.read_text()
    assert (
        "old" not in text
        and "| 1 | `heuristic` |" in text
        and text.endswith("<!-- /ladder baha -->\nafter\n")
    )
    printed = runner.invoke(app, args[:-5])
    assert printed.exit_code == 0 and "Ratings (openskill" in printed.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--agents", "random"], "two agents or more"),
        (["--agents", "random,random"], "twice"),
        (["--agents", "random,nosuch"], "nosuch"),
        (["--agents", "random,human"], "human is not a bot"),
        (["--json", "--markdown"], "not both"),
    ],
)
def test_the_ladder_command_refuses_bad_input_in_words(args: list[str], words: str) -> None:
    result = runner.invoke(app, ["ladder", "baha", "--deals", "1", *args])
    assert result.exit_code == 2 and words in result.output and "Traceback" not in result.output


def test_a_document_without_its_markers_is_refused(tmp_path: Path) -> None:
    doc = tmp_path / "d.md"
    doc.write_text("nothing here\n")
    with pytest.raises(ValueError, match="<!-- ladder baha -->"):
        put_in_doc(doc, "baha", "x")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 99}')
    with pytest.raises(ValueError, match="format"):
        save_ladder(bad, {"game": "baha"}, "c")
