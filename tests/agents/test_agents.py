"""Agents: made by name, legal moves only, and blind to what their seat cannot see."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardroom.agents import AgentError, make, parse_spec
from cardroom.engine import NativeInference
from cardroom.games import baebae, baha
from cardroom.sim import Lineup, run_games

AGENT_SPECS = ["random", "heuristic", "ismcts:iterations=60", "ismcts:iterations=40:rollout=heuristic"]
BLIND_SPECS = [*AGENT_SPECS, "learned", "learned:sample=true", "ismcts:iterations=30:policy=learned:value=0.5"]
"""The blind-bot checks' agents: the learned ones too (their shipped weights are for four players,
so they stay out of the three-player games below)."""
BAHA_BLIND_SPECS = [*BLIND_SPECS, "ismcts:iterations=60:infer=200", "ismcts:iterations=60:infer=200:infer_epsilon=0.05"]
"""And Baha's: the search weighing its worlds by the other seats' play (native Baha only)."""


def midgame(seed: int, moves: int) -> baha.BahaState:
    state = baha.Rules(players=4).new_game(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


def look_alike(state: Any, seat: int) -> Any:
    """A state with the same view for ``seat`` and other hidden cards (determinize again
    until some other hand differs)."""
    return next(
        d for k in range(50)
        if any((d := state.determinize(seat, random.Random(k))).hands[p] != state.hands[p]
               for p in range(state.n) if p != seat)
    )


@pytest.mark.parametrize("spec", BAHA_BLIND_SPECS)
@pytest.mark.parametrize(("seed", "moves"), [(1, 0), (2, 5), (3, 14), (4, 30), (5, 45)])
def test_agent_is_blind_to_hidden_cards(spec: str, seed: int, moves: int) -> None:
    """Same decision on two states that differ only in cards the seat cannot see."""
    state = midgame(seed, moves)
    if "infer" in spec and not isinstance(state, NativeInference):
        pytest.skip("infer runs in the native search only, and this engine is Python's")
    seat = state.current_player
    assert seat is not None
    other = look_alike(state, seat)
    assert other.view(seat) == state.view(seat)
    name, options = parse_spec(spec)
    first = make(name, seed=7, **options).act(state, seat)
    second = make(name, seed=7, **options).act(other, seat)
    assert first == second
    assert first in state.legal_actions()


@pytest.mark.parametrize("spec", BLIND_SPECS)
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_agent_is_blind_to_hidden_cards_in_baebae(spec: str, seed: int) -> None:
    state = baebae.Rules(players=4).new_game(seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(5, 30)):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player
    assert seat is not None
    other = look_alike(state, seat)
    assert other.view(seat) == state.view(seat)
    name, options = parse_spec(spec)
    assert make(name, seed=3, **options).act(state, seat) == make(name, seed=3, **options).act(other, seat)


@pytest.mark.parametrize("spec", AGENT_SPECS)
def test_agents_play_whole_games_legally(spec: str) -> None:
    for rules in (baha.Rules(players=3, target=15), baebae.Rules(players=3, rounds=1)):
        results = run_games(rules, 2, 11, Lineup.parse(spec, 3))
        assert all(not r.guard_stopped and r.winners for r in results)


def test_heuristic_beats_random_at_baha() -> None:
    rules = baha.Rules(players=4, target=100)
    results = run_games(rules, 20, 1, Lineup.parse("heuristic,random,random,random", 4))
    points = [[h[s] for r in results for h in r.deal_points] for s in range(4)]
    mine = sum(points[0]) / len(points[0])
    theirs = sum(sum(p) for p in points[1:]) / sum(len(p) for p in points[1:])
    assert mine + 4 < theirs


def test_ismcts_budget_in_iterations_and_seconds() -> None:
    state = midgame(6, 20)
    seat = state.current_player
    assert seat is not None
    bot = make("ismcts", seed=1, iterations=37)
    bot.act(state, seat)
    assert bot.last_iterations == 37  # type: ignore[attr-defined]
    timed = make("ismcts", seed=1, seconds=0.05)
    timed.act(state, seat)
    assert timed.last_iterations > 1  # type: ignore[attr-defined]


def test_ismcts_is_seeded() -> None:
    state = midgame(8, 16)
    seat = state.current_player
    assert seat is not None
    picks = {make("ismcts", seed=5, iterations=80).act(state, seat) for _ in range(3)}
    assert len(picks) == 1


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nosuch", "unknown agent"),
        ("ismcts:iterations=0", "iterations"),
        ("ismcts:seconds=-1", "seconds"),
        ("ismcts:rollout=smart", "rollout"),
        ("ismcts:depth=3", "ismcts has no option 'depth'; its options: iterations .*seed"),
        ("random:x=1", "random has no option 'x'; its options: seed"),
        ("heuristic:seeds=1", "heuristic has no option 'seeds'; its options: seed"),
        ("random:seed=abc", "seed must be a whole number from 0"),
        ("random:seed=-1", "seed must be a whole number from 0"),
        ("random:seed=1.5", "seed must be a whole number from 0"),
        ("heuristic:seed=true", "seed must be a whole number from 0"),
        ("human:seed=1", "human has no option 'seed'"),
        ("ismcts:iterations=0", r"\(ismcts takes: iterations, seconds, .*seed\)"),
        ("ismcts:iterations", "key=value"),
    ],
)
def test_bad_agent_specs(spec: str, message: str) -> None:
    with pytest.raises(AgentError, match=message):
        name, options = parse_spec(spec)
        make(name, seed=1, **options)


@pytest.mark.parametrize(("spec", "rules"), [
    ("random", baha.Rules(players=4, target=30)),
    ("ismcts:iterations=20", baha.Rules(players=4, target=30)),
    # Baha's heuristic rarely needs chance; BAEBAE's breaks every tie at random.
    ("heuristic", baebae.Rules(players=4, rounds=1)),
])
def test_a_seat_seed_fixes_the_bots_own_choices(spec: str, rules: Any) -> None:
    """``seed=N`` in a spec: the same front seed and seat seed give the same game; another seat
    seed gives the bot other choices on the same deal."""

    def game(seat_seed: int) -> list[Any]:
        lineup = Lineup((f"{spec}:seed={seat_seed}",) + ("random",) * 3)
        state = rules.new_game(5)
        bots = [lineup.make(seat, 11) for seat in range(4)]
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].act(state, seat))
        return state.log

    assert game(3) == game(3)
    assert game(3) != game(4)


def test_human_agent_needs_a_front() -> None:
    with pytest.raises(AgentError, match="not a bot: the bots are random, heuristic, learned and ismcts"):
        make("human")
    state = midgame(1, 0)
    agent = make("human", ask=lambda s, seat: s.legal_actions()[-1])
    assert agent.act(state, 1) == state.legal_actions()[-1]


def test_the_heuristic_is_found_through_the_games_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    """The heuristic plays each game with the bot its spec names; a game whose spec names
    none is refused in words that name the game."""
    from dataclasses import replace

    from cardroom import games

    state = baha.Rules().new_game(1)
    seat = state.current_player
    assert seat is not None
    assert make("heuristic", seed=2).act(state, seat) in state.legal_actions()
    monkeypatch.setitem(games._GAMES, "baha", replace(games.get("baha"), heuristic=None))
    with pytest.raises(AgentError, match="baha has no heuristic bot"):
        make("heuristic", seed=2).act(state, seat)
