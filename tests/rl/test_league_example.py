"""examples/league.py: a self-play league for a few episodes, its snapshots playable by the learned agent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("openskill")

from example_support import load_example  # noqa: E402

from cardroom.agents import make  # noqa: E402
from cardroom.agents.learned import load_network  # noqa: E402
from cardroom.games import baha  # noqa: E402


def _league() -> object:
    return load_example("league.py")


def test_the_league_runs_rates_and_keeps_a_bounded_pool(tmp_path: Path) -> None:
    league = _league()
    lines: list[str] = []
    summary = league.run("baha", 6, tmp_path, seed=1, snapshot_every=2, pool_size=2, bots=("heuristic", "random"),
                         start="random", log=lines.append)  # type: ignore[attr-defined]
    assert len(lines) == 3 and "snapshot 3" in lines[-1]
    specs = [m["spec"] for m in summary["pool"]]
    # the bots given stay; of the three snapshots the oldest left when the pool outgrew 2
    assert specs[:2] == ["heuristic", "random"] and [s.rsplit("-", 1)[-1] for s in specs[2:]] == [
        "2.safetensors", "3.safetensors"]
    assert summary["pool"][0]["games"] + summary["pool"][1]["games"] > 0
    assert summary["learner"]["sigma"] < 25 / 3  # rated after each episode: less uncertain than new
    assert json.loads((tmp_path / "league.json").read_text())["episodes"] == 6
    snapshot = tmp_path / "snapshot-3.safetensors"
    assert load_network(snapshot).game == "baha"
    state = baha.Rules(players=4, target=1).new_game(3)
    bot = make("learned", path=str(snapshot))
    assert bot.act(state, state.current_player) in state.legal_actions()  # type: ignore[arg-type]


def test_opponents_are_drawn_by_rating() -> None:
    import random

    from openskill.models import PlackettLuce

    league = _league()
    model = PlackettLuce()
    near, far = league.Member("near", model.rating(mu=25)), league.Member("far", model.rating(mu=45))  # type: ignore[attr-defined]
    drawn = league.draw([near, far], model.rating(mu=25), 3000, 5.0, random.Random(2))  # type: ignore[attr-defined]
    share = sum(m is near for m in drawn) / len(drawn)
    assert 0.95 < share < 0.995  # exp(-20/5) against 1: about 98% the close one
