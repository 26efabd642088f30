"""Baha's events, one ``TypedDict`` a kind: what ``apply`` returns and the log holds, as JSON
(plain dicts at run time, so records and web messages are unchanged). ``t`` names the kind;
a reader narrows :data:`BahaEvent` by it and mypy checks every key it reads.

Cards are their texts (``"12R"``); in a seat's view (``views.visible_event``) a card it may
not know is ``"?"``. The native engine writes the same dicts (``tests/native``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypeAlias, TypedDict, cast

from cardroom.engine import Event

__all__ = [
    "BahaEvent", "DrawEvent", "EndEvent", "HandEvent", "PassEvent", "PassPickEvent", "PlayEvent",
    "ScoreEvent", "TakeEvent", "TrickEvent", "baha_event", "baha_events",
]


HandEvent = TypedDict("HandEvent", {
    "t": Literal["hand"], "n": int, "dealer": int, "hands": list[list[str]], "leftover": list[str],
    "draw_pile": list[str], "pass": str,
})
"""A hand dealt (B2-B5): every seat's cards, the face-down leftover, the draw pile and where
the passed cards go (``pass``: ``right``, ``left`` or ``none``)."""


class PassPickEvent(TypedDict):
    """Seat ``p`` picks one card to pass."""

    t: Literal["pass_pick"]
    p: int
    card: str


PassEvent = TypedDict("PassEvent", {"t": Literal["pass"], "from": int, "to": int, "cards": list[str]})
"""The cards seat ``from`` picked go to seat ``to``, every seat's at once (B5)."""


class PlayEvent(TypedDict):
    """Seat ``p`` plays ``card`` to the trick."""

    t: Literal["play"]
    p: int
    card: str


class TrickEvent(TypedDict):
    """Trick ``n`` taken by ``winner``: its ``cards`` in the order played, the horns in them,
    and the face-down leftover taken with the first trick (else empty)."""

    t: Literal["trick"]
    n: int
    winner: int
    cards: list[str]
    horns: int
    leftover: list[str]


class DrawEvent(TypedDict):
    """Seat ``p`` draws ``card`` from the draw pile after a trick (B10)."""

    t: Literal["draw"]
    p: int
    card: str


class TakeEvent(TypedDict):
    """Seat ``p``, the trick's taker, takes what is left of the draw pile face down (B10)."""

    t: Literal["take"]
    p: int
    cards: list[str]


class ScoreEvent(TypedDict):
    """Hand ``hand`` scored: horns taken per seat, who shot the moon (or ``None``), the points
    scored, the totals after, and every seat's face-down cards shown."""

    t: Literal["score"]
    hand: int
    horns: list[int]
    moon: int | None
    points: list[int]
    totals: list[int]
    revealed: list[list[str]]


class EndEvent(TypedDict):
    """The game is over: the totals and the one seat with the fewest (B9)."""

    t: Literal["end"]
    totals: list[int]
    winner: int


BahaEvent: TypeAlias = (HandEvent | PassPickEvent | PassEvent | PlayEvent | TrickEvent | DrawEvent
                        | TakeEvent | ScoreEvent | EndEvent)
"""Any of Baha's events; ``event["t"]`` tells which."""


def baha_event(event: Event) -> BahaEvent:
    """``event`` (a dict of Baha's log, as the State protocol types it) read as Baha's."""
    return cast(BahaEvent, event)


def baha_events(log: Sequence[Event]) -> Sequence[BahaEvent]:
    """A log of Baha's events (as the State protocol types it) read as Baha's."""
    return cast(Sequence[BahaEvent], log)
