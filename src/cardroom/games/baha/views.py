"""What a seat of Baha may know (RULINGS B11): its view, its observation for bots, the events
as it saw them, and what anyone watching may know."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardroom.cards import Card, CardMask
from cardroom.engine import Event, IllegalAction
from cardroom.games.baha.actions import CARD_COLOUR, CARD_TEXT, PASS_WORDS, Phase, card_texts
from cardroom.games.baha.cards import COLOUR_LETTERS
from cardroom.games.baha.events import BahaEvent
from cardroom.games.baha.rules import PASS_COUNT, Rules

if TYPE_CHECKING:
    from cardroom.games.baha.state import BahaState

__all__ = [
    "HIDDEN", "PUBLIC_KEYS", "PRIVATE_KEYS", "Observation", "visible_event", "view", "public_view",
    "view_log", "observation", "horns_shown",
]

HIDDEN = "?"
"""How a card the viewer may not see is written in a filtered event."""


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat may know, as ints: the fast form of :meth:`BahaState.view` for bots.

    Cards are ints, sets of cards bitmasks; ``trick`` pairs each seat with its card in
    playing order; ``horns_shown`` counts what each seat took face up this hand.
    """

    seat: int
    rules: Rules
    phase: Phase
    hand: CardMask
    trick: tuple[tuple[int, Card], ...]
    played: CardMask
    horns_shown: tuple[int, ...]
    voids: tuple[int, ...]
    totals: tuple[int, ...]

PUBLIC_KEYS = frozenset({
    "game", "players", "rules", "phase", "hand_number", "dealer", "pass_direction",
    "current_player", "hand_sizes", "picks_made", "trick", "leader", "led", "last_trick",
    "pass_count", "tricks_done", "played", "taken_shown", "horns_shown", "face_down_counts",
    "leftover_count", "draw_pile_count", "voids", "totals", "winner",
})
"""Keys of ``view(seat)`` that are the same for every seat: the public view keeps them. A key
added to the view later stays out of the public view until it is listed here or below (a
test checks that every key is one or the other)."""

PRIVATE_KEYS: dict[str, Any] = {
    "seat": None, "hand": [], "my_picks": [], "passed": None, "received": None,
    "my_face_down": [], "legal_actions": [],
}
"""Keys of ``view(seat)`` that belong to the seat, and their value in the public view."""


def _empty(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


_HIDING = frozenset({"hand", "pass_pick", "pass", "trick", "draw", "take"})
"""The kinds of event of which a seat may see less than the whole (the branches below)."""


def visible_event(event: Event, seat: int) -> Event:
    """``event`` as ``seat`` saw it (RULINGS B11): others' secrets written as ``"?"``."""
    seen: BahaEvent = event  # type: ignore[assignment]  # (no cast: a call at every event)
    if seen["t"] not in _HIDING:  # most events (plays, scores): nothing in them is hidden
        return event
    if seen["t"] == "hand":
        return {
            **event,
            "hands": [h if s == seat else [HIDDEN] * len(h) for s, h in enumerate(seen["hands"])],
            "leftover": [HIDDEN] * len(seen["leftover"]),
            "draw_pile": [HIDDEN] * len(seen["draw_pile"]),
        }
    if seen["t"] == "pass_pick" and seen["p"] != seat:
        return {**event, "card": HIDDEN}
    if seen["t"] == "pass" and seat not in (seen["from"], seen["to"]):
        return {**event, "cards": [HIDDEN] * len(seen["cards"])}
    if seen["t"] == "trick" and seen["winner"] != seat and seen["leftover"]:
        return {**event, "leftover": [HIDDEN] * len(seen["leftover"])}
    if seen["t"] == "draw" and seen["p"] != seat:
        return {**event, "card": HIDDEN}
    if seen["t"] == "take" and seen["p"] != seat:
        return {**event, "cards": [HIDDEN] * len(seen["cards"])}
    return event


def view_log(state: BahaState, seat: int) -> list[Event]:
    return [visible_event(e, seat) for e in state.log]


def view(state: BahaState, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may know now (RULINGS B11), JSON-ready."""
    if not 0 <= seat < state.n:
        raise IllegalAction(f"seat must be 0 to {state.n - 1}, not {seat!r}")
    n = state.n
    turn = state.turn
    trick_seats = [(state.leader + i) % n for i in range(len(state.trick))]
    public_taken = [t & ~f for t, f in zip(state.taken, state.face_down, strict=True)]
    offset = state.pass_offset
    passed = received = None
    if state.passed[seat]:
        passed = {"to": (seat + offset) % n, "cards": card_texts(state.passed[seat])}
        received = {"from": (seat - offset) % n, "cards": card_texts(state.received[seat])}
    return {
        "game": "baha",
        "seat": seat,
        "players": n,
        "rules": state.rules.to_dict(),
        "phase": state.phase.value,
        "hand_number": state.hand_no,
        "dealer": state.dealer,
        "pass_direction": PASS_WORDS[offset],
        "current_player": turn,
        "hand": card_texts(state.hands[seat]),
        "hand_sizes": [h.bit_count() for h in state.hands],
        "my_picks": card_texts(state.picks[seat]),
        "picks_made": [p.bit_count() for p in state.picks],
        "passed": passed,
        "received": received,
        "trick": [{"p": s, "card": CARD_TEXT[c]} for s, c in zip(trick_seats, state.trick, strict=True)],
        "leader": state.leader,
        "led": COLOUR_LETTERS[CARD_COLOUR[state.trick[0]]] if state.trick else None,
        "last_trick": _copy_trick(state.last_trick),
        "pass_count": PASS_COUNT,
        "tricks_done": state.tricks_done,
        "played": card_texts(state.played),
        "taken_shown": [card_texts(t) for t in public_taken],
        "horns_shown": [state.rules.hand_points(t) for t in public_taken],
        "face_down_counts": [f.bit_count() for f in state.face_down],
        "my_face_down": card_texts(state.face_down[seat]),
        "leftover_count": state.leftover.bit_count(),
        "draw_pile_count": len(state.draw_pile),
        "voids": ["".join(COLOUR_LETTERS[c] for c in range(4) if v >> c & 1) for v in state.voids],
        "totals": state.totals[:],
        "winner": state.winner,
        "legal_actions": state.legal_actions() if turn == seat else [],
    }


def public_view(state: BahaState) -> dict[str, Any]:
    """What anyone watching may know: the keys of a seat's view that are the same for every
    seat (:data:`PUBLIC_KEYS`), the seat's own keys emptied (:data:`PRIVATE_KEYS`)."""
    view = {key: value for key, value in state.view(0).items() if key in PUBLIC_KEYS}
    view.update({key: _empty(value) for key, value in PRIVATE_KEYS.items()})
    return view


def horns_shown(state: BahaState) -> tuple[int, ...]:
    """The points each seat took face up this hand (what everyone has seen it take)."""
    # Cards are taken only as a trick ends: the horns shown hold until the next one.
    shown = state.shown_cache
    if shown is None or shown[0] != state.hand_no or shown[1] != state.tricks_done:
        hand_points = state.rules.hand_points
        shown = state.shown_cache = (state.hand_no, state.tricks_done, tuple(
            hand_points(t & ~f) for t, f in zip(state.taken, state.face_down, strict=True)
        ))
    return shown[2]


def observation(state: BahaState, seat: int) -> Observation:
    """What ``seat`` may know now, as ints (the same knowledge as :meth:`view`)."""
    n = state.n
    return Observation(
        seat=seat,
        rules=state.rules,
        phase=state.phase,
        hand=state.hands[seat],
        trick=tuple(((state.leader + i) % n, c) for i, c in enumerate(state.trick)),
        played=state.played,
        horns_shown=horns_shown(state),
        voids=tuple(state.voids),
        totals=tuple(state.totals),
    )


def _copy_trick(trick: dict[str, Any] | None) -> dict[str, Any] | None:
    """A view's own copy, so a front that edits its view cannot change the game."""
    return None if trick is None else {**trick, "cards": list(trick["cards"])}
