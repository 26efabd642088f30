"""What the connections of a live table are sent: the table's summary (the lobby's and each
update's), each connection's update (a seat's view and moves, or a spectator's, perhaps a few
actions behind the game), and the designs of its deck.

:class:`TableViews` is the base of :class:`cardroom.web.play.TablePlay` (how a table is
played), itself the base of :class:`cardroom.web.tables.TableManager`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from cardroom.agents import levels
from cardroom.engine import Rules, State
from cardroom.games import GameSpec
from cardroom.native import Engine
from cardroom.record import rebuild
from cardroom.seats import seat_name
from cardroom.web import views
from cardroom.web.live import Connection, LiveTable, TableError
from cardroom.web.store import Store

__all__ = ["TableViews", "design_rows", "seat_title"]


def design_rows(spec: GameSpec, rules: Rules) -> list[dict[str, Any]] | None:
    """The designs of the decks ``rules`` are played with, for the ``welcome`` message, as the
    game's deck support describes them; ``None`` for a game without decks."""
    decks = spec.decks
    return None if decks is None else decks.design_rows(rules)


class TableViews:
    """The tables of one server in memory, and what each of their connections is sent."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = Engine.chosen()
        """The engine this server's games run on, chosen once when it starts."""
        self.tables: dict[str, LiveTable] = {}
        self.account_seats: Callable[[str], frozenset[int]] = lambda _table_id: frozenset()
        """The seats of a table that accounts hold (cardroom.web.accounts); the others' people
        are guests."""
        self._delays: dict[Connection, int] = {}
        """Spectators watching behind the game: actions each lags."""
        self._behind: dict[tuple[str, int], tuple[int, State]] = {}
        """For each table and delay watched, the game as it was that many actions ago (its seq)."""
        self.quick_waits: dict[str, tuple[str, float]] = {}
        """Tables made by Play now still in their wait: the bot that fills them, and when."""

    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError(404, f"no table {table_id!r:.40}")
        return table

    # -- messages to connections ---------------------------------------------------------

    def _broadcast(self, table: LiveTable, skip: Connection | None = None) -> None:
        summary = self.summary(table)
        for conn in list(table.conns):
            if conn.greeted and conn is not skip:
                conn.push(self._update(table, conn, summary))

    def _update(self, table: LiveTable, conn: Connection, summary: dict[str, Any]) -> dict[str, Any]:
        state = table.state
        if state is None:
            return {"type": "update", "seq": 0, "view": None, "events": [], "moves": [],
                    "table": summary, "deadline": None, "now": time.time()}
        delay = self._delays.get(conn, 0)
        if delay and not state.is_over and table.status != "over":
            return self._delayed_update(table, conn, summary, delay)
        if delay:
            self._behind.pop((table.id, delay), None)  # over: every watcher sees the game whole
        seat = conn.seat if conn.seat is not None else views.SPECTATOR
        events = views.visible_events(state, seat, conn.sent)
        conn.sent = len(state.log)
        moves = []
        if conn.seat is not None and state.current_player == conn.seat:
            moves = [views.move_fields(state, a) for a in state.legal_actions()]
        return {
            "type": "update", "seq": table.seq, "view": views.seat_view(state, seat), "events": events,
            "moves": moves, "table": summary, "deadline": table.deadline, "now": time.time(),
        }

    def _delayed_update(self, table: LiveTable, conn: Connection, summary: dict[str, Any],
                        delay: int) -> dict[str, Any]:
        """A spectator's update ``delay`` actions behind the game: the public view and events
        of the game as it was then (at its seq), no deadline. Once the game is over, the
        spectator sees it whole."""
        assert table.rules is not None
        target = max(0, table.seq - delay)
        key = (table.id, delay)
        seq, state = self._behind.get(key, (-1, None))
        if state is None or seq > target:
            seq, state = 0, rebuild(table.rules, table.data.seed, [], engine=self.engine)
        if seq < target:
            for action in self.store.actions(table.id)[seq:target]:
                state.apply(action)
            seq = target
        self._behind[key] = (seq, state)
        events = views.visible_events(state, views.SPECTATOR, conn.sent)
        conn.sent = len(state.log)
        return {"type": "update", "seq": seq, "view": views.public_view(state), "events": events, "moves": [],
                "table": summary, "deadline": None, "now": time.time(), "behind": table.seq - seq}

    # -- summaries -------------------------------------------------------------------

    def summary(self, table: LiveTable) -> dict[str, Any]:
        data = table.data
        accounts = self.account_seats(data.id)
        return {
            "id": data.id,
            "game": data.game,
            "players": data.players,
            "rules": dict(data.rules),
            "deck": None if data.deck_info is None else dict(data.deck_info),
            "seats": [
                {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
                 "title": seat_title(s.seat, s.name, s.bot),
                 "account": s.seat in accounts,
                 "connected": table.connected(s.seat), "away": s.seat in table.away,
                 "left": s.seat in data.left}
                for s in data.seats
            ],
            "status": data.status,
            "closed": data.closed_after is not None,
            "private": data.private,
            "rematch": data.rematch if data.rematch in self.tables else None,
            "timer": data.timer,
            # Play now's wait: when bots take the free seats (a time, as "deadline"), else null.
            "bots_at": self.quick_waits[data.id][1]
            if data.id in self.quick_waits and data.status == "waiting" else None,
            "created": data.created,
            "url": f"/table/{data.id}",
        }


def seat_title(seat: int, name: str | None, bot: str | None) -> str:
    """A seat's name at the table: a searching level's bot by its level ("Expert 2", as the
    lobby offers it), any other seat as every front names it (``seat_name``)."""
    level = levels.searching_level(bot) if bot is not None and not name else None
    return f"{level.capitalize()} {seat}" if level is not None else seat_name(seat, name, bot)
