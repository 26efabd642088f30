"""Baha's native vector environment (native/cardroom/baha_vector.hpp) against the Python one.

The native batch is held to the Python vector env stepped on the Python engine with the
Python encoder: the same observations bit for bit, masks, rewards, terminations,
truncations, final observations and seats to act, row by row over many games of every option
set, through auto-resets, in both modes and against both bots. The native encoder is also
checked on its own, on positions of many games, for every seat: the Python encoder's array,
and nothing that depends on the cards the seat cannot see.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from native_support import needs_native, option_sets

from cardroom import native, rl
from cardroom.games.baha import Rules
from cardroom.games.baha.native import NativeBahaState
from cardroom.games.baha.observation import encoder

pytestmark = needs_native

OPTION_SETS = list(option_sets())


def rules_options(index: int) -> dict[str, object]:
    options = dict(OPTION_SETS[index % len(OPTION_SETS)])
    options["target"] = (30, 60, 100)[index % 3]  # games of a few hands: many auto-resets
    return options


def side_by_side(steps: int, seed: int, **options: object) -> int:
    """Step a native and a Python vector env of the same options with the same random legal
    actions, comparing everything they return; the episodes that ended."""
    fast = rl.vector_env("baha", engine="native", seed=seed, **options)
    native.use_engine("python")  # the reference rows play on the Python engine
    try:
        slow = rl.vector_env("baha", engine="python", seed=seed, **options)
        assert (fast.engine, slow.engine) == ("native", "python")
        a, _ = fast.reset()
        b, info_b = slow.reset()
        rng = np.random.default_rng(seed)
        ended = 0
        for step in range(steps):
            where = f"step {step} of {options}"
            np.testing.assert_array_equal(a["observation"], b["observation"], err_msg=where)
            np.testing.assert_array_equal(a["action_mask"], b["action_mask"], err_msg=where)
            actions = np.argmax(a["action_mask"] * rng.random(a["action_mask"].shape), axis=1)
            a, reward_a, term_a, trunc_a, info_a = fast.step(actions)
            b, reward_b, term_b, trunc_b, info_b = slow.step(actions)
            np.testing.assert_array_equal(reward_a, reward_b, err_msg=where)
            np.testing.assert_array_equal(term_a, term_b, err_msg=where)
            np.testing.assert_array_equal(trunc_a, trunc_b, err_msg=where)
            done = info_a["_final_obs"]
            np.testing.assert_array_equal(done, info_b["_final_obs"])
            np.testing.assert_array_equal(info_a["final_obs"][done], info_b["final_obs"][done], err_msg=where)
            if options.get("self_play"):
                np.testing.assert_array_equal(info_a["to_act"], info_b["to_act"], err_msg=where)
            ended += int(done.sum())
        return ended
    finally:
        native.use_engine(None)


@pytest.mark.parametrize("index", range(0, len(OPTION_SETS), 3))
def test_single_agent_rows_match_the_python_env(index):
    options = rules_options(index)
    players = int(options["players"])  # type: ignore[call-overload]
    bots = ("random", "heuristic")
    opponents = [bots[(index + k) % 2] for k in range(players - 1)]
    ended = side_by_side(150, index, num_envs=6, seat=index % players, opponents=opponents, **options)
    assert ended > 0  # the rows reset themselves along the way


@pytest.mark.parametrize("index", range(1, len(OPTION_SETS), 3))
def test_self_play_rows_match_the_python_env(index):
    options = {**rules_options(index), "target": 20}  # every seat's moves count: short games
    ended = side_by_side(300, index, num_envs=6, self_play=True, **options)
    assert ended > 0


@pytest.mark.parametrize("episode", [{"deals": 1}, {"deals": 2, "zero_sum": True}, {"max_steps": 7},
                                     {"max_steps": 40, "zero_sum": True}])
@pytest.mark.parametrize("self_play", [False, True])
def test_episode_options_match_the_python_env(episode, self_play):
    players = 3 if self_play else 4
    ended = side_by_side(120, 5, num_envs=4, players=players, self_play=self_play, opponents="heuristic",
                         **episode)
    assert ended > 0


def positions(games: int, seed: int):
    """Native positions along random games of many option sets (about a fifth of them)."""
    rng = random.Random(seed)
    for game in range(games):
        state = NativeBahaState.start(Rules(**rules_options(game)), seed * 1000 + game)
        while not state.is_over:
            if rng.random() < 0.2:
                yield state.clone()
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        yield state


def native_observation(state: NativeBahaState, seat: int) -> np.ndarray:
    out = np.full(encoder.size(state.rules), np.nan, np.float32)  # every entry must be written
    native.core().baha_observe(state, seat, out)
    return out


def test_the_native_encoder_writes_the_python_encoders_array_for_every_seat():
    checked = 0
    for state in positions(60, 1):
        reference = state.reference()
        for seat in range(state.n):
            expected = np.empty(encoder.size(state.rules), np.float32)
            encoder.encode(reference, seat, expected)
            assert native_observation(state, seat).tobytes() == expected.tobytes(), (state, seat)
            checked += 1
    assert checked > 2000


def test_a_seats_native_observation_never_depends_on_cards_it_cannot_see():
    # determinize(seat) keeps all the seat knows and deals every hidden card again.
    rng = random.Random(3)
    checked = differed = 0
    for state in itertools.islice(positions(30, 2), 400):
        for seat in range(state.n):
            world = state.determinize(seat, rng)
            mine = native_observation(state, seat)
            np.testing.assert_array_equal(native_observation(world, seat), mine, err_msg=f"{state!r} {seat}")
            checked += 1
            differed += any(native_observation(state, s).tobytes() != native_observation(world, s).tobytes()
                            for s in range(state.n) if s != seat)
    assert checked > 400
    assert differed > checked // 4  # other seats' observations did change: the check has teeth


def test_the_native_encoder_refuses_a_bad_seat_or_buffer():
    state = NativeBahaState.start(Rules(), 1)
    with pytest.raises(ValueError, match="no such seat"):
        native.core().baha_observe(state, 4, np.empty(568, np.float32))
    with pytest.raises(ValueError, match="right type and size"):
        native.core().baha_observe(state, 0, np.empty(567, np.float32))
    with pytest.raises(ValueError, match="right type and size"):
        native.core().baha_observe(state, 0, np.empty(568, np.float64))
