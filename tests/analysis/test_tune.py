"""``cardroom tune``: a parameter with a known answer is recovered, a deck's number is changed
in its text (layout kept) and written, and bad parameters and targets are refused in words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.analysis.tune import TARGETS, Target, TuneError, parse_goal, parse_param, register_target
from cardroom.cli.main import app
from cardroom.games.baebae.deck import parse_deck, project_decks
from cardroom.games.baebae.deck_numbers import deck_number, with_deck_number

runner = CliRunner()


def test_the_rounds_that_give_a_target_length_are_found(tmp_path: Path) -> None:
    """The game's length in rounds is the option ``rounds``: the answer is known, 5."""
    out = tmp_path / "tune.json"
    result = runner.invoke(
        app,
        [
            "tune",
            "baebae",
            "--param",
            "rounds=1..8",
            "--target",
            "length=5",
            "--trials",
            "8",
            "--games",
            "4",
            "--retest",
            "4",
            "--workers",
            "1",
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    section = json.loads(out.read_text())["sections"]["tune"]
    assert section["figures"]["best"] == {"rounds": 5}
    assert section["figures"]["start"] == {"rounds": 3}
    best = section["tables"]["best"]["rows"][0]
    assert best["t_length"]["value"] == 5.0 and best["miss"] == 0.0
    assert section["tables"]["changes"]["rows"][0]["change"] == "rounds: 3 -> 5"


def test_a_longer_baha_game_needs_a_higher_target() -> None:
    """Hands a game grow with the points that end it: the length goal is met near the start
    value for the default's length, and below it for a shorter game."""
    from cardroom.analysis.tune import tune

    param = parse_param("baha", "target=30..150")
    short = tune(
        "baha",
        [param],
        [parse_goal("baha", "length=3")],
        base={},
        deck_text=None,
        agents="heuristic",
        trials=10,
        games=30,
        retest_games=60,
        top=2,
        seed=1,
    )
    assert short.best[0].values["target"] < 100
    assert abs(short.best[0].retest["length"][0] - 3) < 0.6


def test_a_deck_number_is_tuned_and_the_deck_written(tmp_path: Path) -> None:
    written = tmp_path / "tuned.toml"
    out = tmp_path / "tune.json"
    result = runner.invoke(
        app,
        [
            "tune",
            "baebae",
            "--param",
            "10C.count=1..3",
            "--target",
            "decisions=60",
            "--trials",
            "3",
            "--games",
            "4",
            "--retest",
            "4",
            "--workers",
            "1",
            "--write",
            str(written),
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    section = json.loads(out.read_text())["sections"]["tune"]
    best = section["figures"]["best"]["10C.count"]
    text = written.read_text()
    assert deck_number(text, "10C.count") == best
    assert parse_deck(text).name == "Cardroom Sample Deck"
    assert "# Cardroom Sample Deck: the townsfolk" in text  # the comments kept
    change = section["tables"]["changes"]["rows"][0]
    assert change["where"] == "10C Alderman Gorse" and change["from"] == 2 and change["to"] == best


def test_a_deck_number_is_changed_in_place_and_checked() -> None:
    text = project_decks()["sample"].read_text(encoding="utf-8")
    changed = with_deck_number(text, "7C.2.count", 2)
    assert deck_number(changed, "7C.2.count") == 2 and deck_number(changed, "7C.1.count") == 1
    assert len(changed.splitlines()) == len(text.splitlines())
    with pytest.raises(ValueError, match="2 numbers named count"):
        deck_number(text, "7C.count")
    with pytest.raises(ValueError, match="copies"):
        with_deck_number(text, "10C.copies", 0)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--param", "rounds=5..2", "--target", "length=3"], "low end"),
        (["--param", "players=2..4", "--target", "length=3"], "not a numeric option"),
        (["--param", "rounds=1..3", "--target", "fun=3"], "the targets are"),
        (["--param", "rounds=1..3", "--target", "length=abc"], "must be a number"),
        (["--param", "ZZ.count=1..3", "--target", "length=3"], "no card ZZ"),
        (
            ["--param", "rounds=1..3", "--target", "length=3", "--write", "x.toml"],
            "--write saves the tuned deck",
        ),
        (["--param", "rounds=1..3"], "at least one --param"),
        (["--param", "rounds=0..3", "--target", "length=3"], "rounds takes 1.."),
    ],
)
def test_bad_parameters_and_targets_are_refused_in_words(args: list[str], words: str) -> None:
    result = runner.invoke(app, ["tune", "baebae", *args, "--trials", "2", "--games", "2", "--retest", "2"])
    assert result.exit_code == 2
    assert words in " ".join(result.output.split())


def test_targets_are_a_registry() -> None:
    assert {"length", "decisions", "seats", "spread"} <= set(TARGETS)
    with pytest.raises(TuneError):
        register_target(TARGETS["length"])
    depth = Target(
        "depth_test", "a test figure", lambda trial: (1.0, 1.0, 1.0), lambda v, g: abs(v - g), "x=1"
    )
    register_target(depth)
    try:
        assert parse_goal("baebae", "depth_test=1").target is depth
    finally:
        del TARGETS["depth_test"]


def test_seat_advantage_is_the_farthest_seat_from_the_fair_share() -> None:
    from cardroom.analysis.tune import Trial, _seat_advantage
    from cardroom.sim.tournament import GameResult

    def games(winner: int) -> Trial:
        results = [
            GameResult(index=i, seed=i, totals=[0] * 4, winners=[winner if winner >= 0 else i % 4], deals=1)
            for i in range(40)
        ]
        return Trial(results, None, None, 0)  # type: ignore[arg-type]

    value, low, high = _seat_advantage(games(-1))  # each seat wins a quarter
    assert value == pytest.approx(0.0) and low == 0.0 and high > 0
    value, low, high = _seat_advantage(games(0))  # seat 0 wins every game
    assert value == pytest.approx(0.75) and 0 < low <= value <= high


def test_a_point_goal_is_met_inside_the_interval_and_a_bound_at_or_below() -> None:
    assert TARGETS["length"].met((3.9, 3.7, 4.1), 4) and not TARGETS["length"].met((3.5, 3.4, 3.6), 4)
    assert TARGETS["seats"].met((0.02, 0.0, 0.05), 0.03) and not TARGETS["seats"].met((0.04, 0.0, 0.08), 0.03)


def test_a_start_that_meets_the_goal_on_fresh_games_is_kept(tmp_path: Path) -> None:
    """A seat advantage of at most 1 is met by any deck: the start (10C.count=2, outside the range
    searched) meets it on the re-test, so tune says so and keeps it rather than move to a value
    of the range."""
    written = tmp_path / "tuned.toml"
    out = tmp_path / "tune.json"
    result = runner.invoke(
        app,
        ["tune", "baebae", "--param", "10C.count=3..6", "--target", "seats=1", "--trials", "4", "--games", "4",
         "--retest", "4", "--top", "2", "--workers", "1", "--write", str(written), "--json", str(out)],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    section = report["sections"]["tune"]
    assert section["figures"]["start_meets"] is True
    assert section["figures"]["best"] == section["figures"]["start"] == {"10C.count": 2}
    assert section["tables"]["changes"]["rows"][0]["change"] == "unchanged"
    assert report["verdict"][0].startswith("Keep the start (10C.count=2): it already meets every goal on 4 fresh "
                                           "games (each point goal inside the re-test's 95% interval")
    said = " ".join(result.output.split())
    assert "verdict: Keep the start (10C.count=2)" in said and "the start's, unchanged" in said
    assert deck_number(written.read_text(), "10C.count") == 2


def test_a_start_that_misses_the_goal_gets_the_change_in_the_verdict(tmp_path: Path) -> None:
    out = tmp_path / "tune.json"
    result = runner.invoke(
        app,
        ["tune", "baebae", "--param", "rounds=1..8", "--target", "length=5", "--trials", "8", "--games", "4",
         "--retest", "4", "--workers", "1", "--json", str(out)],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    assert report["sections"]["tune"]["figures"]["start_meets"] is False
    assert report["verdict"][0].startswith("Change rounds: 3 -> 5: on 4 fresh games it meets every goal")
