"""The shared harness of the peer benchmarks: two engines raced in alternating rounds.

Each engine is a *runner*: it plays whole games (driven through its public state API with
the same uniform ``pick``) for about the given seconds and returns how many units it
finished (hands, rounds, games), how many decisions were taken, and the seconds it ran.
Rounds alternate the order (A B, B A, ...) so slow drift of the machine touches both alike;
the headline is the median of the per-round ratios.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import itertools
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

Pick = Callable[[int], int]
Runner = Callable[[float], tuple[int, int, float]]
"""Plays whole games for about the given seconds; returns (units, decisions, seconds)."""


def make_pick(seed: int) -> Pick:
    """A uniform choice of an index below ``n``, the same function for both engines."""
    rand = random.Random(seed).random

    def pick(n: int) -> int:
        return int(rand() * n)

    return pick


def cardroom_runner(new_game: Callable[[int], Any], units: Callable[[Any], int], pick: Pick) -> Runner:
    """Random self-play of Cardroom games: ``new_game(seed)``, then random legal actions to
    the end; ``units(state)`` says how many units (hands, rounds) a finished game counts."""
    seeds = itertools.count()

    def run(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        done = decisions = 0
        start = clock()
        end = start + seconds
        while True:
            state = new_game(next(seeds))
            while not state.is_over:
                actions = state.legal_actions()
                state.apply(actions[pick(len(actions))])
                decisions += 1
            done += units(state)
            now = clock()
            if now >= end:
                return done, decisions, now - start

    return run


def openspiel_runner(game_string: str, pick: Pick, pyspiel: Any) -> Runner:
    """Random self-play of an OpenSpiel game, chance outcomes picked uniformly (they are
    uniform in the games raced here); one game is one unit; chance is not a decision."""
    game = pyspiel.load_game(game_string)

    def run(seconds: float) -> tuple[int, int, float]:
        clock = time.perf_counter
        games = decisions = 0
        start = clock()
        end = start + seconds
        while True:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    action = outcomes[pick(len(outcomes))][0]
                else:
                    actions = state.legal_actions()
                    action = actions[pick(len(actions))]
                    decisions += 1
                state.apply_action(action)
            games += 1
            now = clock()
            if now >= end:
                return games, decisions, now - start

    return run


class PythonRunner:
    """A runner played in a subprocess whose games run on the Python engine, the reference
    (``CARDROOM_ENGINE=python``): ``factory`` of benchmark module ``module``, given the same
    pick. The subprocess waits between rounds, so it never runs beside another runner."""

    def __init__(self, module: str, factory: str, seed: int) -> None:
        code = (
            "import json, sys\n"
            f"sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})\n"
            "import harness\n"
            "from cardroom import native\n"
            f"from {module} import {factory} as factory\n"
            f"run = factory(harness.make_pick({seed}))\n"
            "print(json.dumps(native.engine_choice()), flush=True)\n"
            "for line in sys.stdin:\n"
            "    print(json.dumps(run(float(line))), flush=True)\n"
        )
        self.process = subprocess.Popen(
            [sys.executable, "-c", code], env=dict(os.environ, CARDROOM_ENGINE="python"),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )
        self.engine = self._read()
        if self.engine != "python":
            raise RuntimeError(f"the Python runner's engine is {self.engine!r}, not the Python one")

    def _read(self) -> Any:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the Python runner's process ended early (see its error above)")
        return json.loads(line)

    def __call__(self, seconds: float) -> tuple[int, int, float]:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{seconds}\n")
        self.process.stdin.flush()
        units, decisions, elapsed = self._read()
        return int(units), int(decisions), float(elapsed)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


Comparison = tuple[str, str, float | None]
"""A ratio to report: (runner, runner it is divided by, goal or None)."""


def measure(runners: list[tuple[str, Runner]], comparisons: list[Comparison], rounds: int,
            seconds: float) -> dict[str, Any]:
    """Run the runners one after another for ``rounds`` rounds, the order turning each round;
    per-round rates, the ratio of each comparison per round and the medians."""
    named = dict(runners)
    names = [name for name, _ in runners]
    for run in named.values():
        run(min(0.2, seconds))  # warm-up: first-use costs (tables, caches) stay out of rounds
    rows = []
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        if r // len(names) % 2:
            order.reverse()
        row: dict[str, Any] = {"round": r + 1, "order": "/".join(order)}
        for name in order:
            units, decisions, elapsed = named[name](seconds)
            row[name] = {
                "units": units,
                "decisions": decisions,
                "seconds": elapsed,
                "units_per_s": units / elapsed,
                "decisions_per_s": decisions / elapsed,
            }
        for a, b, _ in comparisons:
            row[f"{a}/{b}"] = row[a]["units_per_s"] / row[b]["units_per_s"]
        rows.append(row)

    summary: dict[str, Any] = {}
    for name in names:
        summary[f"{name}_per_s"] = float(statistics.median(row[name]["units_per_s"] for row in rows))
        summary[f"{name}_decisions_per_s"] = float(
            statistics.median(row[name]["decisions_per_s"] for row in rows)
        )
    ratios = []
    for a, b, goal in comparisons:
        values = [row[f"{a}/{b}"] for row in rows]
        ratios.append({
            "ratio": f"{a}/{b}", "median": statistics.median(values), "min": min(values),
            "max": max(values), "goal": goal,
            "meets_goal": None if goal is None else statistics.median(values) >= goal,
        })
    summary["ratios"] = ratios
    return {"rounds": rows, "summary": summary}


def environment() -> dict[str, Any]:
    def version(dist: str) -> str | None:
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            return None

    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "cardroom": version("cardroom"),
        "open_spiel": version("open_spiel"),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "cpus": os.cpu_count(),
        "system": platform.system(),
    }


STREAM = os.environ.get("CARDROOM_BENCH_STREAM", "splitmix")
"""The chance stream the benchmarks' Cardroom games are dealt on: new games' (``splitmix``) unless
``CARDROOM_BENCH_STREAM=twister`` asks for the stream of the figures measured before it
(docs/records.md, "Chance streams"); a subprocess a benchmark starts inherits it."""


def load_average() -> float | None:
    """The 1-minute load average, where the system has one: other work skews the figures."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def print_table(result: dict[str, Any], names: list[str], unit: str) -> None:
    env = result["environment"]
    print(
        f"{' vs '.join(names)} (Cardroom {env['cardroom']}, OpenSpiel {env['open_spiel']}), "
        f"Python {env['python']}, {env['cpus']} CPUs; {result['rounds_asked']} rounds of "
        f"{result['seconds']:g} s each, the order turning; unit: {unit}/s"
    )
    print()
    width = max(14, *(len(n) + 2 for n in names))
    print(f"{'round':>5}  " + "".join(f"{n:>{width}}" for n in names))
    for row in result["rounds"]:
        print(f"{row['round']:>5}  " + "".join(f"{row[n]['units_per_s']:>{width}.1f}" for n in names))
    s = result["summary"]
    print(f"{'median':>6} " + "".join(f"{s[n + '_per_s']:>{width}.1f}" for n in names))
    print()
    for ratio in s["ratios"]:
        goal = "" if ratio["goal"] is None else (
            f" (goal {ratio['goal']:g}: {'met' if ratio['meets_goal'] else 'not met'})"
        )
        print(f"{unit}/s ratio {ratio['ratio']}: median {ratio['median']:.2f}, rounds "
              f"{ratio['min']:.2f} to {ratio['max']:.2f}{goal}")
    print("decisions/s (supplement): " + ", ".join(
        f"{n} {s[n + '_decisions_per_s']:,.0f}" for n in names
    ))
    load = result["load_average"]
    if load is not None:
        print(f"load average (1 min): {load['before']:.2f} before, {load['after']:.2f} after")


def run_benchmark(
    name: str,
    description: str,
    ours: tuple[str, Callable[[Pick], Runner]],
    theirs: list[tuple[str, Callable[[Pick, Any], Runner]]],
    unit: str,
    goals: dict[str, float],
    argv: list[str] | None = None,
    game: str | None = None,
) -> int:
    """The command line shared by the peer benchmarks: Cardroom on the engine its games run on
    by default (this process: the native one where it is built and has the game), the Python
    engine (a subprocess with ``CARDROOM_ENGINE=python``, where this process runs native) and
    each of ``theirs``. ``goals`` maps a peer's name to the ratio Cardroom (default engine) /
    that peer aimed for. ``game``: the game whose engine ours runs on, where its name is not a
    game's (``cardroom_ismcts`` plays Baha): its label names that engine, and no Python
    subprocess runs beside it (such a benchmark has its own Python runner among ``theirs``)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--rounds", type=int, default=10, help="rounds per engine (default 10)")
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="seconds per engine per round (default 1)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random choices")
    parser.add_argument("--no-python", action="store_true",
                        help="leave out the Python engine where the game runs native")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds more than 0")
    try:
        pyspiel = importlib.import_module("pyspiel")  # the `bench` extra; it ships no types
    except ImportError as err:
        print(
            f"OpenSpiel is not installed ({err}). Run `make bench`, which installs the "
            "`bench` extra (open-spiel) and runs the benchmarks.",
            file=sys.stderr,
        )
        return 2
    from cardroom import native

    load_before = load_average()
    on_native = native.native_for(game or ours[0])
    ours_name = f"{ours[0]}_{'native' if on_native else 'python'}"
    runners: list[tuple[str, Runner]] = [(ours_name, ours[1](make_pick(args.seed)))]
    python = None
    if not args.no_python and on_native and game is None:
        module = os.path.splitext(os.path.basename(sys.argv[0]))[0]
        python = PythonRunner(module, ours[1].__name__, args.seed)
        runners.append((f"{ours[0]}_python", python))
    for k, (peer, factory) in enumerate(theirs):
        runners.append((peer, factory(make_pick(args.seed + 1 + k), pyspiel)))
    comparisons: list[Comparison] = [(ours_name, peer, goals.get(peer)) for peer, _ in theirs]
    if python is not None:
        comparisons += [(f"{ours[0]}_python", peer, None) for peer, _ in theirs]
        comparisons.append((ours_name, f"{ours[0]}_python", None))
    try:
        measured = measure(runners, comparisons, args.rounds, args.seconds)
    finally:
        if python is not None:
            python.close()
    result = {
        "benchmark": name,
        "environment": {**environment(), "engine": native.describe()},
        "rounds_asked": args.rounds,
        "seconds": args.seconds,
        "seed": args.seed,
        "unit": unit,
        **measured,
    }
    load_after = load_average()
    result["load_average"] = (
        None if load_before is None or load_after is None
        else {"before": load_before, "after": load_after}
    )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result, [n for n, _ in runners], unit)
    return 0


def pattern_regex(pattern: str) -> re.Pattern[str]:
    """Valgrind's function pattern (``--toggle-collect``: ``*`` any text, ``?`` one character,
    the whole name) as a regular expression."""
    parts = (".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.compile("".join(parts) + r"\Z", re.DOTALL)


def core_functions(pattern: str) -> list[str]:
    """The native core's functions (``nm -C`` of its shared object: the demangled names callgrind
    reads) that ``pattern`` matches; empty without ``nm``."""
    from cardroom.native import core

    nm = shutil.which("nm")
    if nm is None:
        return []
    listed = subprocess.run([nm, "-C", core().__file__], capture_output=True, text=True, check=True).stdout
    regex = pattern_regex(pattern)
    names = set()
    for line in listed.splitlines():
        fields = line.split(" ", 2)
        if len(fields) == 3 and fields[1] in ("t", "T", "w", "W") and regex.match(fields[2]):
            names.add(fields[2])
    return sorted(names)


def callgrind_count(pattern: str, script: str) -> dict[str, Any] | None:
    """The instructions ``python -c script`` runs inside the one function named by ``pattern``
    (valgrind's ``--toggle-collect``, counted whatever the load), and the actions the script
    prints last; ``None`` without valgrind.

    Entering any function the pattern matches flips collection, so a pattern that also matched a
    function the counted one calls (a template instance named after it, a local type's method)
    would switch collection off inside it: the pattern must name one function and only it. It is
    checked twice: against the core's symbols before the run and against the names callgrind
    recorded after it (``functions``: those names; a pattern matching none or several is refused)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    found_before = core_functions(pattern)
    if shutil.which("nm") is not None and len(found_before) != 1:
        raise SystemExit(f"--toggle-collect={pattern} must match one function of the core: {found_before}")
    with tempfile.TemporaryDirectory() as folder:
        out = f"{folder}/callgrind.out"
        done = subprocess.run(
            [valgrind, "--tool=callgrind", f"--callgrind-out-file={out}", f"--toggle-collect={pattern}",
             sys.executable, "-c", script],
            capture_output=True, text=True, timeout=600, check=True,
        )
        actions = int(done.stdout.split()[-1])
        found = re.search(r"Collected : (\d+)", done.stderr)
        with open(out, encoding="utf-8", errors="replace") as dump:
            named = {m.group(1) for m in re.finditer(r"^c?fn=\(\d+\) (.*)$", dump.read(), re.MULTILINE)}
    regex = pattern_regex(pattern)
    functions = sorted(name for name in named if regex.match(name))
    if found is None:
        return None
    if len(functions) != 1:
        raise SystemExit(f"--toggle-collect={pattern} must match one of callgrind's names: {functions}")
    instructions = int(found.group(1))
    return {"games": None, "actions": actions, "instructions": instructions,
            "instructions_per_action": instructions / actions, "pattern": pattern, "functions": functions}
