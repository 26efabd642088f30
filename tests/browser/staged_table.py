"""A table page driven by moments of real games, fast: the games are played here by the rules
engine (random bots at every seat), and the page's WebSocket is answered with the messages the
server would send seat 0 (the same views, events and moves: ``cardroom.web.views``), so that a
test shows a page the turn in a full trick, the discard pile and suit, or a hand's result in a
few milliseconds each instead of playing a whole hand by clicking."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
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


@dataclass
class StagedGame:
    """Seat 0's welcome, and its updates at the moments a test looks at, by name: ``turn``
    (seat 0 to play a card, Baha's trick as full as it gets, BAEBAE's discard and suit) and
    ``result`` (the deal just ended; its result panel shows)."""

    welcome: dict[str, Any]
    updates: dict[str, dict[str, Any]] = field(default_factory=dict)


def _update(state: State, seq: int, sent: int, summary: dict[str, Any]) -> dict[str, Any]:
    """The update the server sends seat 0 (web/play.py ``_update``) for events ``sent``...."""
    moves = [views.move_fields(state, a) for a in state.legal_actions()] if state.current_player == 0 else []
    return {"type": "update", "seq": seq, "view": views.seat_view(state, 0), "events": views.visible_events(state, 0, sent),
            "moves": moves, "table": summary, "deadline": None, "now": time.time()}


def _turn_here(game: str, state: State) -> bool:
    """Seat 0 is to play a card: in Baha with every other card of the trick down."""
    if state.current_player != 0 or state.is_over:
        return False
    view = state.view(0)
    if view.get("phase") != "play" or view.get("pending"):
        return False
    kinds = {state.decode(a).kind for a in state.legal_actions()}
    if game == "baha":
        return len(view["trick"]) == view["players"] - 1
    return "play" in kinds


def stage(game: str, players: int, seed: int = 1) -> StagedGame:
    """Seat 0 (Ada, a person) against bots at a table of ``game`` with ``players`` seats."""
    rules = games.make_rules(game, {"players": players} | ({"deck": "sample"} if game == "baebae" else {}))
    state = games.start_game(rules, seed)
    bots = [make("random", seed=seed * 31 + s) for s in range(players)]
    seats = [{"seat": s, "kind": "human" if s == 0 else "bot", "bot": None if s == 0 else "heuristic",
              "name": "Ada" if s == 0 else None, "title": seat_name(s, "Ada" if s == 0 else None, None if s == 0 else "heuristic"),
              "account": False, "connected": True, "away": False, "left": False} for s in range(players)]
    summary = {"id": f"staged-{game}-{players}", "game": game, "players": players, "rules": rules.to_dict(), "deck": None,
               "seats": seats, "status": "running", "closed": False, "rematch": None, "timer": None, "bots_at": None,
               "created": time.time(), "url": f"/table/staged-{game}-{players}"}
    staged = StagedGame({"type": "welcome", "seat": 0, "table": summary, "cards": design_rows(rules)})
    seq, sent = 0, 0
    while not state.is_over and len(staged.updates) < 2:
        if "turn" not in staged.updates and _turn_here(game, state):
            staged.updates["turn"] = _update(state, seq, sent, summary)
            sent = len(state.log)
        seat = state.current_player
        assert seat is not None
        caused = state.apply(bots[seat].act(state, seat))
        seq += 1
        if "turn" in staged.updates and any(e["t"] == RESULT_EVENT[game] for e in caused):
            staged.updates["result"] = _update(state, seq, sent, summary)
    assert set(staged.updates) == {"turn", "result"}, f"{game} at {players}, seed {seed}: {sorted(staged.updates)}"
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

    def show(self, table_id: str, staged: StagedGame, first: str = "turn") -> Page:
        """Open table ``table_id``'s page (a new load) showing ``staged`` at its update ``first``."""

        def greet(ws: WebSocketRoute) -> None:
            ws.send(json.dumps(staged.welcome))
            ws.send(json.dumps(staged.updates[first]))

        self.greet = greet
        self.page.goto(f"{self.base}/table/{table_id}")
        self._drawn(staged.updates[first]["seq"])
        return self.page

    def send(self, update: dict[str, Any]) -> None:
        assert self.socket is not None
        self.socket.send(json.dumps(update))
        self._drawn(update["seq"])

    def _drawn(self, seq: int) -> None:
        self.page.wait_for_function("s => Number(document.body.dataset.seq) === s", arg=seq)
