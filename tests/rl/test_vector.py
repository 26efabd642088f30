"""The vector environment (rl.vector_env), on every engine that steps it: Baha and BAEBAE
natively and in Python. Its rows are the Gymnasium env's episodes; masks, rewards, resets,
seeds and refusals are checked here, the native rows' identity with the Python ones in
tests/native/test_vector_native.py."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from cardroom import native, rl
from cardroom.engine import IllegalAction

CASES = [("baha", "python"), ("baebae", "python")]
if native.available():
    CASES[:0] = [("baha", "native"), ("baebae", "native")]
TOTAL_SCALE = {"baha": 160, "baebae": 100}
"""What the ``totals`` slice divides a total by (Baha: target 100 plus a hand's 60 horns)."""


def make(game: str, engine: str, num_envs: int = 3, **options: object) -> rl.CardroomVectorEnv:
    envs = rl.vector_env(game, num_envs=num_envs, engine=engine, **options)
    assert envs.engine == engine
    return envs


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(mask * rng.random(mask.shape), axis=1)


def totals_of(game: str, final_obs: np.ndarray, players: int = 4) -> np.ndarray:
    """Each seat's total (from the observing seat on) read back from final observations."""
    totals = next(s for s in rl.slices(game, players) if s.name == "totals")
    return np.rint(final_obs[..., totals.start:totals.stop].astype(np.float64) * TOTAL_SCALE[game])


@pytest.mark.parametrize(("game", "engine"), CASES)
def test_a_learners_rewards_add_up_to_its_result(game, engine):
    envs = make(game, engine, num_envs=4, opponents="random", seed=10)
    obs, _ = envs.reset()
    rng = np.random.default_rng(1)
    running = np.zeros(4)
    episodes = 0
    for _ in range(400):
        obs, rewards, terminated, truncated, info = envs.step(random_actions(obs["action_mask"], rng))
        assert rewards.shape == (4,) and rewards.dtype == np.float32
        running += rewards
        assert not truncated.any()
        for row in np.flatnonzero(terminated):
            assert running[row] == -totals_of(game, info["final_obs"][row])[0]
            running[row] = 0
            episodes += 1
        np.testing.assert_array_equal(info["_final_obs"], terminated | truncated)
    assert episodes >= 2


@pytest.mark.parametrize(("game", "engine"), CASES)
def test_self_play_rewards_add_up_to_every_seats_result(game, engine):
    envs = make(game, engine, num_envs=3, self_play=True, seed=4, players=3)
    obs, info = envs.reset()
    rng = np.random.default_rng(2)
    running = np.zeros((3, 3))
    episodes = 0
    for _ in range(900):
        actor = info["to_act"].copy()
        obs, rewards, terminated, truncated, info = envs.step(random_actions(obs["action_mask"], rng))
        assert rewards.shape == (3, 3)
        running += rewards
        for row in np.flatnonzero(terminated):
            seats = (actor[row] + np.arange(3)) % 3  # the final observation is the actor's
            np.testing.assert_array_equal(running[row][seats], -totals_of(game, info["final_obs"][row], 3))
            running[row] = 0
            episodes += 1
    assert episodes >= 1


@pytest.mark.parametrize(("game", "engine"), CASES)
def test_zero_sum_rewards_sum_to_zero_and_truncation_ends_episodes(game, engine):
    envs = make(game, engine, num_envs=2, self_play=True, zero_sum=True, max_steps=60, seed=3)
    obs, _ = envs.reset()
    rng = np.random.default_rng(3)
    truncations = 0
    for _ in range(200):
        obs, rewards, terminated, truncated, _ = envs.step(random_actions(obs["action_mask"], rng))
        np.testing.assert_allclose(rewards.sum(axis=1), 0, atol=1e-5)
        truncations += int(truncated.sum())
    assert truncations >= 4  # every 60 steps a row that did not end


@pytest.mark.parametrize(("game", "engine"), CASES)
def test_each_row_replays_the_gymnasium_envs_episodes_through_its_resets(game, engine):
    # Row i of seed s is gym_env(seed=s + i): the same observations for the same actions, and
    # after its episode the row holds what the Gymnasium env's next reset() deals.
    envs = make(game, engine, num_envs=2, opponents="heuristic", seed=21, deals=1)
    singles = [rl.gym_env(game, opponents="heuristic", seed=21 + i, deals=1) for i in range(2)]
    obs, _ = envs.reset()
    single_obs = [env.reset()[0] for env in singles]
    rng = np.random.default_rng(4)
    resets = 0
    for _ in range(150):
        for row in range(len(singles)):
            np.testing.assert_array_equal(obs["observation"][row], single_obs[row]["observation"])
            np.testing.assert_array_equal(obs["action_mask"][row], single_obs[row]["action_mask"])
        actions = random_actions(obs["action_mask"], rng)
        obs, rewards, terminated, truncated, info = envs.step(actions)
        for row, env in enumerate(singles):
            single, reward, done, cut, _ = env.step(int(actions[row]))
            assert (rewards[row], terminated[row], truncated[row]) == (np.float32(reward), done, cut)
            if done or cut:
                np.testing.assert_array_equal(info["final_obs"][row], single["observation"])
                single, _ = env.reset()
                resets += 1
            single_obs[row] = single
    assert resets >= 2


@pytest.mark.parametrize(("game", "engine"), CASES)
def test_seeds_replay_and_one_seed_gives_each_row_its_own(game, engine):
    def run(seed: object) -> list[bytes]:
        envs = make(game, engine, num_envs=3, opponents="random")
        obs, _ = envs.reset(seed=seed)
        rng = np.random.default_rng(5)
        seen = []
        for _ in range(60):
            seen.append(obs["observation"].tobytes())
            obs, *_ = envs.step(random_actions(obs["action_mask"], rng))
        return seen

    assert run(8) == run([8, 9, 10]) == run(np.int64(8)) == run(np.array([8, 9, 10]))
    assert run(8) != run(9)
    first = make(game, engine, num_envs=3, opponents="random")
    rows = first.reset(seed=8)[0]["observation"].copy()
    assert len({row.tobytes() for row in rows}) == 3  # rows deal different games


@pytest.mark.parametrize(("game", "engine"), CASES)
def test_bad_actions_are_refused_in_words_and_nothing_moves(game, engine):
    envs = make(game, engine, num_envs=3, opponents="random", seed=6, copy=True)
    twin = make(game, engine, num_envs=3, opponents="random", seed=6, copy=True)
    obs, _ = envs.reset()
    twin.reset()
    rng = np.random.default_rng(6)
    refused = 0
    for step in range(80):
        mask = obs["action_mask"]
        good = random_actions(mask, rng)
        row = step % 3
        illegal = np.flatnonzero(mask[row] == 0)
        bad = good.copy()
        bad[row] = illegal[rng.integers(len(illegal))]
        for actions, error, words in [
            (bad, IllegalAction, f"row {row}: .*no row has moved"),
            (good[:2], rl.EnvError, r"one action a row: an array of shape \(3,\)"),
            (good.reshape(3, 1), rl.EnvError, "not of shape"),
            (good.astype(float), rl.EnvError, "whole numbers"),
            (good > 0, rl.EnvError, "whole numbers"),
            (np.where(np.arange(3) == row, envs.single_action_space.n, good), rl.EnvError,
             f"row {row}: action {envs.single_action_space.n} is outside the action space"),
            (np.where(np.arange(3) == row, -1, good), rl.EnvError, "outside the action space"),
        ]:
            with pytest.raises(error, match=words):
                envs.step(actions)
            refused += 1
        if step % 20 == 0:  # every action outside the row's mask is refused: the mask is the legal set
            for action in illegal:
                with pytest.raises(IllegalAction):
                    envs.step(np.where(np.arange(3) == row, action, good))
        after = envs.step(good)  # ... and every action inside it is taken (as at every step here)
        expected = twin.step(good)
        np.testing.assert_array_equal(after[0]["observation"], expected[0]["observation"])
        np.testing.assert_array_equal(after[1], expected[1])
        obs = after[0]
    assert refused == 80 * 7


def test_bad_options_are_refused_in_words():
    with pytest.raises(rl.EnvError, match="num_envs must be a whole number from 1"):
        rl.vector_env("baha", num_envs=0)
    with pytest.raises(rl.EnvError, match="engine must be one of native, python"):
        rl.vector_env("baha", engine="gpu")
    with pytest.raises(rl.EnvError, match="opponents must be one opponent"):
        rl.vector_env("baha", opponents=["random"])
    with pytest.raises(ValueError, match="unknown Baha option"):
        rl.vector_env("baha", colour=3)
    envs = rl.vector_env("baha", num_envs=2)
    with pytest.raises(rl.EnvError, match="call reset"):
        envs.step(np.zeros(2, np.int64))
    with pytest.raises(rl.EnvError, match="seed must be a whole number from 0"):
        envs.reset(seed=-1)
    with pytest.raises(rl.EnvError, match="or 2 of them"):
        envs.reset(seed=[1, 2, 3])
    with pytest.raises(rl.EnvError, match="seed must be a whole number"):
        envs.reset(seed=1.5)  # type: ignore[arg-type]


@pytest.mark.skipif(native.available(), reason="the native core is built")
def test_without_the_native_core_engine_native_is_refused_in_words():
    with pytest.raises(rl.EnvError, match="BAEBAE has no native vector environment"):
        rl.vector_env("baebae", engine="native")


@pytest.mark.skipif(not native.available(), reason="native core not built")
@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_native_is_chosen_where_it_can_be_and_refused_in_words_where_not(game):
    assert rl.vector_env(game, opponents=["random", "heuristic", "random"]).engine == "native"
    assert rl.vector_env(game, opponents="ismcts:iterations=5").engine == "python"
    assert rl.vector_env(game, opponents="heuristic:seed=3").engine == "python"  # options: not plain names
    with pytest.raises(rl.EnvError, match="plays only random, heuristic opponents"):
        rl.vector_env(game, engine="native", opponents="ismcts:iterations=5")
    native.use_engine("python")
    try:
        assert rl.vector_env(game).engine == "python"  # CARDROOM_ENGINE=python steps in Python
    finally:
        native.use_engine(None)


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_gymnasium_make_vec_makes_it_and_its_arrays_are_in_its_spaces(game):
    envs = gymnasium.make_vec(rl.gymnasium_id(game), num_envs=3, opponents="random")
    assert isinstance(envs, rl.CardroomVectorEnv)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, _ = envs.reset(seed=1)
    assert envs.observation_space.contains(obs)
    assert envs.action_space.contains(random_actions(obs["action_mask"], np.random.default_rng(0)))
    # the arrays are the env's buffers, written in place (copy=True hands out copies)
    before = obs["observation"]
    obs, *_ = envs.step(random_actions(obs["action_mask"], np.random.default_rng(0)))
    assert obs["observation"] is before
    sync = gymnasium.make_vec(rl.gymnasium_id(game), num_envs=2, vectorization_mode="sync", opponents="random")
    assert not isinstance(sync, rl.CardroomVectorEnv)  # Gymnasium's own, over the single env
    sync.close()
