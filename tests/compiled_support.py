"""Games played for the equivalence of the compiled and the plain engine (test_compiled.py).

Run as a script (``python tests/compiled_support.py``) it prints, as JSON, which engine ran and
one hash per kind of play; the test runs it once with ``CARDROOM_PURE=1`` and compares with the
same hashes computed in its own (compiled) process.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import cardroom
from cardroom.agents import make
from cardroom.games import get
from cardroom.match import Match
from cardroom.record import make_record

# (game, rules options, agent, agent options, games): a few seconds of play in all.
PLAYS: list[tuple[str, dict[str, Any], str, dict[str, Any], int]] = [
    ("baha", {"target": 1}, "random", {}, 200),
    ("baha", {"target": 1}, "heuristic", {}, 120),
    ("baha", {"players": 5, "target": 1}, "random", {}, 100),
    ("baha", {"target": 1}, "ismcts", {"iterations": 8}, 3),
    ("baebae", {"rounds": 1}, "random", {}, 200),
    ("baebae", {"rounds": 1}, "heuristic", {}, 120),
    ("baebae", {"rounds": 1}, "ismcts", {"iterations": 8}, 2),
]


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def play(game: str, options: dict[str, Any], agent: str, agent_options: dict[str, Any], games: int) -> str:
    """One hash over every game's log, record and each bot decision (with its seat's view of
    the state, the clone and determinization the bots use)."""
    spec = get(game)
    rules = spec.make_rules(options)
    total = hashlib.sha256()
    for seed in range(games):
        state = rules.new_game(seed)
        agents = [make(agent, seed=seed * 10 + s, **agent_options) for s in range(rules.players)]
        decisions: list[Any] = []

        def seen(seat: int, action: int, events: list[Any], state: Any = state, out: list[Any] = decisions) -> None:
            out.append((seat, action, state.action_to_string(action), len(events)))
            if len(out) % 7 == 0 and not state.is_over:
                # a search's world: the hidden cards dealt again, seen by another seat
                world = state.determinize(seat, random.Random(len(out)))
                out.append(world.view((seat + 1) % rules.players))

        Match(state, agents, on_events=seen).run()
        total.update(_digest([
            state.log, make_record(state), decisions, state.returns(), state.view(0), state.view_log(1),
        ]).encode())
    return total.hexdigest()


def fingerprint() -> dict[str, Any]:
    """Which engine ran, and a hash per play of :data:`PLAYS`."""
    return {
        "engine": cardroom.engine_build(),
        "hashes": {f"{g} {o} {a} {ao} x{n}": play(g, o, a, ao, n) for g, o, a, ao, n in PLAYS},
    }


if __name__ == "__main__":
    json.dump(fingerprint(), sys.stdout)
