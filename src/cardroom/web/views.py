"""What each connection of a web table may see: seat views, the public view, filtered events.

The games decide what a seat may know (``view(seat)``, ``visible_event(event, seat)``,
``public_view()``); this module only chooses among them. A spectator sees the game's
``public_view()``, which each game builds from the keys of a seat's view it lists as public
(``PUBLIC_KEYS`` in ``games/<game>/views.py``): a key a game adds later stays out of the
public view until it is listed there (``tests/web/test_views.py`` checks that every key of
``view`` is listed as public or private).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from cardroom.engine import Action, Event, State

__all__ = [
    "SPECTATOR",
    "game_of",
    "seat_view",
    "public_view",
    "visible_events",
    "omniscient_view",
    "move_fields",
    "replay_steps",
]

SPECTATOR = -1
"""The seat number a spectator's events are filtered for: no seat, so every hand is hidden."""

def game_of(state: State) -> str:
    """The game's name (its registry key)."""
    return str(state.rules.game)


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """``view(seat)`` for a seat, the public view for a spectator (``seat`` < 0)."""
    return state.view(seat) if seat >= 0 else public_view(state)


def public_view(state: State) -> dict[str, Any]:
    """What anyone watching the table may know: the game's public view (no seat's own)."""
    return state.public_view()


def omniscient_view(state: State) -> dict[str, Any]:
    """The public view with every seat's hand (``hands``): for replays of finished games."""
    view = public_view(state)
    view["hands"] = [state.view(seat)["hand"] for seat in range(len(state.scores))]
    return view


def visible_events(state: State, seat: int, start: int = 0) -> list[Event]:
    """Events ``start``... of the log as ``seat`` saw them (a spectator: ``seat`` < 0)."""
    watcher = seat if seat >= 0 else SPECTATOR
    return [state.visible_event(event, watcher) for event in state.log[start:]]


def move_fields(state: State, action: Action) -> dict[str, Any]:
    """``action`` as the web sends it: its number, its text form (for people to read) and the
    fields of ``state.decode(action)`` (``kind``, ``card``, ``suit``, ``seat``, ``option``),
    which the pages act on, so that no page reads the text.

    >>> from cardroom.games import baha
    >>> state = baha.Rules().new_game(seed=7)
    >>> move_fields(state, state.legal_actions()[0])
    {'action': 57, 'text': 'pass 6P', 'kind': 'pass', 'card': '6P', 'suit': None, 'seat': None,
     'option': None}
    """
    info = state.decode(action)
    fields = {f.name: getattr(info, f.name) for f in dataclasses.fields(info)}
    return {"action": action, "text": state.action_to_string(action), **fields}


def replay_steps(
    state: State, actions: Sequence[int], seat: int | None, deal: bool = True
) -> list[dict[str, Any]]:
    """A game step by step from ``seat``'s point of view (``None``: every seat's).

    ``actions`` are applied to ``state`` in order. Each step carries the action's text
    (``"?"`` where ``seat`` could not tell which it was), the action as :func:`move_fields`
    gives it (``None`` where ``seat`` could not tell, with ``hidden`` true), the seat that took
    it, the view after it and the events it caused, filtered for ``seat``. With ``deal``,
    ``state`` is the game's start and the deal comes first, as step 0; a window of a long game
    starts from the game rebuilt up to it (``record.rebuild``), so it costs only its own views.
    """
    def events(evs: Sequence[Event]) -> list[Event]:
        return list(evs) if seat is None else [state.visible_event(e, seat) for e in evs]

    def view() -> dict[str, Any]:
        return omniscient_view(state) if seat is None else state.view(seat)

    steps: list[dict[str, Any]] = []
    if deal:
        steps.append({"action": None, "move": None, "hidden": False, "seat": None, "view": view(),
                      "events": events(state.log)})
    for action in actions:
        actor = state.current_player
        shown = action if seat is None else state.public_action(action, seat)
        move = move_fields(state, action) if shown == action else None
        caused = state.apply(action)
        steps.append({"action": "?" if move is None else move["text"], "move": move, "hidden": move is None,
                      "seat": actor, "view": view(), "events": events(caused)})
    return steps
