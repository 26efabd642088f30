"""Players that are not people: made by name, the same names in the CLI, the web and records.

>>> from cardroom.agents import make
>>> from cardroom.games import baha
>>> state = baha.Rules().new_game(seed=2)
>>> agent = make("random", seed=3)
>>> agent.act(state, state.current_player) in state.legal_actions()
True

An agent may read only ``view(seat)``, ``legal_actions()``, ``determinize(seat, ...)`` and
``clone``/``apply`` on what ``determinize`` returned: never another seat's cards.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardroom.agents.base import Agent, AgentError
from cardroom.engine import check_whole
from cardroom.text import shorten

__all__ = ["Agent", "AgentError", "AgentKind", "AGENTS", "make", "parse_spec", "format_spec"]


def _random(seed: int | None, **options: Any) -> Agent:
    from cardroom.agents.random_agent import RandomAgent

    return RandomAgent(seed=seed, **options)


def _human(seed: int | None, **options: Any) -> Agent:
    from cardroom.agents.human import HumanAgent

    return HumanAgent(**options)


def _heuristic(seed: int | None, **options: Any) -> Agent:
    from cardroom.agents.heuristic import HeuristicAgent

    return HeuristicAgent(seed=seed, **options)


def _restricted(seed: int | None, **options: Any) -> Agent:
    from cardroom.agents.restricted import RestrictedAgent

    return RestrictedAgent(seed=seed, **options)


def _ismcts(seed: int | None, **options: Any) -> Agent:
    from cardroom.agents.ismcts import ISMCTSAgent

    return ISMCTSAgent(seed=seed, **options)


def _policy(seed: int | None, **options: Any) -> Agent:
    try:
        from cardroom.agents.policy import PolicyAgent
    except ImportError as err:  # a base install: numpy and the learning packages are extras
        raise AgentError(
            f"the policy bot needs Cardroom's train extra (pip install 'cardroom[train]'): {err}"
        ) from None

    return PolicyAgent(seed=seed, **options)


def _learned(seed: int | None, **options: Any) -> Agent:
    try:
        from cardroom.agents.learned import LearnedAgent
    except ImportError as err:  # numpy and safetensors are in the core install; a broken one
        raise AgentError(
            f"the learned bot needs numpy and safetensors (pip install cardroom): {err}"
        ) from None

    return LearnedAgent(seed=seed, **options)


SEED_OPTION = "seed"
"""The option every seeded agent takes in a spec (``random:seed=3``): it fixes that bot's own
random choices together with the seed the front gives it (see :func:`make`)."""
SEAT_SEED = "seat_seed"
"""The keyword :func:`make` takes that option under, beside the front's own ``seed``."""
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class AgentKind:
    """How to make one kind of agent, and the options it takes (name: what it allows)."""

    factory: Callable[..., Agent]
    options: Mapping[str, str] = field(default_factory=dict)
    seeded: bool = True
    """Whether it takes ``seed`` (every bot does; a person does not)."""

    def option_names(self) -> list[str]:
        return [*self.options, *([SEED_OPTION] if self.seeded else [])]

    def describe(self) -> str:
        """The options in words, for a message."""
        described = [f"{key} ({what})" for key, what in self.options.items()]
        if self.seeded:
            described.append(f"{SEED_OPTION} (a whole number from 0: the bot's own random choices)")
        return ", ".join(described) if described else "none"


AGENTS: dict[str, AgentKind] = {
    "random": AgentKind(_random),
    "heuristic": AgentKind(_heuristic),
    "ismcts": AgentKind(_ismcts, {
        "iterations": "a whole number from 1, per move; default 1000",
        "seconds": "a number above 0, per move; wins over iterations",
        "exploration": "a number from 0; default the game's own",
        "rollout": "heuristic or random",
        "epsilon": "a number from 0 to 1",
        "max_depth": "a whole number from 1",
        "engine": "auto (native where the game has it), native or python",
        "threads": "a whole number from 1: root-parallel trees of the native search; default 1",
        "policy": "learned: the game's shipped network as the prior of the bot's moves (PUCT: at "
                  "the root in the native search, at each of its own nodes in the Python search)",
        "value": "a number from 0 to 1: the network's share of a leaf's judgement, the rest the "
                 "roll-out's; 1: no roll-outs (with policy=learned)",
        "infer": "a whole number from 1 to 100000: worlds dealt and weighed by the other seats' "
                 "play, per search (native search only; off by default)",
        "infer_epsilon": "a number above 0, at most 1: the noise of infer's opponent model "
                         "(the heuristic; softened for baebae); default 0.25",
        "infer_pool": "search (one weighed pool of infer worlds a search, the default) or iteration "
                      "(a new pool every iteration)",
        "reward": "points (the default: the penalty points below the table's mean) or win (the "
                  "share of the game's win; baebae only)",
        "win_temperature": "a number above 0: the win reward's smoothing before the last round, in "
                           "penalty points a square root of the rounds left; default 8",
        "horizon": "round (the default) or game: how far a roll-out plays (game: baebae's native "
                   "search only)",
    }),
    "policy": AgentKind(_policy, {
        "path": "a policy saved by MaskablePPO (.zip), for this game and number of players",
        "sample": "true or false: draw each action from the policy's probabilities; default false",
    }),
    "restricted": AgentKind(_restricted, {
        "card": "a card's key (10C): the heuristic never plays it while another action is legal",
        "action": "a card's key (5D): the heuristic never carries out its optional action",
    }),
    "learned": AgentKind(_learned, {
        "weights": "the name of weights shipped with Cardroom; default the game's own",
        "path": "a weights file of your own (.safetensors, as cardroom train writes it); "
                "not on the web table",
        "sample": "true or false: draw each action from the network's policy; default false",
    }),
    "human": AgentKind(_human, {"ask": "the front's function (state, seat) -> action"}, seeded=False),
}


def make(name: str, seed: int | None = None, **options: Any) -> Agent:
    """The agent called ``name`` (see ``AGENTS``), seeded, with its options.

    ``seed`` is what the front gives the seat (a simulation: one per game and seat). A
    ``seat_seed`` option (``seed=N`` in a spec) is mixed with it, so a bot's choices change
    with its own seed and stay repeatable: the same two seeds give the same choices. An
    unknown option or a bad value is an :class:`AgentError` naming the options the agent takes.

    >>> make("random", seed=1, seat_seed=3).act is not None
    True
    >>> make("random", depth=2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardroom.agents.base.AgentError: random has no option 'depth'; its options: seed ...
    """
    kind = AGENTS.get(name)
    if kind is None:
        raise AgentError(f"unknown agent {shorten(name, 40)!r}; the agents are {', '.join(AGENTS)}")
    seat_seed = options.pop(SEAT_SEED, None)
    for key in options:
        if key not in kind.options:
            raise AgentError(f"{name} has no option {shorten(key, 40)!r}; its options: {kind.describe()}")
    if seat_seed is not None:
        if not kind.seeded:
            raise AgentError(f"{name} has no option {SEED_OPTION!r}; its options: {kind.describe()}")
        seed = _mixed_seed(seed, check_whole(seat_seed, f"{name}: seed", 0, MAX_SEED, error=AgentError,
                                             shown=lambda value: shorten(repr(value), 40)))
    try:
        return kind.factory(seed, **options)
    except AgentError as err:
        raise AgentError(f"{err} ({name} takes: {', '.join(kind.option_names()) or 'no options'})") from None


def _mixed_seed(seed: int | None, seat_seed: int) -> int:
    """One seed from the front's and the seat's: a hash, so that neighbouring seeds (game
    ``i`` and ``i + 1`` of a simulation) do not give related choices."""
    if seed is None:
        return seat_seed
    digest = hashlib.sha256(f"{seed}:{seat_seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def parse_spec(text: str) -> tuple[str, dict[str, Any]]:
    """Read ``"name"`` or ``"name:key=value:key=value"`` into a name and options for :func:`make`.

    Options are separated by colons, so a line-up can separate seats with commas. The seat's
    own ``seed`` comes back as ``seat_seed``, since :func:`make` takes the front's as ``seed``.

    >>> parse_spec("ismcts:iterations=500:seconds=0.5")
    ('ismcts', {'iterations': 500, 'seconds': 0.5})
    >>> parse_spec("random:seed=3")
    ('random', {'seat_seed': 3})
    """
    name, *parts = text.strip().split(":")
    if not name:
        raise AgentError(f"no agent name in {text!r}; the agents are {', '.join(AGENTS)}")
    options: dict[str, Any] = {}
    for part in filter(None, parts):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise AgentError(f"agent option {part!r} in {text!r} must be key=value")
        key = key.strip()
        options[SEAT_SEED if key == SEED_OPTION else key] = _option_value(value.strip())
    return name, options


def format_spec(name: str, options: dict[str, Any]) -> str:
    """The spec text :func:`parse_spec` reads back as ``name`` and ``options``, in its
    shortest form (the seat's ``seat_seed`` written as ``seed`` again).

    >>> format_spec(*parse_spec("random:seed=3"))
    'random:seed=3'
    """
    return ":".join([name, *(f"{SEED_OPTION if k == SEAT_SEED else k}={v}" for k, v in options.items())])


def _option_value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    return text
