"""What a seat of BAEBAE may know (RULINGS E14): its view, the events as it saw them, and
what anyone watching may know."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardroom.engine import Event, IllegalAction
from cardroom.games.baebae.actions import decision_text
from cardroom.games.baebae.effects import SUITS
from cardroom.games.baebae.events import BaebaeEvent

if TYPE_CHECKING:
    from cardroom.games.baebae.state import BaebaeState

__all__ = ["HIDDEN", "PUBLIC_KEYS", "PRIVATE_KEYS", "visible_event", "view", "public_view", "view_log"]

HIDDEN = "?"

PUBLIC_KEYS = frozenset({
    "game", "players", "rules", "deck", "phase", "round", "dealer", "direction",
    "current_player", "hand_sizes", "top", "discard", "suit", "declared", "stock_count",
    "skips", "round_penalties", "totals", "ranking", "shame",
})
"""Keys of ``view(seat)`` that are the same for every seat: the public view keeps them. A key
added to the view later stays out of the public view until it is listed here or below (a
test checks that every key is one or the other)."""

PRIVATE_KEYS: dict[str, Any] = {"seat": None, "hand": [], "drawn": None, "pending": None, "legal_actions": []}
"""Keys of ``view(seat)`` that belong to the seat, and their value in the public view."""


_HIDING = frozenset({"round", "draw", "reshuffle", "move", "effect"})
"""The kinds of event of which a seat may see less than the whole (the branches below)."""


def visible_event(event: Event, seat: int) -> Event:
    """``event`` as ``seat`` saw it (RULINGS E14): others' hands, draws and the stock hidden."""
    seen: BaebaeEvent = event  # type: ignore[assignment]  # (no cast: a call at every event)
    if seen["t"] not in _HIDING:  # most events: nothing in them is hidden
        return event
    if seen["t"] == "round":
        return {**event,
                "hands": [h if s == seat else [HIDDEN] * len(h) for s, h in enumerate(seen["hands"])],
                "stock": [HIDDEN] * len(seen["stock"])}
    if seen["t"] == "draw" and seen["p"] != seat:
        return {**event, "card": HIDDEN}
    if seen["t"] == "reshuffle":
        return {**event, "stock": [HIDDEN] * len(seen["stock"])}
    if seen["t"] == "move" and seen["to"] != "discard" and seat not in (seen["from"], seen["to"]):
        return {**event, "cards": [HIDDEN] * len(seen["cards"])}
    if seen["t"] == "effect" and seen["op"] == "peek" and seen["p"] != seat:
        return {**event, "cards": [HIDDEN] * len(seen["cards"])}
    return event


def view_log(state: BaebaeState, seat: int) -> list[Event]:
    return [visible_event(e, seat) for e in state.log]


def public_view(state: BaebaeState) -> dict[str, Any]:
    """What anyone watching may know: the keys of a seat's view that are the same for every
    seat (:data:`PUBLIC_KEYS`), the seat's own keys emptied (:data:`PRIVATE_KEYS`), and of
    a pending decision only who must decide on which card (E14)."""
    base = view(state, 0)
    public = {key: value for key, value in base.items() if key in PUBLIC_KEYS}
    public.update({key: list(v) if isinstance(v, list) else v for key, v in PRIVATE_KEYS.items()})
    pending = base["pending"]
    if pending is not None:
        public["pending"] = {"kind": pending["kind"], "seat": pending["seat"], "card": pending["card"]}
    return public


def view(state: BaebaeState, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may know now (RULINGS E14), JSON-ready."""
    if not 0 <= seat < state.n:
        raise IllegalAction(f"seat must be 0 to {state.n - 1}, not {seat!r}")
    rules = state.rules
    texts = rules.card_texts
    top = state.card_def(state.discard[-1])
    pending: dict[str, Any] | None = None
    d = state.pending
    if d is not None and d.seat == seat:
        pending = {
            "kind": d.kind, "seat": seat, "card": state.card_text(d.card),
            "text": decision_text(state, d), "purpose": d.purpose,
        }
        if d.kind == "option":
            step = state.frames[-1].steps[state.frames[-1].index]
            pending["options"] = [o.label for o in step.options]
    elif d is not None:
        pending = {"kind": d.kind, "seat": d.seat, "card": state.card_text(d.card)}
    return {
        "game": "baebae",
        "seat": seat,
        "players": state.n,
        # A deck file's text travels in records, not in every view (a seat may fetch the deck).
        "rules": {k: v for k, v in rules.to_dict().items() if k != "deck_files"},
        "deck": rules.deck_record(),
        "phase": state.phase.value,
        "round": state.round_no,
        "dealer": state.dealer,
        "direction": state.direction,
        "current_player": state.turn,
        "hand": state.card_texts(state.hands[seat]),
        "hand_sizes": [h.bit_count() for h in state.hands],
        "top": top.key,
        "discard": [texts[p] for p in state.discard],
        "suit": SUITS[state.suit],
        "declared": state.declared,
        "stock_count": len(state.stock),
        "drawn": state.card_text(state.drawn) if state.drawn is not None and state.turn == seat else None,
        "pending": pending,
        "skips": state.skips[:],
        "round_penalties": state.round_penalties[:],
        "totals": state.totals[:],
        "ranking": None if state.ranking is None else [dict(r) for r in state.ranking],
        "shame": state.shame[:],
        "legal_actions": state.legal_actions() if state.turn == seat else [],
    }
