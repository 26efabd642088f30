"""``cardroom skill``: each rung of budgets against the one below on duplicate deals, the fitted
trend, variants compared; text, JSON and an HTML plot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom import agents
from cardroom.cli.main import app
from cardroom.games import baha
from cardroom.sim.skill import fit_trend, run_skill, skill_rungs

runner = CliRunner()


def test_the_rungs_double_the_search_and_take_the_learned_agent_when_it_is_registered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert skill_rungs(5, 2)[:5] == [
        "random",
        "heuristic",
        "ismcts:iterations=5",
        "ismcts:iterations=10",
        "ismcts:iterations=20",
    ]
    assert skill_rungs(5, 2)[5:] == ["learned"]  # it ships with Cardroom
    monkeypatch.delitem(agents.AGENTS, "learned")
    assert skill_rungs(5, 0)[-1] == "ismcts:iterations=5"
    monkeypatch.setitem(agents.AGENTS, "learned", agents.AGENTS["random"])
    assert skill_rungs(5, 0)[-1] == "learned"
    with pytest.raises(ValueError, match="base"):
        skill_rungs(0, 1)


def test_the_trend_is_the_least_squares_line_of_the_doublings_scores() -> None:
    trend = fit_trend([0.9, 0.7, 0.5])
    assert trend.slope == pytest.approx(-0.2) and trend.intercept == pytest.approx(1.1)
    assert trend.pays_until == pytest.approx(3.0)
    assert fit_trend([0.6, 0.7]).pays_until is None  # still rising
    assert fit_trend([]).to_dict()["slope"] is None


def test_each_rung_plays_the_one_below_on_the_same_deals_and_the_range_chains_them() -> None:
    rules = baha.Rules(target=1)
    rungs = ["random", "heuristic", "ismcts:iterations=5", "ismcts:iterations=10", "ismcts:iterations=20"]
    report = run_skill(rules, rungs, deals=2, seed=3, bootstrap=20)
    assert [(s["rung"], s["below"]) for s in report["steps"]] == list(zip(rungs[1:], rungs, strict=False))
    assert report["rungs"] == rungs
    searched = [s["score"]["value"] for s in report["steps"][2:]]
    trend = dict(report["trend"])
    low, high = trend.pop("slope_interval")
    assert trend == fit_trend(searched).to_dict() and trend["steps"] == 2
    assert low <= high
    chained = sum(s["difference"]["value"] for s in report["steps"])
    assert report["range"]["difference"]["value"] == pytest.approx(chained)
    assert report["steps"][0]["score"]["value"] == 1.0  # the heuristic beats random on every deal
    json.dumps(report, allow_nan=False)


def test_the_command_compares_variants_in_text_json_and_html(tmp_path: Path) -> None:
    out, page = tmp_path / "skill.json", tmp_path / "skill.html"
    result = runner.invoke(
        app,
        [
            "skill",
            "baha",
            "--deals",
            "2",
            "--iterations",
            "4",
            "--doublings",
            "1",
            "--rule",
            "target=1",
            "--rule",
            "target=1,moon=false",
            "--json",
            str(out),
            "--html",
            str(page),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Each rung against the one below" in result.output and "Variants side by side" in result.output
    data = json.loads(out.read_text())
    assert [v["rules"]["moon"] for v in data["variants"]] == [True, False]
    assert all(len(v["steps"]) == len(skill_rungs(4, 1)) - 1 == 4 for v in data["variants"])  # learned on top
    html = page.read_text()
    assert 'data-plot="score"' in html and "moon=False" in html


def test_at_80_columns_every_rung_is_named_whole_and_the_deck_by_its_name(tmp_path: Path) -> None:
    """A terminal of 80 columns: the rungs' names are never cut (ismcts 100, not "ismcts:itera..."),
    the deck file is named by its name (and the start of its digest), and a verdict comes first."""
    deck = tmp_path / "harbour.toml"
    made = runner.invoke(app, ["deck", "new", "Harbour Deck", "--from", "sample", "--out", str(deck)])
    assert made.exit_code == 0, made.output
    out, page = tmp_path / "skill.json", tmp_path / "skill.html"
    result = runner.invoke(
        app,
        ["skill", "baebae", "--deck", str(deck), "--deals", "2", "--iterations", "25", "--doublings", "2",
         "--rule", "rounds=1", "--workers", "1", "--json", str(out), "--html", str(page)],
        env={"COLUMNS": "80"},
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    table = [line for line in lines if line.startswith("│")]
    assert table and all(len(line) <= 80 for line in table)
    assert "…" not in result.output
    named = [line.split("│")[1].strip() for line in table if line.split("│")[1].strip()]
    assert named == ["heuristic", "ismcts 25", "ismcts 50", "ismcts 100", "learned"]
    assert "ismcts N: ismcts:iterations=N" in result.output
    assert "deck=Harbour Deck (sha256:" in result.output
    assert "deck=sha256:" not in result.output
    assert lines[1].startswith("verdict: Skill: learned does ")
    assert any(line.startswith("verdict: Every figure is pooled over all seats") for line in lines)
    data = json.loads(out.read_text())["variants"][0]
    assert data["deck"]["name"] == "Harbour Deck"
    html = page.read_text()
    assert "How much skill matters: BAEBAE, Harbour Deck" in html and "data-verdict" in html
    assert "deck=Harbour Deck (sha256:" in html


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--deals", "0"], "--deals"),
        (["--rule", "target=1", "--rule", "target=1"], "the same"),
        (["--rule", "nosuch=1"], "nosuch"),
    ],
)
def test_the_command_refuses_bad_input_in_words(args: list[str], words: str) -> None:
    result = runner.invoke(app, ["skill", "baha", *args])
    assert result.exit_code == 2 and words in result.output and "Traceback" not in result.output
