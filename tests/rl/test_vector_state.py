"""The vector environment's state: saved and restored mid-episode (``get_state``/``set_state``,
pickle, deepcopy), its global state for a centralised critic (``state()``), a chosen deal or
position put into a row (``load_row``), and the one seed rule of every environment.

Everything is checked row for row: a restored environment steps as the original does, array
for array; a row loaded with a position plays what the Python engine plays from it (the
Python vector env on the Python engine, whose rows are ``rl.gym_env``'s episodes)."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import numpy as np
import pytest

from cardroom import native, rl
from cardroom.games import baha

ENGINES = ["python", *(["native"] if native.available() else [])]
GAMES = {"baha": {"target": 30}, "baebae": {"rounds": 1}}  # short games: auto-resets on the way
OPPONENTS = ["heuristic", "random"]


def make(game: str, engine: str, self_play: bool, **options: Any) -> rl.CardroomVectorEnv:
    players = 3
    bots = {} if self_play else {"opponents": [OPPONENTS[k % 2] for k in range(players - 1)]}
    return rl.vector_env(game, num_envs=3, players=players, seed=11, engine=engine, self_play=self_play,
                         **bots, **{**GAMES[game], **options})


def play(envs: rl.CardroomVectorEnv, seed: int, steps: int) -> list[tuple[np.ndarray, ...]]:
    """``steps`` steps of random legal actions; everything each returned, copied."""
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(steps):
        mask = envs.action_masks()
        obs, rewards, terminated, truncated, info = envs.step(np.argmax(mask * rng.random(mask.shape), axis=1))
        seen.append(tuple(np.array(x, copy=True) for x in (
            obs["observation"], obs["action_mask"], rewards, terminated, truncated, info["final_obs"],
            info["_final_obs"], info.get("to_act", 0))))
    return seen


def assert_same(a: list[tuple[np.ndarray, ...]], b: list[tuple[np.ndarray, ...]]) -> None:
    assert len(a) == len(b)
    for step, (x, y) in enumerate(zip(a, b, strict=True)):
        for part, (u, v) in enumerate(zip(x, y, strict=True)):
            np.testing.assert_array_equal(u, v, err_msg=f"step {step}, array {part}")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("self_play", [False, True])
@pytest.mark.parametrize("game", list(GAMES))
def test_a_restored_env_steps_as_the_original(game, self_play, engine):
    envs = make(game, engine, self_play)
    envs.reset()
    play(envs, 1, 25)  # mid-episode
    saved = envs.get_state()
    pickled = pickle.loads(pickle.dumps(envs))  # made again, then set to the state
    copied = copy.deepcopy(envs)
    fresh = make(game, engine, self_play)
    fresh.reset(seed=999)  # other games entirely, until set_state
    fresh.set_state(pickle.loads(pickle.dumps(saved)))
    ahead = play(envs, 2, 150)
    assert sum(int(step[6].sum()) for step in ahead) > 0  # episodes ended and rows reset on the way
    for other in (pickled, copied, fresh):
        assert other.engine == engine
        assert_same(play(other, 2, 150), ahead)
    envs.set_state(saved)  # the saved state is its own: 150 steps later it takes the env back
    assert_same(play(envs, 2, 150), ahead)


def test_set_state_refuses_another_envs_state_in_words():
    envs = make("baha", "python", False)
    with pytest.raises(rl.EnvError, match="call reset"):
        envs.get_state()
    envs.reset()
    other = rl.vector_env("baha", num_envs=3, players=4, engine="python")
    other.reset()
    with pytest.raises(rl.EnvError, match="that state is of another environment"):
        envs.set_state(other.get_state())
    with pytest.raises(rl.EnvError, match="set_state takes what get_state"):
        envs.set_state({"rows": []})


@pytest.mark.parametrize("self_play", [False, True])
@pytest.mark.parametrize("game", list(GAMES))
def test_the_global_state_is_every_seats_observation_of_each_row(game, self_play):
    native.use_engine("python")  # the reference rows: their games are readable State objects
    try:
        slow = make(game, "python", self_play)
        slow.reset()
        rows = [slow._batch.game(row) for row in range(3)]
        state = slow.state()
        assert state.shape == (3, 3 * slow.table.size) and slow.state_space.contains(state)
        for row, game_now in enumerate(rows):
            np.testing.assert_array_equal(state[row], slow.table.global_state(game_now))
            seat = int(slow._to_act[row])
            size = slow.table.size
            np.testing.assert_array_equal(state[row, seat * size:(seat + 1) * size], slow._obs[row])
        play(slow, 3, 20)
        expected = slow.state().copy()
    finally:
        native.use_engine(None)
    for engine in ENGINES:  # the native batch's global state is the same, row for row
        envs = make(game, engine, self_play)
        envs.reset()
        play(envs, 3, 20)
        np.testing.assert_array_equal(envs.state(), expected)


def position(game: str, seed: int, moves: int, self_play: bool = False) -> Any:
    """A position on the Python engine: game ``seed`` of the three-seat table, ``moves`` random
    moves in (single-agent: stopped where seat 0, the learner, is to act)."""
    spec = {"baha": baha.Rules(players=3, **GAMES["baha"]),
            "baebae": rl.Table.of("baebae", 3, GAMES["baebae"]).rules}[game]
    native.use_engine("python")
    try:
        state = spec.new_game(seed)
    finally:
        native.use_engine(None)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    while not self_play and state.current_player != 0:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("self_play", [False, True])
@pytest.mark.parametrize("game", list(GAMES))
def test_a_row_loaded_with_a_position_plays_as_the_python_engine_from_it(game, self_play):
    start = position(game, 41, 9, self_play)
    history = list(start.history)
    native.use_engine("python")
    try:
        slow = make(game, "python", self_play)
        slow.reset()
        slow.load_row(1, state=start)
        assert slow._batch.game(1) is not start and slow._batch.game(1).history[:len(history)] == history
        if self_play:  # the row's first observation is the seat to act's, from the position itself
            np.testing.assert_array_equal(slow._obs[1], rl.observe(start, start.current_player))
        reference = play(slow, 4, 120)
    finally:
        native.use_engine(None)
    assert list(start.history) == history  # a copy is played: the position given is unchanged
    for engine in ENGINES:
        envs = make(game, engine, self_play)
        envs.reset()
        obs, _ = envs.load_row(1, state=start)
        assert not envs._ended[1]
        assert_same(play(envs, 4, 120), reference)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_gym_env_starts_from_a_position_and_refuses_one_it_cannot(game):
    start = position(game, 43, 5)
    env = rl.gym_env(game, players=3, opponents="heuristic", **GAMES[game])
    obs, info = env.reset(options={"state": start})
    assert env.game is not start and env.game.history == start.history
    np.testing.assert_array_equal(obs["observation"], rl.observe(start, 0))
    with pytest.raises(rl.EnvError, match="a seed or a position"):
        env.reset(seed=1, options={"state": start})
    with pytest.raises(rl.EnvError, match="reset's options are 'state'"):
        env.reset(options={"board": 1})
    with pytest.raises(rl.EnvError, match="a State of the game"):
        env.reset(options={"state": "9P"})
    other = rl.gym_env(game, players=4, opponents="heuristic", **GAMES[game])
    with pytest.raises(rl.EnvError, match="other rules"):
        other.reset(options={"state": start})


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("game", list(GAMES))
def test_a_row_loaded_with_a_seed_plays_that_game(game, engine):
    envs = make(game, engine, False)
    envs.reset(seed=5)
    obs, _ = envs.load_row(2, seed=123)
    alone = make(game, engine, False)
    first, _ = alone.reset(seed=[123, 6, 7])
    np.testing.assert_array_equal(obs["observation"][2], first["observation"][0])
    np.testing.assert_array_equal(obs["action_mask"][2], first["action_mask"][0])
    # rows 0 and 1 go on with their own games, row 2 with game 123's sequence
    ahead = play(envs, 8, 60)
    again = make(game, engine, False)
    again.reset(seed=[5, 6, 123])
    for step, seen in zip(play(again, 8, 60), ahead, strict=True):
        np.testing.assert_array_equal(seen[0][[1, 2]], step[0][[1, 2]])


def test_load_row_refuses_bad_input_in_words():
    envs = make("baha", ENGINES[-1], False)
    with pytest.raises(rl.EnvError, match="call reset"):
        envs.load_row(0, seed=1)
    envs.reset()
    before = envs.get_state()
    with pytest.raises(rl.EnvError, match="row must be a whole number from 0 to 2, not 3"):
        envs.load_row(3, seed=1)
    with pytest.raises(rl.EnvError, match="a seed .* or a state .*, one of them"):
        envs.load_row(0)
    with pytest.raises(rl.EnvError, match="seed must be a whole number from 0 to"):
        envs.load_row(0, seed=-1)
    with pytest.raises(rl.EnvError, match="other rules"):
        envs.load_row(0, state=baha.Rules(players=4).new_game(1))
    over = position("baha", 3, 0)
    while not over.is_over:
        over.apply(over.legal_actions()[0])
    with pytest.raises(rl.EnvError, match="game is over"):
        envs.load_row(0, state=over)
    huge = baha.Rules(players=3, target=30).new_game(2**64)
    with pytest.raises(rl.EnvError, match="seed must be a whole number from 0 to 9223372036854775807"):
        envs.load_row(0, state=huge)
    after = envs.get_state()
    for name, array in before["arrays"].items():  # nothing moved
        np.testing.assert_array_equal(after["arrays"][name], array)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_position_the_bots_end_first_is_refused_and_the_row_kept(engine):
    """BAEBAE, one round an episode: in game 1693 the random bots end the round before seat 3's
    first move , so its first position is no episode."""
    env = rl.gym_env("baebae", seat=3, opponents="random", deals=1)
    assert env.reset(seed=1693)[1] == {"skipped": [1693]}
    start = env.table.rules.new_game(1693)
    with pytest.raises(rl.EnvError, match="end the episode of this position before seat 3 has a move"):
        env.reset(options={"state": start})
    envs = rl.vector_env("baebae", num_envs=2, seat=3, opponents="random", deals=1, engine=engine)
    envs.reset(seed=1)
    before = envs.get_state()
    with pytest.raises(rl.EnvError, match="row 1 cannot start from that position: the opponents end"):
        envs.load_row(1, state=start)
    ahead = play(envs, 1, 30)
    envs.set_state(before)
    assert_same(play(envs, 1, 30), ahead)


# -- one seed rule ------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [-1, 2**63, 2**64])
def test_every_env_takes_the_same_seeds(bad):
    largest = 2**63 - 1
    aec = rl.env("baha")
    gym = rl.gym_env("baha", opponents="random")
    vec = rl.vector_env("baha", num_envs=1, opponents="random")
    for reset in (aec.reset, gym.reset, vec.reset):
        with pytest.raises(rl.EnvError, match=f"seed must be a whole number from 0 to {largest} .*not {bad}"):
            reset(seed=bad)
        reset(seed=largest)
    with pytest.raises(rl.EnvError, match="seed must be a whole number from 0"):
        rl.gym_env("baha", seed=bad)
    with pytest.raises(rl.EnvError, match="seed must be a whole number from 0"):
        rl.vector_env("baha", seed=bad)
    assert largest == rl.MAX_ENV_SEED
