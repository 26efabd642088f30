"""A table page driven by moments of real games, fast: the games are played here by the rules
engine (random bots at every seat), and the page's WebSocket is answered with the messages the
server would send seat 0 (the same views, events and moves: ``cardroom.web.views``), so that a
test shows a page the turn in a full trick, the discard pile and suit, or a hand's result in a
few milliseconds each instead of playing a whole hand by clicking."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import BrowserContext, Page, WebSocketRoute

from cardroom import games
from cardroom.agents import make
from cardroom.engine import State
from cardroom.seats import seat_name
from cardroom.web import views
from cardroom.web.play import design_rows

RESULT_EVENT = {"baha": "score", "baebae": "round_end"}
"""The event that ends a deal (a hand, a round) in each game: the page shows its result."""


MOMENTS = {"baha": ("pass", "turn", "result"), "baebae": ("turn", "ask", "result")}
"""The moments staged of each game, in the order they come: Baha's pass (three cards to choose
from a full hand), a turn in a trick as full as it gets, a hand's result; BAEBAE's turn (the
discard pile and suit), a question answered with buttons (a suit to name, a seat to choose: the
decision at its largest), a round's result."""


@dataclass
class StagedGame:
    """Seat 0's welcome, and its updates at the moments a test looks at, by name, in the order
    they are sent (:data:`MOMENTS`); ``result`` comes last (a page shows a deal's result only
    once it has drawn an update before it)."""

    welcome: dict[str, Any]
    updates: dict[str, dict[str, Any]] = field(default_factory=dict)


def _update(state: State, seq: int, sent: int, summary: dict[str, Any]) -> dict[str, Any]:
    """The update the server sends seat 0 (web/play.py ``_update``) for events ``sent``...."""
    moves = [views.move_fields(state, a) for a in state.legal_actions()] if state.current_player == 0 else []
    return {"type": "update", "seq": seq, "view": views.seat_view(state, 0), "events": views.visible_events(state, 0, sent),
            "moves": moves, "table": summary, "deadline": None, "now": time.time()}


def _moment(game: str, state: State) -> str | None:
    """Which moment this is for seat 0, if any: its pass (Baha), its turn to play a card (in Baha
    with every other card of the trick down), or a question it answers with buttons (BAEBAE)."""
    if state.current_player != 0 or state.is_over:
        return None
    view = state.view(0)
    kinds = [state.decode(a).kind for a in state.legal_actions()]
    if game == "baha":
        if view["phase"] == "pass" and not view["my_picks"]:
            return "pass"
        return "turn" if view["phase"] == "play" and len(view["trick"]) == view["players"] - 1 else None
    if "play" in kinds and not view.get("pending"):
        return "turn"
    return "ask" if len(kinds) >= 3 and not {"play", "select", "draw"} & set(kinds) else None


def stage(game: str, players: int, seed: int = 1) -> StagedGame:
    """Seat 0 (Ada, a person) against bots at a table of ``game`` with ``players`` seats: the
    first deal from ``seed`` on that has every moment before its result."""
    for attempt in range(seed, seed + 50):
        staged = _stage(game, players, attempt)
        if tuple(staged.updates) == MOMENTS[game]:
            return staged
    raise AssertionError(f"{game} at {players}: no deal of seeds {seed} to {seed + 49} has {MOMENTS[game]}")


def _stage(game: str, players: int, seed: int) -> StagedGame:
    rules = games.make_rules(game, {"players": players} | ({"deck": "sample"} if game == "baebae" else {}))
    state = games.start_game(rules, seed)
    bots = [make("random", seed=seed * 31 + s) for s in range(players)]
    seats = [{"seat": s, "kind": "human" if s == 0 else "bot", "bot": None if s == 0 else "heuristic",
              "name": "Ada" if s == 0 else None, "title": seat_name(s, "Ada" if s == 0 else None, None if s == 0 else "heuristic"),
              "account": False, "connected": True, "away": False, "left": False} for s in range(players)]
    summary = {"id": f"staged-{game}-{players}", "game": game, "players": players, "rules": rules.to_dict(), "deck": None,
               "seats": seats, "status": "running", "closed": False, "rematch": None, "timer": None, "bots_at": None,
               "created": time.time(), "url": f"/table/staged-{game}-{players}"}
    staged = StagedGame({"type": "welcome", "seat": 0, "table": summary, "cards": design_rows(games.get(game), rules)})
    wanted = [m for m in MOMENTS[game] if m != "result"]
    seq, sent = 0, 0
    while not state.is_over:
        moment = _moment(game, state)
        if moment in wanted and moment not in staged.updates:
            staged.updates[moment] = _update(state, seq, sent, summary)
            sent = len(state.log)
        seat = state.current_player
        assert seat is not None
        caused = state.apply(bots[seat].act(state, seat))
        seq += 1
        if any(e["t"] == RESULT_EVENT[game] for e in caused):
            if set(wanted) <= set(staged.updates):
                staged.updates["result"] = _update(state, seq, sent, summary)
            break
    return staged


class StagedPage:
    """A page of ``context`` whose table WebSocket the test answers: ``show`` opens a table's
    page (the server's, of a table that waits for its players and never deals) and sends it a
    staged game's welcome and first update, ``send`` the next update; each waits until the page
    drew it."""

    def __init__(self, context: BrowserContext, base: str) -> None:
        self.base = base
        self.socket: WebSocketRoute | None = None
        self.greet: Callable[[WebSocketRoute], None] | None = None
        context.route_web_socket(re.compile(r".*/ws/tables/.*"), self._route)
        self.page: Page = context.new_page()

    def _route(self, ws: WebSocketRoute) -> None:
        self.socket = ws

        def heard(message: str | bytes) -> None:
            if json.loads(message).get("type") == "hello" and self.greet is not None:
                self.greet(ws)

        ws.on_message(heard)

    def show(self, table_id: str, staged: StagedGame, first: str | None = None) -> Page:
        """Open table ``table_id``'s page (a new load) showing ``staged`` at its update ``first``
        (by default its first)."""
        first = first or next(iter(staged.updates))

        def greet(ws: WebSocketRoute) -> None:
            ws.send(json.dumps(staged.welcome))
            ws.send(json.dumps(staged.updates[first]))

        self.greet = greet
        self.page.goto(f"{self.base}/table/{table_id}")
        self._drawn(staged.updates[first]["seq"])
        return self.page

    def moments(self, table_id: str, staged: StagedGame) -> Iterator[tuple[str, Page]]:
        """Each moment of ``staged`` in turn on table ``table_id``'s page (one load)."""
        names = list(staged.updates)
        yield names[0], self.show(table_id, staged, names[0])
        for name in names[1:]:
            self.send(staged.updates[name])
            yield name, self.page

    def send(self, update: dict[str, Any]) -> None:
        assert self.socket is not None
        self.socket.send(json.dumps(update))
        self._drawn(update["seq"])

    def _drawn(self, seq: int) -> None:
        self.page.wait_for_function("s => Number(document.body.dataset.seq) === s", arg=seq)
