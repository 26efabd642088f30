"""What the native engine's tests share: the skip when it is not built, random games played on
both engines side by side, and what each game gives the tests every game runs
(:class:`NativeGame`; a game's own support module, ``baha_native_support``,
``baebae_native_support``, holds its cases)."""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from cardroom import native

needs_native = pytest.mark.skipif(not native.available(), reason=f"native core {native.unavailable_reason()}")


def stream_for(options: dict[str, Any]) -> str:
    """One of the two chance streams for a set of options, half of the sets each, unrelated to
    any one option (a hash of them all): the option sets cover both streams at no extra cost."""
    return ("splitmix", "twister")[zlib.crc32(repr(sorted(options.items())).encode()) & 1]


def counted_games(monkeypatch: pytest.MonkeyPatch, module: Any) -> Iterator[list[int]]:
    """The games each native batch call (``agent_games``) of a game's native ``module`` played,
    in order; the engine's choice restored after."""
    played: list[int] = []
    real = module.agent_games

    def counted(rules: Any, games: int, *args: Any, **options: Any) -> Any:
        played.append(games)
        return real(rules, games, *args, **options)

    monkeypatch.setattr(module, "agent_games", counted)
    yield played
    native.use_engine(None)


def moments(state: Any, rng: random.Random, per_game: int, horizon: int, first: int = 1) -> Iterator[Any]:
    """``state`` at ``per_game`` moments of a random game (actions ``first`` to ``horizon``,
    drawn from ``rng``), the game played on at random between them, until it ends."""
    moves = 0
    for moment in sorted(rng.sample(range(first, horizon), per_game)):
        while moves < moment and not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            moves += 1
        if state.is_over:
            break
        yield state


def played(state: Any, actions: int, seed: int = 0) -> Any:
    """``state`` played on by up to ``actions`` random legal actions (drawn from ``seed``)."""
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def look_alike(state: Any, seat: int) -> Any:
    """A state with the same view for ``seat`` and other hidden cards (either game's)."""
    return next(
        d for k in range(50)
        if any((d := state.determinize(seat, random.Random(k))).hands[p] != state.hands[p]
               for p in range(state.n) if p != seat)
    )


def play_both_engines(python_type: Any, native_type: Any, compare: Callable[[Any, Any], None], rules: Any, seed: int,
                      rng: random.Random, check_views: float = 0.0, max_actions: int = 200_000,
                      each: Callable[[Any, list[int]], None] | None = None) -> tuple[Any, Any]:
    """One random game on the Python engine (``python_type``) and on the native one
    (``native_type``), compared at every action: the seat to act, the legal actions (and what
    ``each(fast, legal)`` checks), the events; at a share ``check_views`` of the moments, and at
    the end, position by position (``compare``); at the end the logs, scores and returns."""
    python = python_type.start(rules, seed)
    fast = native_type.start(rules, seed)
    assert fast.log == python.log
    for _ in range(max_actions):
        assert fast.current_player == python.current_player and fast.is_over == python.is_over
        legal = python.legal_actions()
        assert fast.legal_actions() == legal
        if each is not None:
            each(fast, legal)
        if check_views and rng.random() < check_views:
            compare(python, fast)
        if python.is_over:
            break
        action = rng.choice(legal)
        assert fast.apply(action) == python.apply(action)
    compare(python, fast)
    assert fast.log == python.log and fast.history == python.history
    assert fast.scores == python.scores and fast.winner == python.winner and fast.returns() == python.returns()
    return python, fast


@dataclass(frozen=True)
class NativeGame:
    """A game's cases of the native tests every game runs (``test_games_*.py``, parametrised
    over the games, as the conformance suite is); each game's own hand-made cases stay in its
    files. ``native``: its native state type's name in its native module."""

    name: str
    rules: Any
    """The game's rules (its default rules: ``rules()``)."""
    python: Any
    native: str
    compare_positions: Callable[[Any, Any], None]
    options: list[dict[str, Any]]
    """The option sets of the random games compared at every action."""
    option_id: Callable[[dict[str, Any]], str]
    random_games: Callable[[dict[str, Any]], None]
    """Random games of one option set, played on both engines side by side."""
    illegal: Callable[[Any], list[Any]]
    """Actions that are not legal in a new game (the Python state given)."""
    hand_made: Callable[[], tuple[Any, int, dict[str, Any], list[dict[str, Any]], tuple[type[Exception], ...]]]
    """A hand-made start: the rules, the seed, its keywords, keywords each refused (a ``seed``
    among them replaces the seed) and the errors they raise."""
    too_large: tuple[dict[str, Any], str]
    """Start keywords beyond the native engine's bits and the words of their refusal."""
    decisions: Callable[[], Iterator[tuple[Any, int]]]
    """Positions on the native engine where the seat to act has a choice (or the first move),
    with the seed of each search of them."""
    search_iterations: int
    tables: tuple[str, ...]
    """The tables of a results folder."""
    table_runs: list[tuple[dict[str, Any], str, bool]]
    """``simulate --out`` runs compared with the Python engine's: options, agents, duplicate."""
    csv_run: dict[str, Any]
    """The options of a run written as CSV on two workers."""
    python_path_run: dict[str, Any]
    """The options of the runs that take the Python path (other line-ups, records)."""
    designer_runs: list[list[str]]
    """``compare`` and ``sweep`` commands of two variants and 16 games."""
    ray_run: tuple[dict[str, Any], int]
    """A Ray run's options and games."""

    def native_type(self) -> Any:
        import importlib

        return getattr(importlib.import_module(f"cardroom.games.{self.name}.native"), self.native)


def check_inference_steers_a_repeatable_search(state: Any, seat: int) -> None:
    """The ``ismcts`` search with ``infer`` at ``state`` for ``seat`` (either game's native
    search): the same seed gives the same root, on one thread or two; the weighed worlds, their
    noise and a fresh pool each iteration each change what the root finds."""
    from cardroom.agents import make
    from cardroom.agents.ismcts import ISMCTSAgent

    def root(**options: Any) -> dict[int, tuple[int, float]]:
        agent = make("ismcts", seed=5, iterations=300, **options)
        assert isinstance(agent, ISMCTSAgent)
        return agent.action_values(state, seat)

    first = root(infer=300)
    assert first == root(infer=300)
    assert first != root()
    assert root(infer=300, threads=2) == root(infer=300, threads=2)
    assert root(infer=300, infer_epsilon=0.05) != first
    fresh = root(infer=8, infer_pool="iteration")
    assert fresh == root(infer=8, infer_pool="iteration")
    assert fresh != root(infer=8)
