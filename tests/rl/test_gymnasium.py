"""The Gymnasium environment: one learner against Cardroom's bots."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cardroom import rl
from cardroom.agents import AgentError
from cardroom.engine import IllegalAction


def run(env, seed, rng):
    obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        assert env.game.current_player == env.seat
        np.testing.assert_array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        assert not truncated and info == {}
        total += reward
        steps += 1
    return total, steps


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_gymnasium_check_env(game):
    # check_env steps with actions drawn from the whole action space, not the mask: an env
    # that refuses them (instead of raising) is what it can drive.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # BAEBAE's totals are unbounded: inf bounds
        check_env(rl.gym_env(game, opponents="random", illegal_action="refuse"), skip_render_check=True)


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_a_whole_game_against_heuristic_bots(game):
    env = rl.gym_env(game, seat=2, opponents="heuristic")
    total, steps = run(env, 6, np.random.default_rng(0))
    assert env.game.is_over and steps > 5
    assert total == -env.game.scores[2]
    assert not env.action_masks().any()


def test_reset_reproduces_the_game_and_the_bots():
    env = rl.gym_env("baebae", opponents=["heuristic", "random", "ismcts:iterations=20"])
    first = run(env, 12, np.random.default_rng(5))
    log = [e for e in env.game.log]
    again = run(env, 12, np.random.default_rng(5))
    assert first == again and env.game.log == log
    seeded = rl.gym_env("baebae", opponents=["heuristic", "random", "ismcts:iterations=20"], seed=12)
    assert run(seeded, None, np.random.default_rng(5)) == first


def test_one_deal_episode_and_zero_sum():
    env = rl.gym_env("baha", opponents="random", deals=1, zero_sum=True)
    total, _ = run(env, 3, np.random.default_rng(1))
    points = next(e for e in env.game.log if e["t"] == "score")["points"]
    assert total == pytest.approx(sum(points) / 4 - points[0])


def test_illegal_actions_raise_or_are_refused():
    env = rl.gym_env("baha", opponents="random")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction, match="allowed: pass"):
        env.step(illegal)
    refusing = rl.gym_env("baha", opponents="random", illegal_action="refuse", illegal_reward=-2.0)
    obs, _ = refusing.reset(seed=1)
    history = refusing.game.history
    again, reward, done, truncated, info = refusing.step(illegal)
    assert reward == -2.0 and not done and "allowed: pass" in info["illegal"]
    np.testing.assert_array_equal(again["observation"], obs["observation"])
    assert refusing.game.history == history  # the bots played before seat 0; nothing since


def test_bad_arguments_and_a_step_after_the_end():
    with pytest.raises(rl.EnvError, match="seat must be a whole number from 0 to 3"):
        rl.gym_env("baha", seat=4)
    with pytest.raises(rl.EnvError, match="opponents must be one agent name, or 3 of them"):
        rl.gym_env("baha", opponents=["random"])
    with pytest.raises(rl.EnvError, match="opponent 'human' is not a bot"):
        rl.gym_env("baha", opponents="human")
    with pytest.raises(AgentError, match="unknown agent"):
        rl.gym_env("baha", opponents="grandmaster")
    with pytest.raises(rl.EnvError, match="illegal_action must be one of raise, refuse"):
        rl.gym_env("baha", illegal_action="ignore")
    with pytest.raises(rl.EnvError, match="illegal_reward must be a number, not 'minus one'"):
        rl.gym_env("baha", illegal_action="refuse", illegal_reward="minus one")
    with pytest.raises(rl.EnvError, match="seed must be a whole number"):
        rl.gym_env("baha", seed="seven")
    env = rl.gym_env("baha", opponents="random", deals=1)
    with pytest.raises(rl.EnvError, match="call reset"):
        env.step(0)
    run(env, 2, np.random.default_rng(0))
    with pytest.raises(rl.EnvError, match="episode is over: call reset"):
        env.step(0)


def test_render_ansi():
    env = rl.gym_env("baebae", opponents="random", render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert "BAEBAE, round 1: seat_0 to act" in text


def test_check_env_renders_ansi():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(rl.gym_env("baha", opponents="random", illegal_action="refuse", render_mode="ansi"))
