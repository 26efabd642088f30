"""The options of :class:`~cardroom.agents.ismcts.ISMCTSAgent` checked: each refused in words
(what was wrong and what is allowed), and the pairs that do not go together (``value`` with the
native search, ``infer`` without it, ``win_temperature`` without ``reward=win``...)."""

from __future__ import annotations

import math
from typing import NamedTuple

from cardroom.agents.base import AgentError
from cardroom.engine import check_whole

__all__ = ["ENGINES", "CheckedOptions", "check_options"]

ENGINES = ("auto", "native", "python")
"""Where the search runs: native when the state offers it (``auto``), native or refused, here."""
MAX_THREADS = 256
MAX_INFER = 100_000
"""The most worlds an ``infer`` pool may hold (per tree)."""
REWARDS = ("points", "win")
"""What the search backs up: the state's ``returns()`` (the default) or its share of the game's win."""
DEFAULT_WIN_TEMPERATURE = 8.0
"""The ``win`` reward's smoothing before the last round: penalty points a square root of the rounds
left (:mod:`cardroom.games.baebae.reward`)."""
HORIZONS = ("round", "game")
"""How far the roll-outs play: to the end of the deal (a BAEBAE round; the default) or of the game."""
INFER_POOLS = ("search", "iteration")
"""When ``infer``'s worlds are dealt and weighed: once a search (per tree), or afresh each iteration."""


class CheckedOptions(NamedTuple):
    """The options the agent takes as numbers of a type, checked (the others it keeps as given)."""

    iterations: int
    max_depth: int
    threads: int
    infer: int | None
    epsilon: float


def check_options(
    *,
    iterations: object,
    seconds: object,
    exploration: object,
    rollout: object,
    epsilon: object,
    max_depth: object,
    engine: object,
    threads: object,
    policy: object,
    value: object,
    infer: object,
    infer_epsilon: object,
    infer_pool: object,
    reward: object,
    win_temperature: object,
    horizon: object,
) -> CheckedOptions:
    """Refuse a wrong option in words, True for 1 included (a bool is an int); the whole numbers
    and epsilon as checked."""
    iterations = check_whole(iterations, "ismcts: iterations", 1, error=AgentError)
    if seconds is not None and (
        not isinstance(seconds, int | float) or not math.isfinite(seconds) or seconds <= 0
    ):
        raise AgentError(f"ismcts: seconds must be a finite number more than 0, not {seconds!r}")
    if exploration is not None and (
        not isinstance(exploration, int | float) or not math.isfinite(exploration) or exploration < 0
    ):
        raise AgentError(f"ismcts: exploration must be a finite number of 0 or more, not {exploration!r}")
    max_depth = check_whole(max_depth, "ismcts: max_depth", 1, error=AgentError)
    if rollout not in ("random", "heuristic"):
        raise AgentError(f"ismcts: rollout must be random or heuristic, not {rollout!r}")
    if not isinstance(epsilon, int | float) or not 0 <= epsilon <= 1:
        raise AgentError(f"ismcts: epsilon must be from 0 to 1, not {epsilon!r}")
    if engine not in ENGINES:
        raise AgentError(f"ismcts: engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    threads = check_whole(threads, "ismcts: threads", 1, MAX_THREADS, error=AgentError)
    if policy not in (None, "learned"):
        raise AgentError(f"ismcts: policy must be learned (the game's shipped network), "
                         f"not {policy!r}")
    if value is not None and (not isinstance(value, int | float) or not 0 <= value <= 1):
        raise AgentError(f"ismcts: value must be a number from 0 to 1, not {value!r}")
    if value is not None and policy is None:
        raise AgentError("ismcts: value weighs the network's judgement of a position: "
                         "give policy=learned")
    if value is not None and engine == "native":
        raise AgentError("ismcts: value (the network judging leaves) runs in the Python search; "
                         "use engine=auto or engine=python")
    if value is not None and threads != 1:
        raise AgentError("ismcts: value (the network judging leaves) runs in the Python search, on one "
                         "thread; use threads=1")
    worlds = None if infer is None else check_whole(
        infer, "ismcts: infer (the worlds weighed per search)", 1, MAX_INFER, error=AgentError)
    if infer_epsilon is not None and (
        isinstance(infer_epsilon, bool) or not isinstance(infer_epsilon, int | float)
        or not 0 < infer_epsilon <= 1
    ):
        raise AgentError(f"ismcts: infer_epsilon must be a number more than 0 and at most 1, "
                         f"not {infer_epsilon!r}")
    if infer_epsilon is not None and infer is None:
        raise AgentError("ismcts: infer_epsilon is the noise of infer's opponent model: give infer=N too")
    if infer_pool is not None and infer_pool not in INFER_POOLS:
        raise AgentError(f"ismcts: infer_pool must be one of {', '.join(INFER_POOLS)}, "
                         f"not {infer_pool!r}")
    if infer_pool is not None and infer is None:
        raise AgentError("ismcts: infer_pool says when infer's worlds are dealt: give infer=N too")
    if reward is not None and reward not in REWARDS:
        raise AgentError(f"ismcts: reward must be one of {', '.join(REWARDS)} (what the search backs up: "
                         f"the penalty points, or the share of the game's win), not {reward!r}")
    if win_temperature is not None and (
        isinstance(win_temperature, bool) or not isinstance(win_temperature, int | float)
        or not math.isfinite(win_temperature) or win_temperature <= 0
    ):
        raise AgentError(f"ismcts: win_temperature must be a finite number more than 0 (penalty points), "
                         f"not {win_temperature!r}")
    if win_temperature is not None and reward != "win":
        raise AgentError("ismcts: win_temperature smooths the win reward's chances: give reward=win too")
    if horizon is not None and horizon not in HORIZONS:
        raise AgentError(f"ismcts: horizon must be one of {', '.join(HORIZONS)} (how far a roll-out "
                         f"plays), not {horizon!r}")
    if horizon == "game" and (engine == "python" or value is not None):
        raise AgentError("ismcts: horizon=game runs in the native BAEBAE search only; "
                         "use engine=auto or engine=native, without value")
    if reward == "win" and value is not None:
        raise AgentError("ismcts: value (the network judging leaves) estimates points, not the win: "
                         "leave value out with reward=win")
    if infer is not None and (engine == "python" or value is not None):
        raise AgentError("ismcts: infer (worlds weighed by the other seats' play) runs in the native "
                         "search only; use engine=auto or engine=native, without value")
    return CheckedOptions(iterations, max_depth, threads, worlds, float(epsilon))
