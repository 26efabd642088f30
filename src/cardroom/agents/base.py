"""What an agent is, and the error a bad agent name or option raises: the base every bot's
module imports (the registry in :mod:`cardroom.agents` imports the bots, never the reverse)."""

from __future__ import annotations

import random
from typing import Protocol

from cardroom.engine import TWISTER, Action, CardroomInputError, State, seeded_rng, stream_of

__all__ = ["Agent", "AgentError"]


class Agent(Protocol):
    """Chooses an action for a seat."""

    name: str

    def act(self, state: State, seat: int) -> Action:
        """The action ``seat`` takes in ``state`` (it is ``seat``'s turn)."""


class AgentError(CardroomInputError):
    """An unknown agent name or a bad agent option; the message says what is allowed."""


class StreamSeeded:
    """A bot's own seeded generator, on the chance stream of the game it plays: the Twister
    (``random.Random(seed)``) for a game whose rules name ``stream = "twister"``, the split
    stream (:func:`cardroom.engine.seeded_rng`) for the others, so that a native batch can
    draw a bot's choices as cheaply as the game's chance. ``rng`` is the generator of the last
    game's stream; :meth:`follow` switches it (afresh from the seed) when a game of the other
    stream comes."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.stream = TWISTER
        self.rng: random.Random = random.Random(seed)

    def follow(self, state: State) -> random.Random:
        """The generator for ``state``'s stream (the same one, game after game of one stream)."""
        stream = stream_of(state)
        if stream != self.stream:
            self.stream = stream
            self.rng = seeded_rng(self.seed, stream)
        return self.rng
