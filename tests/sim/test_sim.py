"""Simulation: deterministic results, independent of workers; statistics with intervals."""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from cardroom.agents import AgentError
from cardroom.games import baha
from cardroom.record import load, verify
from cardroom.sim import Lineup, mean_ci, run_games, runner, wilson
from cardroom.sim.duplicate import run_duplicate
from cardroom.sim.report import summarize
from cardroom.sim.tournament import MAX_WORKERS, worker_count


def test_results_do_not_depend_on_workers(tmp_path: Path) -> None:
    rules = baha.Rules(players=4, target=40)
    lineup = Lineup.parse("random", 4)
    one = run_games(rules, 12, 100, lineup, workers=1)
    two = run_games(rules, 12, 100, lineup, workers=2, records=tmp_path)
    assert [r.to_dict() for r in one] == [r.to_dict() for r in two]
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 12
    assert all(verify(load(f)).ok for f in files)


@pytest.mark.parametrize("duplicate", [False, True])
def test_workers_are_capped_by_cores_and_games(monkeypatch: pytest.MonkeyPatch, duplicate: bool) -> None:
    """Asking for more processes than cores or games starts no more than either."""
    started: list[int] = []

    class Pool(ThreadPoolExecutor):
        def __init__(self, max_workers: int) -> None:
            started.append(max_workers)
            super().__init__(max_workers)

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setenv("CARDROOM_ENGINE", "python")  # native batches start no processes
    monkeypatch.setattr(runner, "ProcessPoolExecutor", Pool)  # the one pool, sim/runner.py
    rules = baha.Rules(players=2, target=20)
    lineup = Lineup.parse("random", 2)
    if duplicate:
        run_duplicate(rules, 3, 0, lineup, workers=500)
    else:
        run_games(rules, 3, 0, lineup, workers=500)
    assert started == [2]
    assert worker_count(0, 1) == 1 and worker_count(0, 10) == 2
    for absurd in (-1, MAX_WORKERS + 1, 99999):
        with pytest.raises(ValueError, match="from 0 \\(one per core\\) to 1024"):
            worker_count(absurd, 10)


def test_summary_counts_every_game_and_hand() -> None:
    rules = baha.Rules(players=3)
    lineup = Lineup.parse("random,random,random", 3)
    results = run_games(rules, 20, 0, lineup)
    summary = summarize(rules, lineup, results, seed=0, seconds=1.0)
    assert summary["games"] == 20
    assert sum(s["wins"] for s in summary["seats"]) == 20
    assert summary["deals"] == sum(r.deals for r in results)
    assert summary["unit"] == "horns per hand"
    # every hand hands out 60 horns, except a moon hand pays 0 + 60 + 60
    total = sum(sum(h) for r in results for h in r.deal_points)
    moons = sum(r.extras["moons"] for r in results)
    assert summary["moons"] == moons
    assert total == 60 * (summary["deals"] - moons) + 120 * moons
    mean = summary["agents"][0]["mean_points"]
    assert mean["low"] < mean["value"] < mean["high"]


def test_lineup_checks_names_and_counts() -> None:
    with pytest.raises(AgentError, match="every seat"):
        Lineup.parse("random,random", 4)
    with pytest.raises(AgentError, match="unknown agent"):
        Lineup.parse("nosuch", 4)
    with pytest.raises(AgentError, match="random has no option .depth."):
        Lineup.parse("random:depth=3", 4)


def test_mean_ci_and_wilson_known_answers() -> None:
    est = mean_ci([2.0, 4.0, 6.0, 8.0])
    assert est.value == 5.0
    half = 1.959963984540054 * math.sqrt((20 / 3) / 4)
    assert math.isclose(est.high - est.value, half)
    assert math.isnan(mean_ci([1.0]).low)
    w = wilson(0, 10)
    assert w.value == 0 and w.low == 0 and 0.27 < w.high < 0.28
    w = wilson(81, 263)  # a textbook example: 0.308 [0.255, 0.366]
    assert round(w.low, 3) == 0.255 and round(w.high, 3) == 0.366
