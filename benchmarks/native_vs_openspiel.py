"""Native simulation on one core: Baha hands/s of the native batch against OpenSpiel's C++ ``evaluate_bots``.

Cardroom's native engine plays batches of 4-player Baha games of target 1 (one hand each)
between random agents in one call (:func:`cardroom.games.baha.native.random_games`: the very games
``cardroom simulate`` plays with ``random`` agents, no Python in the loop), in this process on
one core. OpenSpiel plays ``hearts`` games (one hand each) with ``pyspiel.evaluate_bots`` and
four C++ uniform random bots in this process. For scale, the Python engine plays the same
games through :func:`cardroom.sim.tournament.run_games` on one process, and both engines are
driven action by action through the State API (what the web and the terminal use), beside
OpenSpiel's ``hearts`` driven the same way from Python. Heuristic agents play too: native
batches (``heuristic_games``) against ``run_games`` on the Python engine. Rounds alternate, the
order turning; reported: hands per second, the median ratios (the issue's goals: native >= 10x
OpenSpiel's C++ on one core; the per-action State API >= 3x OpenSpiel's Python loop), and
nanoseconds per action of the native batch. The batch runs
twice: with simulate's random agents (a Mersenne Twister seeded per seat and game, as Python
seeds them) and with the fast uniform stream (``exact=False``), the same deals either way.

``--instructions`` also counts the instructions one action takes with ``valgrind
--tool=callgrind`` (only the batch's own function is counted, the whole of it with everything it
calls, so the figure does not depend on the machine's load; the function counted is printed).

Run with ``make bench`` or ``python benchmarks/native_vs_openspiel.py [--rounds 10] [--json]``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from typing import Any

from harness import (
    STREAM,
    Pick,
    Runner,
    callgrind_count,
    cardroom_runner,
    environment,
    load_average,
    make_pick,
    measure,
    openspiel_runner,
    print_table,
)
from sim_vs_openspiel import evaluate_bots_runner

from cardroom import native
from cardroom.games import baha
from cardroom.native import describe as native_build
from cardroom.sim.tournament import Lineup, run_games

GOAL = 10.0
"""Native Baha hands per second over OpenSpiel's C++ evaluation, both on one core."""
STATE_API_GOAL = 3.0
"""Baha's per-action State API over OpenSpiel's ``hearts`` driven from Python, hands per second."""
BATCH = 2000
"""Games per native call: enough that the call's own cost is a small part of it."""
RULES = baha.Rules(players=4, target=1, stream=STREAM)


def native_runner(pick: Pick, exact: bool = True) -> Runner:
    """Batches of ``BATCH`` one-hand games of random agents on the native engine: simulate's
    random agents (``exact``), or the fast uniform stream."""
    from cardroom.games.baha.native import random_games

    seeds = iter(range(0, 1 << 60, BATCH))

    def run(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        hands = actions = 0
        start = clock()
        while True:
            found = random_games(RULES, BATCH, next(seeds), exact=exact)
            hands += sum(found.hands)
            actions += sum(found.actions)
            now = clock()
            if now - start >= seconds:
                return hands, actions, now - start

    return run


def heuristic_runner(pick: Pick) -> Runner:
    """Batches of one-hand games of heuristic agents on the native engine (``heuristic_games``:
    the very games ``cardroom simulate`` plays with ``heuristic`` agents)."""
    from cardroom.games.baha.native import heuristic_games

    seeds = iter(range(0, 1 << 60, BATCH // 4))

    def run(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        hands = actions = 0
        start = clock()
        while True:
            found = heuristic_games(RULES, BATCH // 4, next(seeds))
            hands += sum(found.hands)
            actions += sum(found.actions)
            now = clock()
            if now - start >= seconds:
                return hands, actions, now - start

    return run


def python_runner(pick: Pick, pyspiel: Any, agents: str = "random", games: int = 100) -> Runner:
    """The same games on the Python engine (the reference), one process: ``run_games``
    with the engine choice pinned to ``python`` (it would take the native batches otherwise)."""
    lineup = Lineup.parse(agents, 4)
    seeds = iter(range(1 << 40, 1 << 62, games))

    def run(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        hands = actions = 0
        native.use_engine("python")
        try:
            start = clock()
            while True:
                results = run_games(RULES, games, next(seeds), lineup, workers=1)
                hands += sum(r.deals for r in results)
                actions += sum(r.actions for r in results)
                now = clock()
                if now - start >= seconds:
                    return hands, actions, now - start
        finally:
            native.use_engine(None)

    return run


_COUNTED = (
    "import sys; sys.path[:0] = {path!r}\n"
    "from cardroom.games import baha\n"
    "from cardroom.games.baha.native import random_games\n"
    "rules = baha.Rules(players=4, target=1, stream={stream!r})\n"
    "found = random_games(rules, {games}, 12345, exact={exact})\n"
    "print(sum(found.actions))\n"
)


COUNTED_FUNCTION = "(anonymous namespace)::play_games(*Played&)"
"""The batch's function, as callgrind's ``--toggle-collect`` names it: the whole demangled name,
from its start to its last parameter, so that no other function matches (``*play_games*`` also
matched the template instances named after it that it calls, the deal's and the hand's end, and
entering them switched collection off)."""


def count_instructions(exact: bool, games: int = 300) -> dict[str, Any] | None:
    """Instructions per action of the native batch, counted by callgrind in the batch's function
    (the whole of it: everything it calls is counted, nothing else)."""
    script = _COUNTED.format(path=sys.path, games=games, exact=exact, stream=STREAM)
    counted = callgrind_count(COUNTED_FUNCTION, script)
    return None if counted is None else {**counted, "exact": exact, "games": games}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="rounds per engine (default 10)")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per engine per round (default 1)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions an action (callgrind)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds more than 0")
    if not native.available():
        print(f"The native engine is {native.unavailable_reason()}: nothing to measure.", file=sys.stderr)
        return 2
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError as err:
        print(f"OpenSpiel is not installed ({err}): `make bench` installs the bench extra.", file=sys.stderr)
        return 2
    load_before = load_average()
    runners = [
        ("baha_native_batch", native_runner(make_pick(0))),
        ("baha_native_fast", native_runner(make_pick(0), exact=False)),
        ("openspiel_cpp_evaluate_bots", evaluate_bots_runner(make_pick(1), pyspiel)),
        ("baha_python_run_games", python_runner(make_pick(2), pyspiel)),
        ("baha_native_heuristic_batch", heuristic_runner(make_pick(0))),
        ("baha_python_heuristic_run_games", python_runner(make_pick(2), pyspiel, "heuristic", 20)),
    ]
    from cardroom.games.baha.native import NativeBahaState
    from cardroom.games.baha.state import BahaState

    runners += [  # the per-action State API, what the web and the terminal use
        ("baha_native_state_api", cardroom_runner(lambda seed: NativeBahaState.start(RULES, seed),
                                                  lambda state: state.deal_number, make_pick(3))),
        ("baha_python_state_api", cardroom_runner(lambda seed: BahaState.start(RULES, seed),
                                                  lambda state: state.deal_number, make_pick(3))),
        ("openspiel_hearts_python_loop", openspiel_runner("hearts", make_pick(4), pyspiel)),
    ]
    comparisons = [
        ("baha_native_batch", "openspiel_cpp_evaluate_bots", GOAL),
        ("baha_native_fast", "openspiel_cpp_evaluate_bots", GOAL),
        ("baha_native_batch", "baha_python_run_games", None),
        ("baha_native_heuristic_batch", "baha_python_heuristic_run_games", None),
        ("baha_native_state_api", "baha_python_state_api", None),
        ("baha_native_state_api", "openspiel_hearts_python_loop", STATE_API_GOAL),
        ("baha_python_state_api", "openspiel_hearts_python_loop", None),
    ]
    measured = measure(runners, comparisons, args.rounds, args.seconds)
    rows = measured["rounds"]
    for name in ("baha_native_batch", "baha_native_fast"):
        per_action = sorted(row[name]["seconds"] * 1e9 / row[name]["decisions"] for row in rows)
        measured["summary"][f"{name}_ns_per_action"] = per_action[len(per_action) // 2]
        if args.instructions:
            exact = name == "baha_native_batch"
            measured["summary"][f"{name}_instructions"] = count_instructions(exact=exact)
    load_after = load_average()
    result = {
        "benchmark": "native_vs_openspiel",
        "environment": {**environment(), "engine": native_build()},
        "rounds_asked": args.rounds, "seconds": args.seconds, "unit": "hands", **measured,
        "load_average": None if load_before is None or load_after is None
        else {"before": load_before, "after": load_after},
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print_table(result, [name for name, _ in runners], "hands")
    for name in ("baha_native_batch", "baha_native_fast"):
        print(f"{name}: {measured['summary'][f'{name}_ns_per_action']:.1f} ns an action (median of rounds)")
        counted = measured["summary"].get(f"{name}_instructions")
        if counted:
            print(f"{name}: {counted['instructions_per_action']:.0f} instructions an action "
                  f"(callgrind, {counted['actions']} actions of {counted['games']} games; counted in "
                  f"{'; '.join(counted['functions'])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
