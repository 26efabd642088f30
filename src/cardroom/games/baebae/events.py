"""BAEBAE's events, one ``TypedDict`` a kind: what ``apply`` returns and the log holds, as JSON
(plain dicts at run time, so records and web messages are unchanged). ``t`` names the kind
(and ``op`` an action's effect); a reader narrows :data:`BaebaeEvent` by it and mypy checks
every key it reads.

Cards are their texts (a design's key); in a seat's view (``views.visible_event``) a card it
may not know is ``"?"``. The native engine writes the same dicts (``tests/native``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypeAlias, TypedDict, cast

from cardroom.engine import Event

__all__ = [
    "BaebaeEvent", "ChooseEffect", "CoinEvent", "DeclareEvent", "DiscardEvent", "DrawEvent", "EffectEvent",
    "EndEvent", "HandOverEvent", "MoveEvent", "OnStartEffect", "OptionalEffect", "PassEvent", "PeekEffect",
    "PenaltyEvent", "Place", "PlayAgainEffect", "PlayEvent", "ReshuffleEvent", "ReverseEvent",
    "RoundEndEvent", "RoundEvent", "SkipEffect", "SkipEvent", "TargetEffect", "baebae_event", "baebae_events",
]


class RoundEvent(TypedDict):
    """A round dealt (E2-E3): every seat's cards, the stock, the starter turned up, the suit to
    follow and the direction of play (1 or -1)."""

    t: Literal["round"]
    n: int
    dealer: int
    hands: list[list[str]]
    stock: list[str]
    starter: str
    suit: str
    direction: int


class PlayEvent(TypedDict):
    """Seat ``p`` plays ``card``; ``under``: through an action, under the action card (E11)."""

    t: Literal["play"]
    p: int
    card: str
    under: bool


class DrawEvent(TypedDict):
    """Seat ``p`` draws ``card``; ``forced``: an action made it draw."""

    t: Literal["draw"]
    p: int
    card: str
    forced: bool


class PassEvent(TypedDict):
    """Seat ``p`` passes its turn."""

    t: Literal["pass"]
    p: int


class SkipEvent(TypedDict):
    """Seat ``p``'s turn is skipped."""

    t: Literal["skip"]
    p: int


class ReshuffleEvent(TypedDict):
    """The discards under the top card become the ``stock``, in the order drawn from."""

    t: Literal["reshuffle"]
    stock: list[str]


class DeclareEvent(TypedDict):
    """Seat ``p`` declares the suit to follow."""

    t: Literal["declare"]
    p: int
    suit: str


HandOverEvent = TypedDict("HandOverEvent", {
    "t": Literal["move"], "from": int, "to": int, "cards": list[str], "why": Literal["give", "take", "swap"],
})
"""Cards go from seat ``from`` to seat ``to`` by an action: given, taken or swapped (a swap is
two of these, one hand each way)."""

DiscardEvent = TypedDict("DiscardEvent", {
    "t": Literal["move"], "from": int, "to": Literal["discard"], "cards": list[str],
    "why": Literal["discard"],
})
"""Seat ``from`` discards ``cards`` by an action."""

MoveEvent: TypeAlias = HandOverEvent | DiscardEvent
"""Cards moved by an action; ``why`` (or ``to``) tells which."""


class ReverseEvent(TypedDict):
    """The direction of play turns (now ``direction``)."""

    t: Literal["reverse"]
    direction: int


class PenaltyEvent(TypedDict):
    """Seat ``p`` takes ``points`` penalty points."""

    t: Literal["penalty"]
    p: int
    points: int


class CoinEvent(TypedDict):
    """Seat ``p`` tosses a coin."""

    t: Literal["coin"]
    p: int
    result: Literal["heads", "tails"]


class OnStartEffect(TypedDict):
    """The starter's action is carried out, with the dealer ``p`` as its player (E3)."""

    t: Literal["effect"]
    p: int
    op: Literal["on_start"]
    card: str


class OptionalEffect(TypedDict):
    """Seat ``p`` decides whether ``card``'s optional action is carried out (E8)."""

    t: Literal["effect"]
    p: int
    op: Literal["optional"]
    card: str
    carried_out: bool


class TargetEffect(TypedDict):
    """Seat ``p`` chooses ``who`` ``card``'s action targets."""

    t: Literal["effect"]
    p: int
    op: Literal["target"]
    card: str
    who: int


class ChooseEffect(TypedDict):
    """Seat ``p`` chooses option ``option`` (from 1) of an action, its ``label``."""

    t: Literal["effect"]
    p: int
    op: Literal["choose"]
    option: int
    label: str


class SkipEffect(TypedDict):
    """Seat ``p``'s action skips seat ``who``."""

    t: Literal["effect"]
    p: int
    op: Literal["skip"]
    who: int


class PlayAgainEffect(TypedDict):
    """Seat ``p`` plays again."""

    t: Literal["effect"]
    p: int
    op: Literal["play_again"]


class PeekEffect(TypedDict):
    """Seat ``p`` sees seat ``who``'s ``cards``."""

    t: Literal["effect"]
    p: int
    op: Literal["peek"]
    who: int
    cards: list[str]


EffectEvent: TypeAlias = (OnStartEffect | OptionalEffect | TargetEffect | ChooseEffect | SkipEffect
                          | PlayAgainEffect | PeekEffect)
"""An action's effect, or a decision about one; ``op`` tells which."""


class RoundEndEvent(TypedDict):
    """Round ``n`` over: who went out (``None`` if nobody), the hands left, each seat's
    penalties this round and totals after; ``blocked``: nobody could play; ``guard``: the
    action guard stopped it."""

    t: Literal["round_end"]
    n: int
    out: int | None
    hands: list[list[str]]
    penalties: list[int]
    totals: list[int]
    blocked: bool
    guard: bool


class Place(TypedDict):
    """A seat's place in the final ranking (equal totals share a place, E12)."""

    seat: int
    total: int
    place: int


class EndEvent(TypedDict):
    """The game over: the totals, the ranking, the seats with the most penalty points (none when
    all are equal) and how many rounds the action guard stopped."""

    t: Literal["end"]
    totals: list[int]
    ranking: list[Place]
    shame: list[int]
    guard_rounds: int


BaebaeEvent: TypeAlias = (RoundEvent | PlayEvent | DrawEvent | PassEvent | SkipEvent | ReshuffleEvent
                          | DeclareEvent | MoveEvent | ReverseEvent | PenaltyEvent | CoinEvent | EffectEvent
                          | RoundEndEvent | EndEvent)
"""Any of BAEBAE's events; ``event["t"]`` tells which."""


def baebae_event(event: Event) -> BaebaeEvent:
    """``event`` (a dict of BAEBAE's log, as the State protocol types it) read as BAEBAE's."""
    return cast(BaebaeEvent, event)


def baebae_events(log: Sequence[Event]) -> Sequence[BaebaeEvent]:
    """A log of BAEBAE's events (as the State protocol types it) read as BAEBAE's."""
    return cast(Sequence[BaebaeEvent], log)
