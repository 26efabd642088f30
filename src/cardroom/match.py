"""One loop that drives a game between agents: bots, people and stand-ins alike.

Every front plays a game the same way: the seat to act is asked for an action through its
agent's ``act(state, seat)``, the action is checked and applied, and the events it caused are
handed to whoever follows the game. The terminal (a person is an agent that asks at the
keyboard), simulation (bots only) and the web table's bot driver (one turn at a time, through
:func:`choose`) all go through here.

>>> from cardroom.agents import make
>>> from cardroom.games import baha
>>> state = baha.Rules(target=1).new_game(seed=3)
>>> match = Match(state, [make("random", seed=s) for s in range(4)])
>>> match.run()
True
>>> state.is_over, match.actions > 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cardroom.agents import Agent, AgentError
from cardroom.engine import Action, Event, IllegalAction, State

__all__ = ["Match", "Stop", "choose"]


class Stop(Exception):  # noqa: N818 - it is an outcome, not an error
    """Raised by an agent that ends the match before the game does (a person who quits)."""


def choose(agent: Agent, state: State, seat: int) -> Action:
    """The action ``agent`` takes for ``seat``, checked: an illegal choice is an
    :class:`AgentError` that names the agent, the seat and the engine's reason."""
    action = agent.act(state, seat)
    reason = state.illegal_reason(action)
    if reason is not None:
        raise AgentError(f"the {agent.name} bot at seat {seat} chose an illegal move: {reason}")
    return action


class Match:
    """A game and an agent per seat, played turn by turn.

    ``on_events`` is called with the events each action caused (after it is applied);
    ``max_actions`` stops a game that runs too long (``stopped`` then says so).
    """

    def __init__(
        self,
        state: State,
        agents: Sequence[Agent],
        *,
        on_events: Callable[[int, Action, list[Event]], None] | None = None,
        max_actions: int | None = None,
    ) -> None:
        if len(agents) != len(state.scores):
            raise AgentError(f"the game has {len(state.scores)} seats, not {len(agents)}")
        self.state = state
        self.agents = list(agents)
        self.on_events = on_events
        self.max_actions = max_actions
        self.actions = 0
        self.stopped = False

    def step(self) -> list[Event]:
        """The seat to act takes one action; returns the events it caused."""
        state = self.state
        seat = state.current_player
        if seat is None:
            return []
        agent = self.agents[seat]
        action = agent.act(state, seat)
        try:  # apply checks the action itself and changes nothing when it refuses
            events = state.apply(action)
        except IllegalAction as err:
            raise AgentError(f"the {agent.name} bot at seat {seat} chose an illegal move: {err}") from None
        self.actions += 1
        if self.on_events is not None:
            self.on_events(seat, action, events)
        return events

    def run(self) -> bool:
        """Play until the game is over (``True``), a seat stops it or the action limit is
        reached (``False``)."""
        state = self.state
        try:
            while not state.is_over:
                if self.max_actions is not None and self.actions >= self.max_actions:
                    self.stopped = True
                    return False
                self.step()
        except Stop:
            return False
        return True
