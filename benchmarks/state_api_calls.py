"""What each per-action call of Baha's State API costs, on the Python engine and the native one.

``timeit`` of ``start``, ``is_over`` and ``legal_actions()`` on a position, and of a whole
one-hand game (4 players, target 1) played by always taking the first legal action, for
``BahaState`` (the Python reference) and ``NativeBahaState``, one after the other in this
process. Run with ``python benchmarks/state_api_calls.py``.
"""

from __future__ import annotations

import timeit
from typing import Any

from harness import STREAM

from cardroom.games import baha
from cardroom.games.baha.native import NativeBahaState
from cardroom.games.baha.state import BahaState

RULES = baha.Rules(players=4, target=1, stream=STREAM)


def measure(engine: Any) -> dict[str, float]:
    state = engine.start(RULES, 5)

    def game() -> None:
        played = engine.start(RULES, 5)
        while not played.is_over:
            played.apply(played.legal_actions()[0])

    def each(call: Any, number: int) -> float:
        return timeit.timeit(call, number=number) / number * 1e9

    return {
        "start_ns": each(lambda: engine.start(RULES, 5), 20_000),
        "is_over_ns": each(lambda: state.is_over, 200_000),
        "legal_actions_ns": each(state.legal_actions, 200_000),
        "game_us": each(game, 2_000) / 1000,
    }


if __name__ == "__main__":
    for engine in (BahaState, NativeBahaState):
        figures = measure(engine)
        print(engine.__name__, "  ".join(f"{name} {value:.1f}" for name, value in figures.items()))
