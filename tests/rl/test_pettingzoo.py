"""The PettingZoo AEC environment: PettingZoo's own tests, rewards, seeds, rendering, bad input."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.conversions import aec_to_parallel

from cardroom import games, rl
from cardroom.engine import IllegalAction, RulesError

DECK = Path(__file__).parents[2] / "src/cardroom/games/baebae/decks/sample.toml"


def play(env, seed, rng):
    """A whole episode with random legal actions; every reward each agent was given."""
    env.reset(seed=seed)
    got = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        got[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return got, steps


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_pettingzoo_api_test(game):
    with warnings.catch_warnings():
        # A dict observation (array and mask) is what PettingZoo's card games give too; the
        # test warns that it is not a bare array.
        warnings.simplefilter("ignore", UserWarning)
        api_test(rl.env(game, deals=1), num_cycles=400)
        api_test(rl.env(game, players=3), num_cycles=400)


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_pettingzoo_seed_test(game):
    seed_test(lambda: rl.env(game), num_cycles=300)


def test_turn_based_games_have_no_parallel_form():
    # PettingZoo converts an AEC env to its parallel form only when every agent acts at once;
    # its max_cycles_test needs that form, so it does not apply to these games.
    env = rl.env("baha")
    assert env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="parallel"):
        aec_to_parallel(env)


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_rewards_are_per_deal_score_changes_negated(game):
    env = rl.env(game)
    got, steps = play(env, 4, np.random.default_rng(0))
    totals = env.game.scores
    assert env.game.is_over and steps > 20
    # Summed over the deals, the rewards are the final totals negated.
    assert [got[a] for a in env.possible_agents] == pytest.approx([-t for t in totals])


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_zero_sum_rewards_and_one_deal(game):
    env = rl.env(game, zero_sum=True, deals=1)
    got, _ = play(env, 9, np.random.default_rng(1))
    deal_points = next(p for e in env.game.log if (p := games.get(game).deal_points(e)) is not None)
    mean = sum(deal_points) / len(deal_points)
    assert sum(got.values()) == pytest.approx(0.0)
    assert [got[a] for a in env.possible_agents] == pytest.approx([mean - p for p in deal_points])
    assert env.game.deal_number <= 2 and not env.agents


def test_reset_with_a_seed_deals_the_engines_game():
    env = rl.env("baha")
    env.reset(seed=42)
    assert env.game.log[0] == games.make_rules("baha", {}).new_game(42).log[0]
    env.reset()
    other = env.game.log[0]
    env.reset(seed=42)
    env.reset()
    assert env.game.log[0] == other  # resets after a seed follow from it


def test_rewards_reach_every_agent_through_last():
    env = rl.env("baha", deals=1, moon=False)
    env.reset(seed=3)
    rng = np.random.default_rng(2)
    seen = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        seen[agent] = seen.get(agent, 0.0) + reward
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    score = next(e for e in env.game.log if e["t"] == "score")
    assert [seen[a] for a in env.possible_agents] == [-p for p in score["points"]]


def test_observation_and_mask_only_for_the_seat_to_act():
    env = rl.env("baha")
    env.reset(seed=1)
    turn = env.agent_selection
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == turn)
    first = env.observe(turn)
    assert env.observe(turn)["observation"] is not first["observation"]  # fresh arrays


def test_render_tells_what_anyone_saw():
    env = rl.env("baha", render_mode="ansi")
    env.reset(seed=2)
    for _ in range(16):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    text = env.render()
    assert "Baha, hand 1" in text and "to act" in text and "Totals: seat_0 0" in text
    hand = env.game.view(0)["hand"]
    # No seat's hand is told: the cards still held appear nowhere in the text.
    assert not any(f" {card} " in f" {text} " for card in hand)
    assert env.render().count("\n") == 0  # nothing new since: the status line alone


def test_human_render_prints_every_step_to_the_end(capsys):
    env = rl.env("baebae", render_mode="human", deals=1)
    env.reset(seed=2)
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert "BAEBAE, round 1" in capsys.readouterr().out
    play(env, 2, np.random.default_rng(0))
    assert "Penalties" in capsys.readouterr().out  # the step that ended the round was told too


def test_a_baebae_env_takes_a_deck_like_the_command_line():
    by_name = rl.env("baebae", deck="sample")
    by_file = rl.env("baebae", deck=str(DECK))
    by_name.reset(seed=5)
    by_file.reset(seed=5)
    assert by_file.game.rules.deck_files  # the file's text travels in the rules
    assert by_name.observation_space("seat_0") == by_file.observation_space("seat_0")
    with pytest.raises(RulesError, match="no deck 'nowhere.toml'"):
        rl.env("baebae", deck="nowhere.toml")


def test_bad_input_is_refused_in_words():
    with pytest.raises(RulesError, match="unknown game 'chess'; the games are baha, baebae"):
        rl.env("chess")
    with pytest.raises(RulesError, match="unknown Baha option 'colour'; the options are players"):
        rl.env("baha", colour="red")
    with pytest.raises(RulesError, match="players must be a whole number from 2 to 6"):
        rl.env("baha", players=9)
    with pytest.raises(rl.EnvError, match="deals must be a whole number from 1"):
        rl.env("baha", deals=0)
    with pytest.raises(rl.EnvError, match="render_mode must be one of ansi, human"):
        rl.env("baha", render_mode="rgb_array")
    env = rl.env("baha")
    with pytest.raises(rl.EnvError, match="call reset"):
        env.step(0)
    with pytest.raises(rl.EnvError, match="seed must be a whole number from 0 to 9223372036854775807, not 'x'"):
        env.reset(seed="x")
    with pytest.raises(rl.EnvError, match="seed must be a whole number from 0 to 9223372036854775807, not 1.5"):
        env.reset(seed=1.5)
    env.reset(seed=np.int64(3))  # numpy's whole numbers are whole numbers


def test_an_action_outside_the_mask_raises_and_changes_nothing():
    env = rl.env("baha")
    env.reset(seed=1)
    agent = env.agent_selection
    before = env.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction, match="allowed: pass"):
        env.step(illegal)
    with pytest.raises(IllegalAction, match="not None"):
        env.step(None)
    after = env.observe(agent)
    assert env.agent_selection == agent and len(env.game.history) == 0
    np.testing.assert_array_equal(after["observation"], before["observation"])


def test_a_step_after_the_end_is_refused():
    env = rl.env("baha", deals=1)
    play(env, 1, np.random.default_rng(3))
    with pytest.raises(rl.EnvError, match="episode is over .* call reset"):
        env.step(0)
    env = rl.env("baha", deals=1)
    env.reset(seed=1)
    rng = np.random.default_rng(3)
    while not env.terminations[env.agent_selection]:
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    with pytest.raises(rl.EnvError, match="step it with None"):
        env.step(3)


def test_without_the_rl_extra_the_import_names_it(monkeypatch):
    import importlib
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pettingzoo" else real(name, *a))
    with pytest.raises(ImportError, match=r"needs pettingzoo, which comes with the rl extra"):
        importlib.reload(rl)
    monkeypatch.undo()
    importlib.reload(rl)


def test_a_game_without_an_encoder_has_no_environment(monkeypatch):
    import dataclasses

    spec = dataclasses.replace(games.get("baha"), observation=None)
    monkeypatch.setitem(games._GAMES, "baha", spec)
    with pytest.raises(rl.EnvError, match="Baha has no observation encoder"):
        rl.env("baha")


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_max_steps_truncates_every_agent(game):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(rl.env(game, max_steps=7), num_cycles=100)
    env = rl.env(game, max_steps=7)
    assert play(env, 5, np.random.default_rng(0))[1] == 7  # then every agent stepped out
    env.reset(seed=5)
    for _ in range(7):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    obs, reward, terminated, truncated, _ = env.last()
    assert truncated and not terminated and not obs["action_mask"].any()
    assert all(env.truncations.values()) and not any(env.terminations.values())
    with pytest.raises(rl.EnvError, match="step it with None"):
        env.step(0)
    with pytest.raises(rl.EnvError, match="max_steps must be a whole number from 1"):
        rl.env(game, max_steps=-3)


def test_the_global_state_is_every_seats_observation():
    env = rl.env("baha", players=3)
    env.reset(seed=8)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    state = env.state()
    assert env.state_space.contains(state) and state.shape == (3 * env.table.size,)
    np.testing.assert_array_equal(state, np.concatenate([env.observe(f"seat_{s}")["observation"] for s in range(3)]))
