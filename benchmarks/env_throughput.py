"""Learning-environment speed: Cardroom's PettingZoo env against RLCard's ``uno`` env,
OpenSpiel's ``hearts`` and Cardroom's own State API, in steps (decisions) per second.

Every contender is driven the way a learner's data collection drives it, with uniformly
random legal actions chosen by the same ``pick``:

- ``baha-env`` / ``baebae-env``: ``cardroom.rl.env`` (4 players, default rules), the usual AEC
  loop ``obs, reward, terminated, truncated, info = env.last(); env.step(a)``, ``a`` picked
  over ``np.flatnonzero(obs["action_mask"])`` (an agent that is done steps ``None``, not
  counted). ``last()`` encodes the observation array of the agent to act, every step.
- ``baha-env-noobs`` / ``baebae-env-noobs``: the same loop with ``env.last(observe=False)``
  and the legal actions read from the game: what the wrapper costs without the observation.
- ``baha-raw`` / ``baebae-raw``: the State API, ``legal = state.legal_actions();
  state.apply(legal[pick(len(legal))])``, no observation.
- ``uno``: RLCard's ``uno`` env (``env.step`` returns the next player's encoded state and
  its legal actions), a uniformly random legal action each step.
- ``hearts``: OpenSpiel's ``hearts``, at each decision the player's
  ``information_state_tensor`` (it has no observation tensor) and ``legal_actions_mask``, a
  pick over the mask; chance nodes (the deal) are sampled and not counted.
- ``baha-vec``: ``cardroom.rl.vector_env("baha", num_envs=--num-envs, self_play=True)``, the
  native batch (every seat an agent, so every decision is a step with an observation, as in
  the loops above), stepped as a learner steps it: each call takes one action a row, chosen
  uniformly over the row's mask by numpy (``argmax(mask * uniform noise)``), and returns every
  row's next observation and mask, written into the env's arrays. Counted: rows x calls.
- ``baha-vec-single``: the same batch single-agent (seat 0 learns, three random bots inside the
  batch); counted: the learner's steps, each of which also plays about three bot moves.
- ``baha-vec-2procs`` / ``baha-vec-2threads``: ``baha-vec`` on both cores, two processes (forked,
  each its own batch) or two threads of one process (the native step releases the GIL); their
  steps added up over the round's wall time.
- ``baebae-vec``, ``baebae-vec-single``, ``baebae-vec-2procs``, ``baebae-vec-2threads``: the same
  four for ``cardroom.rl.vector_env("baebae", ...)`` (4 players, the sample deck, default
  rules), BAEBAE's native batch.

The contenders run in rounds of ``--seconds`` each, their order rotated every round, so
slow drift of the machine touches all alike. Reported: each one's median steps per second and
the medians of the per-round ratios. Goals: ``baebae-env`` and ``baha-env`` at least 5x
``uno``; each env at least 0.7 of its game's raw State API (at most 30% slower); ``baha-vec``
and ``baebae-vec`` (one core) at least 20x ``uno``.

Run: ``python benchmarks/env_throughput.py --rounds 5 --seconds 1 [--num-envs 256] [--json]``
(the ``rl`` and ``bench`` extras: ``make bench`` installs them; the ``baha-vec`` runners need
the native core and are left out, with a line saying so, where it is not built; ``--games``
picks the games whose runners run, ``--games baebae`` for BAEBAE's alone).
"""

from __future__ import annotations

import argparse
import importlib
import json
import multiprocessing
import statistics
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from harness import STREAM, Pick, environment, load_average, make_pick

from cardroom import games, native, rl

Runner = Callable[[float], tuple[int, float]]
"""Steps for about the given seconds; returns (steps, seconds)."""

RATIOS = (
    ("baha-env", "baha-raw", 0.7),
    ("baebae-env", "baebae-raw", 0.7),
    ("baha-env-noobs", "baha-raw", None),
    ("baebae-env-noobs", "baebae-raw", None),
    ("baebae-env", "uno", 5.0),
    ("baha-env", "uno", 5.0),
    ("baha-env", "hearts", None),
    ("baha-vec", "uno", 20.0),
    ("baha-vec", "baha-env", None),
    ("baha-vec-2procs", "baha-vec", None),
    ("baha-vec-2threads", "baha-vec", None),
    ("baebae-vec", "uno", 20.0),
    ("baebae-vec", "baebae-env", None),
    ("baebae-vec-single", "uno", None),
    ("baebae-vec-2procs", "baebae-vec", None),
    ("baebae-vec-2threads", "baebae-vec", None),
    ("baebae-vec-2procs", "uno", None),
)
"""(ours, theirs, goal): the ratios reported, with the goal where the project set one."""


def env_runner(game: str, pick: Pick, observe: bool = True) -> Runner:
    env = rl.env(game, players=4)
    seeds = iter(range(10**9))

    def run(seconds: float) -> tuple[int, float]:
        clock = time.perf_counter
        steps = 0
        start = clock()
        end = start + seconds
        while True:
            env.reset(seed=next(seeds))
            for _ in env.agent_iter():
                obs, reward, terminated, truncated, info = env.last(observe)
                if terminated or truncated:
                    env.step(None)
                    continue
                if observe:
                    legal = np.flatnonzero(obs["action_mask"])
                    env.step(int(legal[pick(len(legal))]))
                else:
                    actions = env.game.legal_actions()
                    env.step(actions[pick(len(actions))])
                steps += 1
            now = clock()
            if now >= end:
                return steps, now - start

    return run


def raw_runner(game: str, pick: Pick) -> Runner:
    rules = games.make_rules(game, {"players": 4, "stream": STREAM})
    seeds = iter(range(10**9))

    def run(seconds: float) -> tuple[int, float]:
        clock = time.perf_counter
        steps = 0
        start = clock()
        end = start + seconds
        while True:
            state = rules.new_game(next(seeds))
            while not state.is_over:
                actions = state.legal_actions()
                state.apply(actions[pick(len(actions))])
                steps += 1
            now = clock()
            if now >= end:
                return steps, now - start

    return run


def uno_runner(pick: Pick, rlcard: Any) -> Runner:
    env = rlcard.make("uno", config={"seed": 0})

    def run(seconds: float) -> tuple[int, float]:
        clock = time.perf_counter
        steps = 0
        start = clock()
        end = start + seconds
        while True:
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[pick(len(legal))])
                steps += 1
            now = clock()
            if now >= end:
                return steps, now - start

    return run


def hearts_runner(pick: Pick, pyspiel: Any) -> Runner:
    game = pyspiel.load_game("hearts")

    def run(seconds: float) -> tuple[int, float]:
        clock = time.perf_counter
        steps = 0
        start = clock()
        end = start + seconds
        while True:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[pick(len(outcomes))][0])
                    continue
                player = state.current_player()
                np.asarray(state.information_state_tensor(player), np.float32)
                legal = np.flatnonzero(state.legal_actions_mask(player))
                state.apply_action(int(legal[pick(len(legal))]))
                steps += 1
            now = clock()
            if now >= end:
                return steps, now - start

    return run


def vec_runner(num_envs: int, seed: int, self_play: bool = True, game: str = "baha") -> Runner:
    envs = rl.vector_env(game, num_envs=num_envs, self_play=self_play, opponents="random", engine="native",
                         players=4)
    obs, _ = envs.reset(seed=seed)
    mask = obs["action_mask"]  # the env's own array, rewritten in place by every step
    rng = np.random.default_rng(seed)
    noise = np.empty(mask.shape, np.float32)

    def run(seconds: float) -> tuple[int, float]:
        clock = time.perf_counter
        calls = 0
        start = clock()
        end = start + seconds
        while True:
            rng.random(dtype=np.float32, out=noise)
            np.multiply(noise, mask, out=noise)  # uniform over each row's legal actions: the largest noise
            envs.step(noise.argmax(axis=1))
            calls += 1
            now = clock()
            if now >= end:
                return calls * num_envs, now - start

    return run


def _vec_worker(num_envs: int, seed: int, seconds: float, out: Any, game: str) -> None:
    out.put(vec_runner(num_envs, seed, game=game)(seconds))


def vec_processes_runner(num_envs: int, seed: int, workers: int = 2, game: str = "baha") -> Runner:
    """``<game>-vec`` in ``workers`` forked processes at once, each its own batch."""
    context = multiprocessing.get_context("fork")

    def run(seconds: float) -> tuple[int, float]:
        queue = context.Queue()
        procs = [context.Process(target=_vec_worker, args=(num_envs, seed + 1000 * k, seconds, queue, game))
                 for k in range(workers)]
        for proc in procs:
            proc.start()
        results = [queue.get() for _ in procs]
        for proc in procs:
            proc.join()
        # each worker times its own loop (the fork and the batch's set-up left out)
        return sum(steps for steps, _ in results), max(elapsed for _, elapsed in results)

    return run


def vec_threads_runner(num_envs: int, seed: int, workers: int = 2, game: str = "baha") -> Runner:
    """``<game>-vec`` in ``workers`` threads of this process, each its own batch."""
    runners = [vec_runner(num_envs, seed + 1000 * k, game=game) for k in range(workers)]

    def run(seconds: float) -> tuple[int, float]:
        results: list[tuple[int, float]] = []
        threads = [threading.Thread(target=lambda r=r: results.append(r(seconds))) for r in runners]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return sum(steps for steps, _ in results), time.perf_counter() - start

    return run


def measure(runners: dict[str, Runner], rounds: int, seconds: float) -> dict[str, Any]:
    for run in runners.values():
        run(min(0.2, seconds))  # warm-up: first-use costs stay out of the rounds
    names = list(runners)
    rows = []
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        row: dict[str, Any] = {"round": r + 1, "order": order}
        for name in order:
            steps, elapsed = runners[name](seconds)
            row[name] = steps / elapsed
        rows.append(row)
    summary: dict[str, Any] = {
        f"{name}_steps_per_s": float(statistics.median(row[name] for row in rows)) for name in names
    }
    ratios = []
    for ours, theirs, goal in RATIOS:
        if ours in runners and theirs in runners:
            per_round = [row[ours] / row[theirs] for row in rows]
            median = float(statistics.median(per_round))
            ratios.append({"ours": ours, "theirs": theirs, "median": median, "min": min(per_round),
                           "max": max(per_round), "goal": goal,
                           "meets_goal": None if goal is None else median >= goal})
    summary["ratios"] = ratios
    return {"rounds": rows, "summary": summary}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds per contender (default 5)")
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="seconds per contender per round (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random choices")
    parser.add_argument("--num-envs", type=int, default=256,
                        help="rows of the baha-vec and baebae-vec batches (default 256)")
    parser.add_argument("--games", default="baha,baebae",
                        help="the games whose runners run, comma-separated (default baha,baebae; "
                             "the peers always run)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0 or args.num_envs < 1:
        parser.error("--rounds and --num-envs must be at least 1 and --seconds more than 0")
    try:
        pyspiel = importlib.import_module("pyspiel")
        rlcard = importlib.import_module("rlcard")
    except ImportError as err:
        print(f"A peer is not installed ({err}). Run `make bench`, which installs the `bench` "
              "extra (open-spiel, rlcard).", file=sys.stderr)
        return 2
    chosen = [g for g in args.games.split(",") if g]
    if not chosen or any(g not in ("baha", "baebae") for g in chosen):
        parser.error(f"--games takes baha and baebae, comma-separated, not {args.games!r}")
    runners: dict[str, Runner] = {}
    for game in chosen:
        runners[f"{game}-env"] = env_runner(game, make_pick(args.seed))
        runners[f"{game}-env-noobs"] = env_runner(game, make_pick(args.seed), observe=False)
        runners[f"{game}-raw"] = raw_runner(game, make_pick(args.seed))
    runners["uno"] = uno_runner(make_pick(args.seed + 1), rlcard)
    runners["hearts"] = hearts_runner(make_pick(args.seed + 2), pyspiel)
    for game in chosen:
        if native.vector_for(game) is not None:
            runners[f"{game}-vec"] = vec_runner(args.num_envs, args.seed, game=game)
            runners[f"{game}-vec-single"] = vec_runner(args.num_envs, args.seed, self_play=False, game=game)
            runners[f"{game}-vec-2procs"] = vec_processes_runner(args.num_envs, args.seed, game=game)
            runners[f"{game}-vec-2threads"] = vec_threads_runner(args.num_envs, args.seed, game=game)
        else:
            print(f"the {game}-vec runners are left out: native core {native.unavailable_reason()}",
                  file=sys.stderr)
    before = load_average()
    result = {"benchmark": "env_throughput", "environment": environment(), "rounds_asked": args.rounds,
              "seconds": args.seconds, "num_envs": args.num_envs,
              **measure(runners, args.rounds, args.seconds)}
    after = load_average()
    result["load_average"] = None if before is None or after is None else {"before": before, "after": after}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    s = result["summary"]
    print(f"steps per second, median of {args.rounds} rounds of {args.seconds:g} s each, order rotated:")
    for name in runners:
        print(f"  {name:<18} {s[name + '_steps_per_s']:>10,.0f}")
    print("ratios (median of the per-round ratios, range):")
    for ratio in s["ratios"]:
        goal = "" if ratio["goal"] is None else (
            f"  goal >= {ratio['goal']:g}: {'met' if ratio['meets_goal'] else 'not met'}")
        print(f"  {ratio['ours']:>14} / {ratio['theirs']:<10} {ratio['median']:6.2f} "
              f"({ratio['min']:.2f}-{ratio['max']:.2f}){goal}")
    if result["load_average"] is not None:
        load = result["load_average"]
        print(f"load average (1 min): {load['before']:.2f} before, {load['after']:.2f} after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
