"""Each figure on a small hand-made results folder whose answer is known by hand."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from tables import write_folder  # type: ignore[import-not-found]

from cardroom.analysis.compare import compare_runs
from cardroom.analysis.figures import build_report, game_frame
from cardroom.analysis.folder import read_results
from cardroom.analysis.report import Report, Table
from cardroom.analysis.stats import holm, mean_t, paired_difference, welch_difference


def table(report: Report, section: str, key: str) -> Table:
    found = next(s for s in report.sections if s.key == section)
    return next(t for t in found.tables if t.key == key)


def metric(report: Report, name: str) -> dict[str, Any]:
    rows = table(report, "metrics", "metrics").rows
    return next(r["value"] for r in rows if r["metric"].startswith(name))


def test_a_seat_that_always_wins_is_flagged_and_balance_is_one(tmp_path: Path) -> None:
    deals = [[[0, 5, 5, 5], [1, 3, 3, 4]] for _ in range(30)]
    report = build_report(read_results(write_folder(tmp_path / "r", "baha", deals)))
    seats = table(report, "seat_advantage", "seats").rows
    assert seats[0]["win_rate"]["value"] == 1.0 and seats[0]["unfair"]
    assert all(r["win_rate"]["value"] == 0.0 and r["unfair"] for r in seats[1:])
    assert seats[0]["points"]["value"] == 1.0 and seats[3]["points"]["value"] == 9.0
    assert metric(report, "balance (max")["value"] == 1.0
    assert metric(report, "balance as a score")["value"] == 0.0
    assert metric(report, "drawishness")["value"] == 0.0
    assert metric(report, "decisiveness")["value"] == 7.0  # 1 against 8 after both hands
    assert metric(report, "duration (hands")["value"] == 2.0


def test_a_fair_table_flags_no_seat(tmp_path: Path) -> None:
    # Each seat wins one game in four, in turn.
    deals = [[[0 if s == g % 4 else 5 for s in range(4)]] for g in range(40)]
    report = build_report(read_results(write_folder(tmp_path / "r", "baha", deals)))
    seats = table(report, "seat_advantage", "seats").rows
    assert [r["win_rate"]["value"] for r in seats] == [0.25] * 4
    assert not any(r["unfair"] for r in seats)
    assert metric(report, "balance (max")["value"] == 0.0


def test_a_shared_first_place_counts_half_and_is_drawish(tmp_path: Path) -> None:
    deals = [[[2, 2, 7]] for _ in range(10)] + [[[1, 2, 7]] for _ in range(10)]
    report = build_report(read_results(write_folder(tmp_path / "r", "baha", deals)))
    seats = table(report, "seat_advantage", "seats").rows
    assert seats[0]["wins"] == 15.0 and seats[1]["wins"] == 5.0
    assert metric(report, "drawishness")["value"] == 0.5
    # tied games: first 2, next place (3rd) 7 -> 5; the others: 1 against 2 -> 1
    assert metric(report, "decisiveness")["value"] == 3.0


def test_lead_changes_count_a_new_sole_leader_and_ignore_ties(tmp_path: Path) -> None:
    deals = [
        [[0, 5], [10, 0]],  # leader 0, then 1: one change
        [[0, 5], [3, 0], [0, 10]],  # leader 0 throughout: none
        [[0, 5], [5, 0], [0, 1], [9, 0]],  # 0, tie (keeps 0), 0, then 1: one change
        [[0, 5], [9, 0], [0, 9]],  # 0, 1, 0: two changes
    ]
    results = read_results(write_folder(tmp_path / "r", "baha", deals))
    assert game_frame(results)["lead_changes"].to_list() == [1.0, 0.0, 1.0, 2.0]
    report = build_report(results)
    assert metric(report, "lead changes a game")["value"] == 1.0
    assert metric(report, "lead changes per hand")["value"] == pytest.approx(4 / (2 + 3 + 4 + 3 - 4))


def test_a_design_that_always_costs_five_more_is_an_outlier(tmp_path: Path) -> None:
    # Two seats, one round a game: whoever holds the Mayor (AC, an Officer and a Celebrity) takes
    # 5 + noise, the other (holding Tibbles, 4C, a Critter) only the noise.
    deals, hands = [], []
    for g in range(40):
        noise = g % 3
        holder = g % 2
        deals.append([[noise + 5 if s == holder else noise for s in range(2)]])
        for seat, design in ((holder, "Mayor Prudence Quill"), (1 - holder, "Tibbles, the Watch-House Cat")):
            hands.append({"game_index": g, "seed": g, "deal": 1, "seat": seat, "card": "x", "design": design})
    folder = write_folder(tmp_path / "r", "baebae", deals, hands=hands, rules={"players": 2})
    report = build_report(read_results(folder))
    designs = {r["design"]: r for r in table(report, "cards", "designs").rows}
    mayor = designs["Mayor Prudence Quill"]
    assert mayor["card"] == "AC"
    assert mayor["held_points"]["value"] == pytest.approx(5.0)
    # unpaired (Welch): the noise widens the interval, which stays far from 0
    assert 4 < mayor["held_points"]["low"] < 5 < mayor["held_points"]["high"] < 6
    assert mayor["held_win"]["value"] == -1.0
    assert mayor["outlier"] and mayor["holm"]
    assert designs["Tibbles, the Watch-House Cat"]["held_points"]["value"] == pytest.approx(-5.0)
    types = {r["type"]: r for r in table(report, "groups", "types").rows}
    assert types["Officer"]["points"]["value"] == pytest.approx(5.0)
    assert types["Celebrity"]["points"]["value"] == pytest.approx(5.0)
    assert types["Critter"]["points"]["value"] == pytest.approx(-5.0)
    assert types["Officer"]["units"] == 40  # one holder in each of 40 games


def test_action_steps_are_counted_from_the_cards_table(tmp_path: Path) -> None:
    deals = [[[0, 3]], [[4, 0]]]
    base = {"seed": 0, "deal": 1, "turn": 1, "seat": 0, "card": "x", "under": False}
    cards = [
        base | {"game_index": 0, "design": "Alderman Gorse", "action_ran": True, "draws_forced": 2, "skips": 0,
                "penalties": 0, "reversals": 0, "moves": 0, "suit_named": None, "coin": None},
        base | {"game_index": 0, "design": "Alderman Gorse", "action_ran": False, "draws_forced": 0, "skips": 0,
                "penalties": 0, "reversals": 0, "moves": 0, "suit_named": None, "coin": None},
        base | {"game_index": 1, "design": "Bailiff Crumb", "action_ran": True, "draws_forced": 0, "skips": 1,
                "penalties": -3, "reversals": 1, "moves": 2, "suit_named": "H", "coin": "heads"},
    ]
    folder = write_folder(tmp_path / "r", "baebae", deals, cards=cards, rules={"players": 2})
    report = build_report(read_results(folder))
    steps = {r["step"]: r["count"] for r in table(report, "actions", "action_steps").rows}
    assert steps == {"cards played": 3, "actions run": 2, "cards drawn by force": 2, "turns skipped": 1,
                     "penalty points": -3, "reversals": 1, "cards given or taken": 2, "suits named": 1,
                     "coins tossed": 1}
    per_card = {r["design"]: r for r in table(report, "actions", "action_cards").rows}
    assert per_card["Alderman Gorse"]["ran_share"] == 0.5 and per_card["Alderman Gorse"]["plays"] == 2


def test_baha_moons_horns_and_passes(tmp_path: Path) -> None:
    deals = [[[26, 0, 26, 26], [5, 5, 10, 6], [0, 0, 20, 6], [1, 2, 3, 20]]]
    extras = [[{"moon": 1, "pass": "right"}, {"moon": None, "pass": "left"}, {"moon": None, "pass": "none"},
               {"moon": None, "pass": "right"}]]
    base = {"game_index": 0, "seed": 0, "turn": 1, "trick": 1, "led": True, "won_trick": True}
    cards = [base | {"deal": 1, "seat": 0, "card": "13P", "design": "13P", "horns": 5, "horns_taken_by": 0},
             base | {"deal": 2, "seat": 1, "card": "13P", "design": "13P", "horns": 5, "horns_taken_by": 2},
             base | {"deal": 2, "seat": 1, "card": "5P", "design": "5P", "horns": 0, "horns_taken_by": 2}]
    hands = [{"game_index": 0, "seed": 0, "deal": d, "seat": 0, "card": c, "design": c, "passed": p,
              "received": False}
             for d, c, p in ((1, "13P", True), (1, "2P", False), (2, "13P", True), (2, "2P", True),
                             (3, "13P", False))]
    folder = write_folder(tmp_path / "r", "baha", deals, deal_extras=extras, cards=cards, hands=hands)
    report = build_report(read_results(folder))
    moons = {r["seat"]: r for r in table(report, "moons", "moons").rows}
    assert moons["any"]["per_hand"]["value"] == 0.25 and moons["1"]["moons"] == 1 and moons["0"]["moons"] == 0
    horns = {r["card"]: r for r in table(report, "horns", "horns_by_card").rows}
    assert list(horns) == ["13P"]  # a card without horns is left out
    assert horns["13P"]["own"]["value"] == 0.5 and horns["13P"]["seat2"] == 0.5
    passes = {r["card"]: r for r in table(report, "passes", "passes").rows}
    # hand 3 passed nothing (a keep hand): only hands 1 and 2 count
    assert passes["13P"]["dealt"] == 2 and passes["13P"]["passed"] == 2
    assert passes["2P"]["rate"]["value"] == 0.5


def test_compare_pairs_the_same_seeds_and_otherwise_uses_welch(tmp_path: Path) -> None:
    base = [[[g % 5, 3, 4]] for g in range(20)]
    plus_two = [[[g % 5 + 2, 3, 4]] for g in range(20)]
    a = read_results(write_folder(tmp_path / "a", "baha", base))
    b = read_results(write_folder(tmp_path / "b", "baha", plus_two))
    table = compare_runs([a, b], ["a", "b"]).sections[0].tables[0]
    rows = {r["key"]: r for r in table.rows}
    points = rows["points_seat0"]["difference"]
    assert points["paired"] and points["value"] == 2.0 and points["low"] == 2.0 and points["high"] == 2.0
    assert rows["points_seat0"]["significant"]
    # seat 1 scored 3 in every game of both runs: a row that cannot differ is left out, and said
    assert "points_seat1" not in rows and "Left out, the same in every game of every run" in table.note
    other_seeds = read_results(write_folder(tmp_path / "c", "baha", plus_two, seed=100))
    rows = {r["key"]: r for r in compare_runs([a, other_seeds], ["a", "c"]).sections[0].tables[0].rows}
    welch = rows["points_seat0"]["difference"]
    assert not welch["paired"] and welch["value"] == pytest.approx(2.0) and welch["low"] < 2.0 < welch["high"]


def test_intervals_against_known_values() -> None:
    # t(0.975, 2) = 4.3027: mean 2, sd 1, n 3
    assert mean_t([1.0, 2.0, 3.0]).high == pytest.approx(2 + 4.302653 / math.sqrt(3), rel=1e-6)
    d = paired_difference([2.0, 4.0, 6.0], [1.0, 2.0, 3.0])
    assert d.value == 2.0 and d.low < 2.0 < d.high and d.paired
    w = welch_difference([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0])
    assert w.value == 0.0 and not w.significant and w.p == pytest.approx(1.0)
    assert holm([0.01, 0.02, 0.5]) == [0.03, 0.04, 0.5]
