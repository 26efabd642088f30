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

from collections.abc import Callable
from typing import Any, Protocol

from cardroom.engine import Action, State

__all__ = ["Agent", "AgentError", "AGENTS", "make", "parse_spec"]


class Agent(Protocol):
    """Chooses an action for a seat."""

    name: str

    def act(self, state: State, seat: int) -> Action:
        """The action ``seat`` takes in ``state`` (it is ``seat``'s turn)."""


class AgentError(ValueError):
    """An unknown agent name or a bad agent option; the message says what is allowed."""


def _random(seed: int | None, **options: Any) -> Agent:
    from cardroom.agents.random_agent import RandomAgent

    return RandomAgent(seed=seed, **options)


def _human(seed: int | None, **options: Any) -> Agent:
    from cardroom.agents.human import HumanAgent

    return HumanAgent(**options)


def _heuristic(seed: int | None, **options: Any) -> Agent:
    from cardroom.agents.heuristic import HeuristicAgent

    return HeuristicAgent(seed=seed, **options)


def _ismcts(seed: int | None, **options: Any) -> Agent:
    from cardroom.agents.ismcts import ISMCTSAgent

    return ISMCTSAgent(seed=seed, **options)


AGENTS: dict[str, Callable[..., Agent]] = {
    "random": _random,
    "heuristic": _heuristic,
    "ismcts": _ismcts,
    "human": _human,
}


def make(name: str, seed: int | None = None, **options: Any) -> Agent:
    """The agent called ``name`` (see ``AGENTS``), seeded, with its options."""
    factory = AGENTS.get(name)
    if factory is None:
        raise AgentError(f"unknown agent {name!r}; the agents are {', '.join(AGENTS)}")
    try:
        return factory(seed, **options)
    except TypeError as err:
        raise AgentError(f"bad option for agent {name!r}: {err}") from None


def parse_spec(text: str) -> tuple[str, dict[str, Any]]:
    """Read ``"name"`` or ``"name:key=value:key=value"`` into a name and options.

    Options are separated by colons, so a line-up can separate seats with commas.

    >>> parse_spec("ismcts:iterations=500:seconds=0.5")
    ('ismcts', {'iterations': 500, 'seconds': 0.5})
    """
    name, *parts = text.strip().split(":")
    if not name:
        raise AgentError(f"no agent name in {text!r}; the agents are {', '.join(AGENTS)}")
    options: dict[str, Any] = {}
    for part in filter(None, parts):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise AgentError(f"agent option {part!r} in {text!r} must be key=value")
        options[key.strip()] = _option_value(value.strip())
    return name, options


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
