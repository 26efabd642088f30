"""The policy agent: a policy trained by the example plays through the CLI; bad files refused.

The training here is the example's own (``examples/train_baha_ppo.py``) cut to a few hundred
moves: it proves the pieces fit, not that the policy plays well.
"""

from __future__ import annotations

import json
import os
import random
import types
from pathlib import Path

import pytest
from example_support import EXAMPLES, load_example
from typer.testing import CliRunner

from cardroom import rl
from cardroom.agents import AgentError, make, parse_spec
from cardroom.agents.policy import load_policy
from cardroom.cli.main import app
from cardroom.games import baha
from cardroom.record import load, verify

runner = CliRunner()


def example() -> types.ModuleType:
    return load_example("train_baha_ppo.py")


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A policy from the example's training: 64 moves against random bots, 64 against heuristic."""
    out = tmp_path_factory.mktemp("policy")
    path: Path = example().train(128, seed=3, out=out, random_share=0.5, n_steps=64, save_every=64)
    return path


def test_training_saves_a_policy_and_its_curve(trained: Path) -> None:
    folder = trained.parent
    assert trained.name == "policy.zip" and trained.stat().st_size > 1000
    assert (folder / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = (folder / "curve.csv").read_text().splitlines()
    assert rows[0] == "timestep,opponents,horns"
    # 128 moves of Baha finish several hands; each hand is one row, in both stages.
    stages = {row.split(",")[1] for row in rows[1:]}
    assert stages == {"random", "heuristic"}


def test_the_copy_for_play_is_smaller_and_plays_the_same(trained: Path) -> None:
    player = trained.parent / "player.zip"
    assert player.stat().st_size < trained.stat().st_size / 2
    full, small = make("policy", path=str(trained)), make("policy", path=str(player))
    state = baha.Rules(players=4).new_game(8)
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        action = full.act(state, seat)
        assert small.act(state, seat) == action
        state.apply(action)


def test_the_example_measures_the_policy_on_duplicate_deals(trained: Path, capsys: pytest.CaptureFixture[str]) -> None:
    example().evaluate(trained, 1, seed=9, workers=1)
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(",")[0] for line in lines] == ["against random bots", "against heuristic bots"]
    assert all("4 games on 1 deal" in line and "policy " in line and "difference " in line for line in lines)


def test_the_shipped_policy_plays_its_game() -> None:
    """examples/baha-ppo.zip still fits Baha's observations (retrain it if the encoder changes)."""
    shipped = EXAMPLES / "baha-ppo.zip"
    agent = make("policy", seed=0, path=str(shipped))
    state = baha.Rules(players=4).new_game(2)
    for _ in range(30):
        seat = state.current_player
        assert seat is not None
        action = agent.act(state, seat)
        assert action in state.legal_actions()
        state.apply(action)


def test_policy_plays_a_whole_game_in_simulate(trained: Path) -> None:
    result = runner.invoke(app, ["simulate", "baha", "--players", "4", "--games", "1", "--seed", "5", "--json",
                                 "--agents", f"policy:path={trained},heuristic,random,random"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 1 and summary["guard_stopped"] == 0
    assert summary["seats"][0]["agent"] == f"policy:path={trained}"
    assert summary["deals"] >= 1


def test_policy_plays_against_a_person_in_play(trained: Path, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "baha", "--seed", "5", "--rule", "target=1", "--record", str(record),
                                 "--bots", f"policy:path={trained},random,policy:path={trained}:sample=true"],
                           input="1 2 3\n\n1\n" * 1000)  # a pass: three cards, then Enter sends them
    assert result.exit_code == 0, result.output
    assert "Final standings" in result.output
    saved = load(record)
    assert verify(saved).ok, verify(saved).message
    assert [seat["agent"] for seat in saved["seats"][1:]] == [
        f"policy:path={trained}", "random", f"policy:path={trained}:sample=true"]


def test_policy_plays_legal_moves_and_samples_with_its_seed(trained: Path) -> None:
    state = baha.Rules(players=4).new_game(11)
    likeliest = make("policy", seed=1, path=str(trained))
    sampled = [make("policy", seed=s, path=str(trained), sample=True) for s in (1, 1, 2)]
    picks: list[list[int]] = [[], [], []]
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        action = likeliest.act(state, seat)
        assert action in state.legal_actions()
        for agent, seen in zip(sampled, picks, strict=True):
            seen.append(agent.act(state, seat))
        state.apply(action)
    assert picks[0] == picks[1]  # the same seed samples the same actions
    assert picks[0] != picks[2]


@pytest.mark.parametrize("sample", [False, True])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_policy_is_blind_to_hidden_cards(trained: Path, sample: bool, seed: int) -> None:
    state = baha.Rules(players=4).new_game(seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(10, 40)):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player
    assert seat is not None
    other = next(d for k in range(50) if (d := state.determinize(seat, random.Random(k))).hands != state.hands)
    assert other.view(seat) == state.view(seat)
    for _ in range(5):  # sampled: several draws, each agent with the same seed
        first = make("policy", seed=seed, path=str(trained), sample=sample).act(state, seat)
        assert first == make("policy", seed=seed, path=str(trained), sample=sample).act(other, seat)
        seed += 100


def test_policy_is_loaded_once_per_file(trained: Path, tmp_path: Path) -> None:
    assert load_policy(trained) is load_policy(trained)
    copy = tmp_path / "copy.zip"
    copy.write_bytes(trained.read_bytes())
    first = load_policy(copy)
    os.utime(copy, ns=(1, 1))  # a file changed since: read again
    assert load_policy(copy) is not first


def test_a_policy_on_the_whole_observation_plays_too(tmp_path: Path) -> None:
    """A policy trained on the environment's dict observation (mask included) works as well."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO("MultiInputPolicy", rl.gym_env("baha", opponents="random", players=3, seed=1),
                        n_steps=32, batch_size=32, seed=1)
    model.learn(32)
    model.save(tmp_path / "dict.zip")
    state = baha.Rules(players=3).new_game(4)
    agent = make("policy", seed=0, path=str(tmp_path / "dict.zip"))
    for _ in range(20):
        seat = state.current_player
        assert seat is not None
        action = agent.act(state, seat)
        assert action in state.legal_actions()
        state.apply(action)


def refusal(args: list[str]) -> str:
    result = runner.invoke(app, ["simulate", *args, "--games", "1"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return " ".join(result.output.split())


def test_refuses_a_missing_or_broken_file(tmp_path: Path) -> None:
    assert "no file" in refusal(["baha", "--agents", f"policy:path={tmp_path / 'nothing.zip'}"])
    (tmp_path / "text.zip").write_text("not a policy")
    assert "is not a saved MaskablePPO policy" in refusal(["baha", "--agents", f"policy:path={tmp_path}/text.zip"])
    assert "is not a file" in refusal(["baha", "--agents", f"policy:path={tmp_path}"])
    assert "needs path=FILE" in refusal(["baha", "--agents", "policy"])
    assert "no option 'depth'" in refusal(["baha", "--agents", "policy:depth=3"])


def test_refuses_a_policy_of_another_game_or_table(trained: Path) -> None:
    state = baha.Rules(players=4).new_game(0)
    sizes = f"{rl.observe(state, 0).size} numbers and {rl.action_mask(state).size} actions"
    out = refusal(["baha", "--players", "3", "--agents", f"policy:path={trained},random,random"])
    assert sizes in out and "Baha with 3 players" in out
    assert "trained for another game or table size" in out
    out = refusal(["baebae", "--players", "4", "--agents", f"policy:path={trained},random,random,random"])
    assert "BAEBAE with 4 players" in out and "trained for another game or table size" in out


def test_refuses_a_bad_sample_option(trained: Path) -> None:
    name, options = parse_spec(f"policy:path={trained}:sample=often")
    with pytest.raises(AgentError, match="sample must be true or false"):
        make(name, **options)
