"""Baha's and BAEBAE's native vector environments (native/cardroom/baha_vector.hpp,
baebae_vector.hpp) against the Python one.

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
from baebae_native_support import DECK_OPTIONS
from baebae_support import random_decks, write_deck
from baha_native_support import option_sets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import needs_native

from cardroom import native, rl
from cardroom.engine import IllegalAction
from cardroom.games.baha import Rules
from cardroom.games.baha.native import NativeBahaState
from cardroom.games.baha.observation import encoder

pytestmark = needs_native

OPTION_SETS = list(option_sets())


def rules_options(index: int) -> dict[str, object]:
    options = dict(OPTION_SETS[index % len(OPTION_SETS)])
    options["target"] = (30, 60, 100)[index % 3]  # games of a few hands: many auto-resets
    return options


def side_by_side(steps: int, seed: int, game: str = "baha", **options: object) -> int:
    """Step a native and a Python vector env of the same options with the same random legal
    actions, comparing everything they return; the episodes that ended."""
    fast = rl.vector_env(game, engine="native", seed=seed, **options)
    native.use_engine("python")  # the reference rows play on the Python engine
    try:
        slow = rl.vector_env(game, engine="python", seed=seed, **options)
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


@pytest.mark.parametrize("index", range(1, len(OPTION_SETS), 3))
def test_self_play_rows_match_the_python_env(index):
    options = {**rules_options(index), "target": 20}  # every seat's moves count: short games
    ended = side_by_side(300, index, num_envs=6, self_play=True, **options)
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


def blind_observations(states, observe) -> tuple[int, int]:
    """Each seat's native observation (``observe(state, seat)``) of each of ``states`` against
    its observation of a world determinized for it (all the seat knows kept, every hidden card
    dealt again): the same; the seats checked, and how many times another seat's did change."""
    rng = random.Random(3)
    checked = differed = 0
    for state in states:
        for seat in range(state.n):
            world = state.determinize(seat, rng)
            np.testing.assert_array_equal(observe(world, seat), observe(state, seat), err_msg=f"{state!r} {seat}")
            checked += 1
            differed += any(observe(state, s).tobytes() != observe(world, s).tobytes()
                            for s in range(state.n) if s != seat)
    return checked, differed


def test_a_seats_native_observation_never_depends_on_cards_it_cannot_see():
    # determinize(seat) keeps all the seat knows and deals every hidden card again.
    checked, differed = blind_observations(itertools.islice(positions(30, 2), 400), native_observation)
    assert checked > 400
    assert differed > checked // 4  # other seats' observations did change: the check has teeth


def refuses_bad_seats_and_buffers(observe, state, size: int) -> None:
    """The core's encoder ``observe`` refuses, in words, a seat of none of ``state``'s 4 seats and
    a buffer of another size than ``size`` or of another type than float32."""
    with pytest.raises(ValueError, match="no such seat"):
        observe(state, 4, np.empty(size, np.float32))
    with pytest.raises(ValueError, match="right type and size"):
        observe(state, 0, np.empty(size - 1, np.float32))
    with pytest.raises(ValueError, match="right type and size"):
        observe(state, 0, np.empty(size, np.float64))


def test_the_native_encoder_refuses_a_bad_seat_or_buffer():
    refuses_bad_seats_and_buffers(native.core().baha_observe, NativeBahaState.start(Rules(), 1), 568)


# -- BAEBAE ---------------------------------------------------------------------------------

BAEBAE_OPTIONS = [
    {"players": players, **DECK_OPTIONS[deck], "draw_when_able": dwa, "chosen_target": chosen,
     "decks": 2 if players == 8 else 1}
    for deck in DECK_OPTIONS for players in (2, 3, 4, 6, 8) for dwa in (False, True)
    for chosen in ("once", "each_step")
]


def baebae_options(index: int) -> dict[str, object]:
    options = dict(BAEBAE_OPTIONS[index % len(BAEBAE_OPTIONS)])
    options["rounds"] = 1 + index % 3  # short games: many auto-resets
    options["ace_penalty"] = (1, 5, 0)[index % 3]
    options["turn_limit"] = (2000, 30, 2000, 60)[index % 4]  # the guard ends some rounds
    return options


def baebae_id(index: int) -> str:
    o = BAEBAE_OPTIONS[index % len(BAEBAE_OPTIONS)]
    return f"{o['players']}p-{'dwa' if o['draw_when_able'] else 'no-dwa'}-{o['chosen_target']}-{len(o['deck_files'])}"  # type: ignore[arg-type]


@pytest.mark.parametrize("index", range(2, len(BAEBAE_OPTIONS), 5), ids=baebae_id)
def test_baebae_self_play_rows_match_the_python_env(index):
    options = {**baebae_options(index), "rounds": 1}
    ended = side_by_side(250, index, "baebae", num_envs=5, self_play=True, **options)
    assert ended > 0


# -- every game ------------------------------------------------------------------------------

ROWS = {"baha": (rules_options, 150, 6, 120), "baebae": (baebae_options, 120, 5, 100)}
"""Per game: its options of a case's index, the steps and rows of a single-agent run, the steps
of an episode-options run."""
SINGLE_AGENT = [("baha", i) for i in range(0, len(OPTION_SETS), 3)] + [
    ("baebae", i) for i in range(0, len(BAEBAE_OPTIONS), 5)]


@pytest.mark.parametrize(("game", "index"), SINGLE_AGENT,
                         ids=[f"{g}-{i if g == 'baha' else baebae_id(i)}" for g, i in SINGLE_AGENT])
def test_single_agent_rows_match_the_python_env(game, index):
    options_of, steps, rows, _ = ROWS[game]
    options = options_of(index)
    players = int(options["players"])
    bots = ("random", "heuristic")
    opponents = [bots[(index + k) % 2] for k in range(players - 1)]
    ended = side_by_side(steps, index, game, num_envs=rows, seat=index % players, opponents=opponents, **options)
    assert ended > 0  # the rows reset themselves along the way


@pytest.mark.parametrize("episode", [{"deals": 1}, {"deals": 2, "zero_sum": True}, {"max_steps": 7},
                                     {"max_steps": 40, "zero_sum": True}])
@pytest.mark.parametrize("self_play", [False, True])
@pytest.mark.parametrize("game", list(ROWS))
def test_episode_options_match_the_python_env(game, episode, self_play):
    players = 3 if self_play else 4
    ended = side_by_side(ROWS[game][3], 5, game, num_envs=4, players=players, self_play=self_play,
                         opponents="heuristic", **episode)
    assert ended > 0


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck=random_decks(), players=st.integers(2, 5), seed=st.integers(0, 2**40), self_play=st.booleans())
def test_baebae_rows_match_the_python_env_with_generated_decks(deck, players, seed, self_play):
    from cardroom.games.baebae.rules import read_decks

    options = {**read_decks(str(write_deck(deck, "native"))), "players": players, "rounds": 1, "turn_limit": 60}
    side_by_side(60, seed, "baebae", num_envs=3, self_play=self_play, opponents="heuristic", **options)


def test_baebae_games_the_bots_end_first_are_passed_over_as_the_python_env_does():
    # One card each, two rounds: a bot often goes out before the learner's first move, the
    # round's end and so (deals=1) the episode; reset deals the seed's next game instead.
    options = {"players": 6, "hand_size": 1, "rounds": 1, "seat": 5, "opponents": "heuristic"}
    native.use_engine("python")
    try:
        skipped = sum(len(rl.gym_env("baebae", seed=s, **options).reset()[1].get("skipped", []))
                      for s in range(40))
    finally:
        native.use_engine(None)
    assert skipped > 0  # the case arises with these rules
    assert side_by_side(60, 3, "baebae", num_envs=8, **options) > 0


def test_baebae_bad_actions_are_refused_in_words_with_nothing_moved():
    envs = rl.vector_env("baebae", num_envs=3, engine="native", opponents="random", seed=2, copy=True)
    obs, _ = envs.reset()
    before = obs["observation"].copy()
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    actions = np.argmax(obs["action_mask"], axis=1)
    actions[1] = illegal
    with pytest.raises(IllegalAction, match=r"row 1: action \d+ \(.+\) is not one seat 0 may take now; "
                                            r"allowed: .+; no row has moved"):
        envs.step(actions)
    np.testing.assert_array_equal(envs._obs, before)  # nothing moved


def baebae_positions(games: int, seed: int, rules_of=None):
    """Native BAEBAE positions along random games of many option sets (about a fifth of them)."""
    from cardroom.games.baebae import Rules as BaebaeRules
    from cardroom.games.baebae.native import NativeBaebaeState

    rng = random.Random(seed)
    for game in range(games):
        rules = rules_of(game) if rules_of else BaebaeRules(**baebae_options(game))
        state = NativeBaebaeState.start(rules, seed * 1000 + game)
        actions = 0
        while not state.is_over and actions < 400:
            if rng.random() < 0.2:
                yield state.clone()
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            actions += 1
        yield state


def baebae_native_observation(state, seat: int) -> np.ndarray:
    from cardroom.games.baebae.observation import encoder as baebae_encoder

    out = np.full(baebae_encoder.size(state.rules), np.nan, np.float32)  # every entry must be written
    native.core().baebae_observe(state, seat, out)
    return out


def check_baebae_encoder(states) -> int:
    from cardroom.games.baebae.observation import encoder as baebae_encoder

    checked = 0
    for state in states:
        reference = state.reference()  # the position on the Python engine
        for seat in range(state.n):
            expected = np.empty(baebae_encoder.size(state.rules), np.float32)
            baebae_encoder.encode(reference, seat, expected)
            assert baebae_native_observation(state, seat).tobytes() == expected.tobytes(), (state, seat)
            checked += 1
    return checked


def test_the_native_baebae_encoder_writes_the_python_encoders_array_for_every_seat():
    assert check_baebae_encoder(baebae_positions(len(BAEBAE_OPTIONS), 1)) > 5000


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck=random_decks(), players=st.integers(2, 6), seed=st.integers(0, 2**40), copies=st.sampled_from([1, 2]))
def test_the_native_baebae_encoder_writes_the_python_encoders_array_with_generated_decks(deck, players, seed, copies):
    from cardroom.games.baebae import Rules as BaebaeRules
    from cardroom.games.baebae.rules import read_decks

    rules = BaebaeRules(**read_decks(str(write_deck(deck, "native"))), players=players, rounds=2, turn_limit=150,
                        decks=copies)
    assert check_baebae_encoder(baebae_positions(2, seed % 1000, lambda _: rules)) > 0


def test_a_seats_native_baebae_observation_never_depends_on_cards_it_cannot_see():
    checked, differed = blind_observations(itertools.islice(baebae_positions(40, 2), 300), baebae_native_observation)
    assert checked > 600
    assert differed > checked // 4  # other seats' observations did change: the check has teeth


def test_the_native_baebae_encoder_refuses_a_bad_seat_or_buffer():
    from cardroom.games.baebae import Rules as BaebaeRules
    from cardroom.games.baebae.native import NativeBaebaeState
    from cardroom.games.baebae.observation import encoder as baebae_encoder

    state = NativeBaebaeState.start(BaebaeRules(), 1)
    size = baebae_encoder.size(state.rules)
    refuses_bad_seats_and_buffers(native.core().baebae_observe, state, size)
    with pytest.raises(TypeError, match="a native BAEBAE state is needed"):
        native.core().baebae_observe(object(), 0, np.empty(size, np.float32))
