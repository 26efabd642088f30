"""examples/ppo_vector.py: PPO on the batched environment, its outcome reward and its weights file."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from example_support import load_example  # noqa: E402

from cardroom.agents import make  # noqa: E402
from cardroom.agents.learned import load_network, shipped_path  # noqa: E402
from cardroom.games import baebae  # noqa: E402


def _example() -> object:
    return load_example("ppo_vector.py")


def test_the_outcome_is_the_share_of_first_place() -> None:
    example = _example()
    outcome = example.Outcome("baebae")  # type: ignore[attr-defined]
    final = np.zeros((4, 300), np.float32)
    final[:, outcome.totals] = np.array([
        [0.10, 0.20, 0.30, 0.40],  # the learner alone lowest: first
        [0.20, 0.20, 0.30, 0.40],  # tied first with one other: half
        [0.30, 0.20, 0.30, 0.40],  # another seat lower: nothing
        [0.25, 0.25, 0.25, 0.25],  # all four tied
    ], np.float32)
    assert outcome.shares(final).tolist() == [1.0, 0.5, 0.0, 0.25]


def test_a_short_run_learns_writes_its_curve_and_plays(tmp_path: Path) -> None:
    example = _example()
    lines: list[str] = []
    summary = example.run("baebae", tmp_path, updates=3, envs=16, steps=8, eval_every=2, eval_games=16,  # type: ignore[attr-defined]
                          start="shipped", log=lines.append)
    assert summary["updates"] == 3 and summary["moves"] == 3 * 16 * 8
    assert [p["update"] for p in summary["curve"]] == [0, 2, 3] and len(lines) == 3
    with (tmp_path / "curve.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [int(r["update"]) for r in rows] == [0, 2, 3]
    assert all(0.0 <= float(r["won"]) <= 1.0 for r in rows)
    assert (tmp_path / "curve.png").stat().st_size > 0
    assert lines[0].endswith("of 16 games")  # every row its game: 16 rows, a game each
    read = example.read_curve(tmp_path / "curve.csv")  # type: ignore[attr-defined]
    assert [p["won"] for p in read] == pytest.approx([p["won"] for p in summary["curve"]])
    example.draw({"a": read, "b": read}, tmp_path / "both.png", "baebae")  # type: ignore[attr-defined]
    assert (tmp_path / "both.png").stat().st_size > 0
    # the updates moved the network away from the shipped weights it started from
    learned, shipped = load_network(tmp_path / "player.safetensors"), load_network(shipped_path("baebae"))
    assert learned.metadata["format"] == shipped.metadata["format"]
    assert not np.array_equal(learned.policy[0], shipped.policy[0])
    state = baebae.Rules(players=4).new_game(5)
    bot = make("learned", path=str(tmp_path / "player.safetensors"))
    assert bot.act(state, state.current_player) in state.legal_actions()  # type: ignore[arg-type]


def test_rows_refuse_a_batch_that_does_not_split_over_the_seats() -> None:
    example = _example()
    with pytest.raises(ValueError, match="multiple of 4"):
        example.Rows("baebae", 10, 1, "heuristic")  # type: ignore[attr-defined]


def test_a_run_refuses_a_seed_that_would_deal_the_evaluation_games(tmp_path: Path) -> None:
    example = _example()
    last = example.LAST_SEED  # type: ignore[attr-defined]
    for seed in (-1, last):
        with pytest.raises(ValueError, match=f"--seed must be from 0 to {last - 1}"):
            example.run("baebae", tmp_path, updates=1, envs=16, seed=seed)  # type: ignore[attr-defined]
    assert not (tmp_path / "curve.csv").exists()
