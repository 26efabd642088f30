"""Native BAEBAE on one core: rounds/s of the native batch against OpenSpiel's C++ ``evaluate_bots``.

Cardroom's native engine plays batches of 4-player BAEBAE games of one round (the sample deck,
default rules but ``rounds=1``) between random agents in one call
(:func:`cardroom.games.baebae.native.random_games`: the very games ``cardroom simulate`` plays
with ``random`` agents, no Python in the loop), in this process on one core. OpenSpiel plays
``crazy_eights(players=4)`` games (one deal each) with ``pyspiel.evaluate_bots`` and four C++
uniform random bots in this process. For scale, the Python engine plays the same games through
:func:`cardroom.sim.tournament.run_games` on one process; heuristic agents play too (native
``heuristic_games`` against ``run_games`` on the Python engine); and both engines are driven
action by action through the State API (what the web and the terminal use), beside OpenSpiel's
``crazy_eights`` driven the same way from Python. Rounds alternate, the order turning; reported:
rounds per second, the median ratios (the issue's goals: native >= 10x OpenSpiel's C++ on one
core; the per-action State API >= 3x OpenSpiel's Python loop) and nanoseconds per action of
the native batch. The random batch runs twice: with simulate's random agents (a Mersenne
Twister seeded per seat and game, as Python seeds them) and with the fast uniform stream
(``exact=False``: the same deals and chance, other choices). ``--instructions`` also counts
the instructions one action takes with ``valgrind --tool=callgrind`` (the batch's own function
only, with everything it calls, so the figure does not depend on the machine's load; the
function counted is printed).

``--heuristic-games N`` then times ``run_games`` over ``N`` whole games (three rounds, the
default rules) of four heuristic agents on the native path, as ``cardroom simulate baebae
--games N --agents heuristic`` plays them (without ``--out`` tables); ``--table-games N`` times
``simulate_to`` over ``N`` such games with every results table written as Parquet into a
temporary folder, one worker a core, as ``cardroom simulate baebae --games N --agents heuristic
--out DIR`` runs (wall and CPU seconds, and whether the native batches played them).

Run with ``python benchmarks/baebae_native_vs_openspiel.py [--rounds 10] [--heuristic-games
100000] [--table-games 100000] [--json]``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import tempfile
import time
from pathlib import Path
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

from cardroom import native
from cardroom.games import baebae
from cardroom.native import describe as native_build
from cardroom.sim.results import Backend, read_manifest, simulate_to
from cardroom.sim.tournament import Lineup, run_games

GOAL = 10.0
"""Native BAEBAE rounds per second over OpenSpiel's C++ evaluation of crazy_eights, one core each."""
STATE_API_GOAL = 3.0
"""BAEBAE's per-action State API over OpenSpiel's ``crazy_eights`` driven from Python, rounds/s."""
BATCH = 1000
"""Games per native call: enough that the call's own cost is a small part of it."""
RULES = baebae.Rules(players=4, rounds=1, stream=STREAM)


def native_runner(pick: Pick, agents: str = "random", exact: bool = True) -> Runner:
    """Batches of one-round games on the native engine (``agent_games``): simulate's agents
    (``exact``), or the fast uniform stream."""
    from cardroom.games.baebae.native import agent_games

    size = BATCH if agents == "random" else BATCH // 4
    seeds = iter(range(0, 1 << 60, size))

    def run(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        rounds = actions = 0
        start = clock()
        while True:
            found = agent_games(RULES, size, next(seeds), (agents,), exact=exact)
            rounds += sum(len(points) for points in found.deal_points)
            actions += sum(found.actions)
            now = clock()
            if now - start >= seconds:
                return rounds, actions, now - start

    return run


def python_runner(pick: Pick, agents: str = "random", games: int = 50) -> Runner:
    """The same games on the Python engine, one process: ``run_games`` with the engine choice
    pinned to ``python`` (it would take the native batches otherwise)."""
    lineup = Lineup.parse(agents, 4)
    seeds = iter(range(1 << 40, 1 << 62, games))

    def run(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        rounds = actions = 0
        native.use_engine("python")
        try:
            start = clock()
            while True:
                results = run_games(RULES, games, next(seeds), lineup, workers=1)
                rounds += sum(r.deals for r in results)
                actions += sum(r.actions for r in results)
                now = clock()
                if now - start >= seconds:
                    return rounds, actions, now - start
        finally:
            native.use_engine(None)

    return run


def evaluate_bots_runner(pick: Pick, pyspiel: Any) -> Runner:
    """``crazy_eights(players=4)`` games of four C++ uniform random bots through ``evaluate_bots``."""
    game = pyspiel.load_game("crazy_eights(players=4)")
    seeds = iter(range(1 << 30))

    def run(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        games = 0
        start = clock()
        end = start + seconds
        while True:
            seed = next(seeds)
            bots = [pyspiel.make_uniform_random_bot(p, seed * 4 + p) for p in range(4)]
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
            games += 1
            now = clock()
            if now >= end:
                return games, 0, now - start  # decisions are not counted by evaluate_bots

    return run


_COUNTED = (
    "import sys; sys.path[:0] = {path!r}\n"
    "from cardroom.games import baebae\n"
    "from cardroom.games.baebae.native import random_games\n"
    "rules = baebae.Rules(players=4, rounds=1, stream={stream!r})\n"
    "found = random_games(rules, {games}, 12345, exact={exact})\n"
    "print(sum(found.actions))\n"
)


COUNTED_FUNCTION = "cardroom::baebae::play_games(*Played&)"
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


def heuristic_run(games: int) -> dict[str, Any]:
    """``run_games`` over ``games`` three-round games of heuristic agents on the native path."""
    rules = baebae.Rules(players=4, stream=STREAM)
    start = time.perf_counter()
    results = run_games(rules, games, 0, Lineup.parse("heuristic", 4), workers=1)
    seconds = time.perf_counter() - start
    return {"games": games, "seconds": seconds, "rounds": sum(r.deals for r in results),
            "actions": sum(r.actions for r in results)}


def tables_run(games: int) -> dict[str, Any]:
    """``simulate_to`` over ``games`` three-round games of heuristic agents, every table written
    (one worker a core: ``simulate --out``'s default)."""
    rules = baebae.Rules(players=4, stream=STREAM)
    with tempfile.TemporaryDirectory() as folder:
        start, cpu = time.perf_counter(), time.process_time()
        results = simulate_to(Path(folder) / "out", rules, games, 0, Lineup.parse("heuristic", 4),
                              backend=Backend(workers=0))
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        manifest = read_manifest(Path(folder) / "out")
    return {"games": len(results), "seconds": seconds, "cpu_seconds": cpu,
            "workers": manifest["backend"]["workers"], "native_batches": manifest["native_batches"],
            "rows": {name: entry["rows"] for name, entry in manifest["tables"].items()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="rounds per engine (default 10)")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per engine per round (default 1)")
    parser.add_argument("--heuristic-games", type=int, default=0,
                        help="also time this many whole heuristic games through run_games (native)")
    parser.add_argument("--table-games", type=int, default=0,
                        help="also time this many heuristic games through simulate --out's tables")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions an action (callgrind)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0 or args.heuristic_games < 0 or args.table_games < 0:
        parser.error("--rounds must be at least 1, --seconds more than 0, --heuristic-games and "
                     "--table-games at least 0")
    if not native.available():
        print(f"The native engine is {native.unavailable_reason()}: nothing to measure.", file=sys.stderr)
        return 2
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError as err:
        print(f"OpenSpiel is not installed ({err}): `make bench` installs the bench extra.", file=sys.stderr)
        return 2
    from cardroom.games.baebae.native import NativeBaebaeState
    from cardroom.games.baebae.state import BaebaeState

    load_before = load_average()
    runners = [
        ("baebae_native_batch", native_runner(make_pick(0))),
        ("baebae_native_fast", native_runner(make_pick(0), exact=False)),
        ("openspiel_cpp_evaluate_bots", evaluate_bots_runner(make_pick(1), pyspiel)),
        ("baebae_python_run_games", python_runner(make_pick(2))),
        ("baebae_native_heuristic_batch", native_runner(make_pick(0), "heuristic")),
        ("baebae_python_heuristic_run_games", python_runner(make_pick(2), "heuristic", 10)),
        ("baebae_native_state_api", cardroom_runner(lambda seed: NativeBaebaeState.start(RULES, seed),
                                                    lambda state: state.deal_number, make_pick(3))),
        ("baebae_python_state_api", cardroom_runner(lambda seed: BaebaeState.start(RULES, seed),
                                                    lambda state: state.deal_number, make_pick(3))),
        ("openspiel_crazy_eights_python_loop",
         openspiel_runner("crazy_eights(players=4)", make_pick(4), pyspiel)),
    ]
    comparisons = [
        ("baebae_native_batch", "openspiel_cpp_evaluate_bots", GOAL),
        ("baebae_native_fast", "openspiel_cpp_evaluate_bots", GOAL),
        ("baebae_native_batch", "baebae_python_run_games", None),
        ("baebae_native_heuristic_batch", "baebae_python_heuristic_run_games", None),
        ("baebae_native_state_api", "baebae_python_state_api", None),
        ("baebae_native_state_api", "openspiel_crazy_eights_python_loop", STATE_API_GOAL),
        ("baebae_python_state_api", "openspiel_crazy_eights_python_loop", None),
    ]
    measured = measure(runners, comparisons, args.rounds, args.seconds)
    for name in ("baebae_native_batch", "baebae_native_fast", "baebae_native_heuristic_batch"):
        per_action = sorted(row[name]["seconds"] * 1e9 / row[name]["decisions"] for row in measured["rounds"])
        measured["summary"][f"{name}_ns_per_action"] = per_action[len(per_action) // 2]
    if args.instructions:
        for name, exact in (("baebae_native_batch", True), ("baebae_native_fast", False)):
            measured["summary"][f"{name}_instructions"] = count_instructions(exact=exact)
    if args.heuristic_games:
        measured["summary"]["heuristic_run_games"] = heuristic_run(args.heuristic_games)
    if args.table_games:
        measured["summary"]["heuristic_tables"] = tables_run(args.table_games)
    load_after = load_average()
    result = {
        "benchmark": "baebae_native_vs_openspiel",
        "environment": {**environment(), "engine": native_build()},
        "rounds_asked": args.rounds, "seconds": args.seconds, "unit": "rounds", **measured,
        "load_average": None if load_before is None or load_after is None
        else {"before": load_before, "after": load_after},
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print_table(result, [name for name, _ in runners], "rounds")
    for name in ("baebae_native_batch", "baebae_native_fast", "baebae_native_heuristic_batch"):
        print(f"{name}: {measured['summary'][f'{name}_ns_per_action']:.1f} ns an action (median of rounds)")
        counted = measured["summary"].get(f"{name}_instructions")
        if counted:
            print(f"{name}: {counted['instructions_per_action']:.0f} instructions an action "
                  f"(callgrind, {counted['actions']} actions of {counted['games']} games; counted in "
                  f"{'; '.join(counted['functions'])})")
    found = measured["summary"].get("heuristic_run_games")
    if found:
        print(f"run_games, {found['games']} heuristic games (native, one process): {found['seconds']:.1f} s, "
              f"{found['rounds']} rounds, {found['actions']} actions")
    found = measured["summary"].get("heuristic_tables")
    if found:
        print(f"simulate --out, {found['games']} heuristic games, tables written "
              f"({found['workers']} workers, native batches {found['native_batches']}): "
              f"{found['seconds']:.1f} s wall, "
              f"{found['cpu_seconds']:.1f} s CPU, rows {found['rows']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
