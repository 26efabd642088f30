"""Every game's specs, states, learning environments and OpenSpiel games and states pickle,
and what is unpickled plays on exactly as the original: in this process, and in another one
started as ``multiprocessing`` starts its workers (``spawn``: a fresh interpreter that knows
only what the pickle carries), which is how ``multiprocessing.Pool``, Gymnasium's
``AsyncVectorEnv`` and OpenSpiel's ``serialize_game_and_state`` move them."""

from __future__ import annotations

import multiprocessing
import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest
import toy_game
from conformance_support import GAME_NAMES, registered, snapshot

from cardroom import games

game_names = pytest.mark.parametrize("name", GAME_NAMES)
with registered(toy_game.SPEC):
    SPECS = {name: games.get(name) for name in GAME_NAMES}
MOVES = (0, 4)
"""How far into a game each thing is pickled: at the start, and a few moves in."""
STEPS = 12
"""Moves played on after the round trip, the same by the original and by the copies."""


@pytest.fixture(scope="module")
def worker() -> Iterator[Any]:
    """One worker process, started as multiprocessing's ``spawn`` starts them."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        yield pool


def has_environments(name: str) -> bool:
    return SPECS[name].observation is not None


def has_openspiel(name: str) -> bool:
    return SPECS[name].deal_limits is not None


def made(kind: str, name: str, moves: int) -> Any:
    """A ``kind`` of thing for game ``name``, ``moves`` random moves into a game."""
    rng = random.Random(moves)
    if kind == "state":
        state = games.get(name).make_rules().new_game(5)
        for _ in range(moves):
            state.apply(rng.choice(state.legal_actions()))
        return state
    if kind == "aec":
        from cardroom import rl

        env = rl.env(name, deals=1)
        env.reset(seed=5)
        for _ in range(moves):
            env.step(rng.choice(env.game.legal_actions()))
        return env
    if kind == "gym":
        from cardroom import rl

        others = rl.Table.of(name, None, {}).players - 1
        env = rl.gym_env(name, opponents=["heuristic", "random", "ismcts:iterations=5"][:others], deals=1)
        env.reset(seed=5)
        for _ in range(moves):
            env.step(rng.choice(env.game.legal_actions()))
        return env
    assert kind == "openspiel"
    from cardroom import openspiel

    state = openspiel.load(name, deals=2).new_initial_state()
    state.apply_action(5)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def play_on(kind: str, thing: Any, actions: list[int] | None) -> tuple[list[int], list[Any]]:
    """Play ``thing`` on: the ``actions`` given, or (``None``) random legal ones that are
    returned; with everything the moves showed (observations, rewards, strings)."""
    rng = random.Random(7)
    chosen: list[int] = []
    seen: list[Any] = []
    for step in range(STEPS):
        if kind == "openspiel":
            if thing.is_terminal():
                break
            legal = thing.legal_actions()
        elif kind == "aec":
            if not thing.agents:
                break
            obs, reward, terminated, truncated, _ = thing.last()
            seen.append((obs["observation"].tolist(), obs["action_mask"].tolist(), reward))
            legal = [None] if terminated or truncated else thing.game.legal_actions()
        elif kind == "gym":
            legal = [int(a) for a in thing.action_masks().nonzero()[0]]
        else:
            legal = thing.legal_actions()
        if not legal:
            break
        action = rng.choice(legal) if actions is None else actions[step]
        chosen.append(action)
        if kind == "openspiel":
            thing.apply_action(action)
            player = max(thing.current_player(), 0)
            seen.append((str(thing), thing.returns(), thing.rewards(),
                         thing.information_state_string(player), thing.observation_tensor(player)))
        elif kind == "gym":
            obs, reward, terminated, truncated, _ = thing.step(action)
            seen.append((obs["observation"].tolist(), obs["action_mask"].tolist(), reward, terminated))
        elif kind == "aec":
            thing.step(action)
        else:
            thing.apply(action)
            seen.append(snapshot(thing))
    return chosen, seen


def replayed(kind: str, blob: bytes, actions: list[int]) -> list[Any]:
    """What the pickled thing showed when played on with ``actions`` (run in the worker, whose
    registry has the installed games: the toy, as in this suite, is added)."""
    with registered(toy_game.SPEC):
        return play_on(kind, pickle.loads(blob), actions)[1]


KINDS = [("state", lambda name: True), ("aec", has_environments), ("gym", has_environments),
         ("openspiel", has_openspiel)]
CASES = [(name, kind) for name in GAME_NAMES for kind, applies in KINDS if applies(name)]
"""Each game with what it has: the toy game has no observation encoder (so no learning
environment) and no deal limits (so no OpenSpiel game)."""


@game_names
def test_the_spec_pickles(name: str) -> None:
    spec = games.get(name)
    assert pickle.loads(pickle.dumps(spec)) == spec


@pytest.mark.parametrize(("name", "kind"), CASES)
@pytest.mark.parametrize("moves", MOVES)
def test_it_pickles_and_plays_on_the_same_here_and_in_another_process(name, kind, moves, worker):
    thing = made(kind, name, moves)
    blob = pickle.dumps(thing)
    actions, shown = play_on(kind, thing, None)
    assert actions, "nothing was played after the round trip"
    assert play_on(kind, pickle.loads(blob), actions)[1] == shown
    assert worker.apply(replayed, (kind, blob, actions)) == shown


@pytest.mark.parametrize("name", [n for n in GAME_NAMES if has_openspiel(n)])
def test_openspiel_serializes_games_and_states(name: str) -> None:
    import pyspiel

    from cardroom import openspiel

    state = made("openspiel", name, 4)
    game = state.get_game()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    again_game, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again_game) == str(game) and str(again) == str(state)
    assert game.deserialize_state(state.serialize()).information_state_string(1) == \
        state.information_state_string(1)
    # OpenSpiel's own test, serializing and deserializing every state it passes through
    pyspiel.random_sim_test(openspiel.load(name), num_sims=1, serialize=True, verbose=False)
