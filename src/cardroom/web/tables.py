"""Live web tables: seats, connections, bots, turn timers, and the one way an action is taken.

Everything that changes a table runs on the event loop without awaiting in between: check
the action, apply it to a copy of the state, commit it to the database, then keep the copy
and queue each connection its own update. So two actions never interleave, a refused action
changes nothing, and nobody hears of an action the database could lose. Bots think in a
worker thread on a copy of the state and hand their choice back through the same path.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardroom import games
from cardroom.agents import Agent, AgentError, format_spec, make, parse_spec
from cardroom.engine import DeckRules, IllegalAction, Rules, RulesError, State
from cardroom.games import make_rules, start_game
from cardroom.games.baebae.deck import DeckError, parse_deck, project_decks
from cardroom.match import choose
from cardroom.record import RecordError, make_record, rebuild
from cardroom.text import plural
from cardroom.web import views
from cardroom.web.catalog import BOTS, card_rows, option_names
from cardroom.web.protocol import (
    MAX_PLAYERS,
    Act,
    CreateBody,
    Hello,
    Ping,
    ProtocolError,
    error,
    parse_message,
)
from cardroom.web.store import SeatData, Store, TableData
from cardroom.web.thinking import BotPool, is_search_bot

__all__ = ["TableError", "Connection", "LiveTable", "TableManager", "MAX_CONNECTIONS", "MAX_REPLAY_STEPS"]

log = logging.getLogger("cardroom.web")

MAX_CONNECTIONS = 200
"""Connections one table accepts (seats and spectators together)."""
MAX_OPEN_TABLES = 1000
WAITING_TTL = 3600.0
"""A table still waiting for players this long, with nobody connected, may be forgotten to
make room when the server holds ``MAX_OPEN_TABLES`` unfinished tables."""
"""Unfinished tables a server holds; creating more is refused until some finish."""
ABANDON_AFTER = 3600.0
"""A running game that no player has been connected to for this long ends as abandoned."""
SWEEP_EVERY = 60.0
"""Seconds between two looks for abandoned games."""
MAX_QUEUED = 1000
"""Messages waiting to be sent to one connection; a connection that falls further behind is closed."""
MAX_QUEUED_BYTES = 2 * 1024 * 1024
"""Bytes of messages waiting to be sent to one connection; one that falls further behind is closed."""
MAX_REPLAY_STEPS = 2000
"""The most steps one replay answer carries (a long game is fetched a window at a time)."""
BOT_LIMITS = {"iterations": 5000, "seconds": 5.0}
"""The largest search budgets a web table grants a bot per move."""


class TableError(Exception):
    """A request about tables that cannot be granted: ``status`` is the HTTP status to answer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Connection:
    """One WebSocket of a table: its seat (``None`` for a spectator) and its outgoing queue."""

    def __init__(self, send: Callable[[str], Any]) -> None:
        self._send = send
        self.greeted = False
        self.seat: int | None = None
        self.sent = 0
        """Events of the log this connection has been sent."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.queued = 0
        """Bytes of the messages in the queue."""
        self.closed = False
        self.dropped = False
        """Closed at once (it fell too far behind): its socket is to be dropped, not closed politely."""
        self.writer: asyncio.Task[None] | None = None
        """The task running :meth:`write`, once it runs."""

    def push(self, message: dict[str, Any]) -> None:
        """Queue a message; it is sent in order by :meth:`write`."""
        if self.closed:
            return
        try:
            text = json.dumps(message, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError):  # a bug: it costs this connection, not the caller's loop
            log.exception("a message could not be written as JSON; closing its connection")
            self.abort()
            return
        # A client that stops reading must not hold the server's memory: past either bound the
        # connection is dropped at once (a first message may be large on its own: the whole log).
        if self.queue.qsize() >= MAX_QUEUED or (self.queued and self.queued + len(text) > MAX_QUEUED_BYTES):
            log.warning("closing a connection that does not read its messages")
            self.abort()
            return
        self.queued += len(text)
        self.queue.put_nowait(text)

    def close(self) -> None:
        """Close once the messages queued so far are sent."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    def abort(self) -> None:
        """Close now: drop what is queued and stop a send that waits on the client."""
        self.closed = True
        self.dropped = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queued = 0
        self.queue.put_nowait(None)  # a writer yet to start stops at once
        if self.writer is not None and self.writer is not asyncio.current_task():
            self.writer.cancel()

    async def write(self) -> None:
        """Send queued messages until closed."""
        self.writer = asyncio.current_task()
        while True:
            text = await self.queue.get()
            if text is None:
                return
            self.queued -= len(text)
            await self._send(text)


@dataclass
class LiveTable:
    data: TableData
    rules: Rules | None
    state: State | None = None
    seq: int = 0
    agents: dict[int, Agent] = field(default_factory=dict)
    away: set[int] = field(default_factory=set)
    conns: list[Connection] = field(default_factory=list)
    deadline: float | None = None
    task: asyncio.Task[None] | None = None
    cards: list[dict[str, Any]] | None = None
    seen: float = field(default_factory=time.time)
    """When a player was last connected (or the table was made or loaded): see ``ABANDON_AFTER``."""

    @property
    def id(self) -> str:
        return self.data.id

    @property
    def status(self) -> str:
        return self.data.status

    def seat_of(self, token: str) -> int | None:
        digest = hash_token(token)
        for s in self.data.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    def connected(self, seat: int) -> bool:
        return any(c.greeted and c.seat == seat for c in self.conns)

    def people(self) -> bool:
        """Whether a player (a connection holding a seat, not a watcher) is here."""
        return any(c.greeted and c.seat is not None for c in self.conns)


class TableManager:
    """Every table of one server, in memory, backed by the store."""

    def __init__(self, store: Store, data_dir: Path, bot_delay: float, bot_workers: int = 1) -> None:
        self.store = store
        self.data_dir = data_dir
        self.bot_delay = bot_delay
        self.bot_pool = BotPool(bot_workers)
        """Where search bots think: worker processes, off the event loop."""
        self._sweeper: asyncio.Task[None] | None = None
        self.tables: dict[str, LiveTable] = {}
        self._replays: dict[tuple[str, int | None, int, int], tuple[list[dict[str, Any]], int]] = {}

    # -- starting and stopping -------------------------------------------------------

    def load(self) -> None:
        """Rebuild every table from the database: unfinished games replay their actions."""
        for data in self.store.tables(with_actions=True):
            if data.status == "over":
                self.tables[data.id] = LiveTable(data, None)
                continue
            try:
                table = self._rebuild(data)
            except Exception as err:  # a table that cannot be rebuilt must not stop the others
                log.error("table %s cannot be rebuilt and is left out: %s", data.id, err)
                continue
            self.tables[data.id] = table

    def _rebuild(self, data: TableData) -> LiveTable:
        rules = self._rules(data.game, data.rules, data.deck, data.upload)
        if data.deck_info is not None:
            have = rules.deck_record() if isinstance(rules, DeckRules) else {}
            if have.get("digest") != data.deck_info.get("digest"):
                raise RulesError(f"its deck {data.deck_info.get('name')!r} has changed since the game began")
        table = self._live(data, rules)
        if data.status == "running":
            table.state = rebuild(rules, data.seed, data.actions)
            table.seq = len(data.actions)
            table.away.update(data.left)  # who left is played by a stand-in to the end
        return table

    def start(self) -> None:
        """Set the bots and timers of every running table going (on the event loop)."""
        for table in self.tables.values():
            self._kick(table)
        self._sweeper = asyncio.create_task(self._sweep_every())

    async def stop(self) -> None:
        tasks = [t.task for t in self.tables.values() if t.task is not None and not t.task.done()]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        for table in self.tables.values():
            for conn in table.conns:
                conn.close()
        self.bot_pool.close()

    # -- creating and joining ------------------------------------------------------------

    def create(self, body: CreateBody) -> tuple[LiveTable, int | None, str | None]:
        """A new table from a create request; the creator's seat and token if it sat down."""
        if sum(1 for t in self.tables.values() if t.status != "over") >= MAX_OPEN_TABLES:
            self._drop_abandoned(time.time())
        if sum(1 for t in self.tables.values() if t.status != "over") >= MAX_OPEN_TABLES:
            raise TableError(503, f"this server already holds {MAX_OPEN_TABLES} unfinished tables; try later")
        game = body.game
        if game not in games.names():
            raise TableError(400, f"unknown game {game!r:.40}; the games are {', '.join(games.names())}")
        options = dict(body.rules)
        allowed = option_names(game)
        for name in options:
            if name not in allowed and name != "players":
                extra = " (choose the deck with \"deck\" or \"deck_toml\")" if name == "deck" else ""
                raise TableError(400, f"unknown {game} rule {name!r:.40}{extra}; the rules are "
                                      f"{', '.join(allowed)}")
        players = body.players
        if "players" in options:
            if players is not None and options["players"] != players:
                raise TableError(400, "give the number of players once: \"players\" or rules.players")
            players = options.pop("players")
        if players is None:
            players = len(body.seats) if body.seats else make_rules(game).to_dict()["players"]
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
            # checked before anything is built per seat: rules.players is not bounded by the body
            raise TableError(
                400, f"players must be a whole number from 2 to {MAX_PLAYERS}, not {players!r:.40}"
            )
        options["players"] = players
        seats = body.seats if body.seats is not None else ["human"] + ["heuristic"] * (players - 1)
        if len(seats) != players:
            raise TableError(
                400, f"seats lists {plural(len(seats), 'seat')}; a table of {players} players needs {players}"
            )
        seat_data = [self._seat(k, spec) for k, spec in enumerate(seats)]

        deck: str | None = None
        upload: str | None = None
        if games.get(game).decks:
            if body.deck is not None and body.deck_toml is not None:
                raise TableError(
                    400, "give one deck: \"deck\" (a project deck's name) or \"deck_toml\" (a deck file)"
                )
            if body.deck_toml is not None:
                upload = self._upload(body.deck_toml)
            else:
                deck = body.deck if body.deck is not None else "sample"
                if deck not in project_decks():
                    raise TableError(400, f"unknown deck {deck!r:.40}; the project's decks are "
                                          f"{', '.join(project_decks())} (or upload one as deck_toml)")
        elif body.deck is not None or body.deck_toml is not None:
            raise TableError(400, f"{game} is played without a deck file; leave out deck and deck_toml")
        try:
            rules = self._rules(game, options, deck, upload)
        except (RulesError, DeckError) as err:
            raise TableError(400, str(err)) from None
        # The deck is kept apart (a project deck's name, or the upload's digest and text).
        stored = {k: v for k, v in rules.to_dict().items() if k not in ("deck", "deck_files")}
        deck_info = None
        if isinstance(rules, DeckRules):
            record = rules.deck_record()
            deck_info = {"name": record["name"], "digest": record["digest"]}

        humans = [s.seat for s in seat_data if s.kind == "human"]
        seat = None
        if body.name is not None:
            if not humans:
                raise TableError(400, "name is given but every seat is a bot: make a seat \"human\"")
            seat = humans[0]
        # The creator's token closes the table: their seat's token when they sit, else one of its own.
        token = secrets.token_urlsafe(24)
        if seat is not None:
            seat_data[seat].name = body.name
            seat_data[seat].token_hash = hash_token(token)
        free = [s for s in seat_data if s.kind == "human" and s.token_hash is None]
        data = TableData(
            id=self._new_id(), game=game, players=players, rules=stored, deck=deck, upload=upload,
            deck_info=deck_info, seed=secrets.randbelow(2**31), timer=body.timer,
            status="waiting" if free else "running", created=time.time(), finished=None, seats=seat_data,
            creator_hash=hash_token(token),
        )
        self.store.add_table(data)
        table = self._live(data, rules)
        self.tables[data.id] = table
        if data.status == "running":
            self._begin(table)
        return table, seat, token

    def _drop_abandoned(self, now: float) -> None:
        """Make room: forget the tables still waiting for players after ``WAITING_TTL``
        seconds that no player is connected to (no game was dealt at them, so nothing is lost;
        watchers do not keep a table)."""
        for table in list(self.tables.values()):
            if table.status == "waiting" and not table.people() and now - table.data.created > WAITING_TTL:
                self.store.drop_waiting(table.id)
                del self.tables[table.id]
                for conn in table.conns:
                    conn.push(error("not_found", f"table {table.id} was forgotten: nobody took its seats"))
                    conn.close()
                log.info("forgot table %s: waiting since %.0f s with nobody there", table.id,
                         now - table.data.created)

    def unfinished(self, table_id: str) -> bool:
        table = self.tables.get(table_id)
        return table is not None and table.status != "over"

    async def _sweep_every(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                self.sweep(time.time())
            except Exception:  # a failed sweep is tried again next time; the tables play on
                log.exception("looking for abandoned games failed")

    def sweep(self, now: float) -> None:
        """End the running games that no player has been connected to for ``ABANDON_AFTER``
        seconds (bots and watchers do not keep a game going)."""
        for table in list(self.tables.values()):
            if table.people():
                table.seen = now
            elif table.status == "running" and now - table.seen > ABANDON_AFTER:
                self._abandon(table, now)

    def _abandon(self, table: LiveTable, now: float) -> None:
        """The game ends where it stands; its record (the game so far) is kept like a finished one's."""
        state = table.state
        if state is None:
            return
        record = make_record(state, self._record_seats(table))
        self.store.finish(table.id, now, record)
        table.data.status = "over"
        table.data.finished = now
        table.away.clear()
        log.info("table %s: abandoned after %.0f s with no player connected; its game ends here",
                 table.id, now - table.seen)
        self._kick(table)
        self._broadcast(table)

    def join(self, table_id: str, name: str, seat: int | None) -> tuple[int, str]:
        """A person takes a free human seat; answers the seat and its token."""
        table = self.get(table_id)
        if table.status != "waiting":
            raise TableError(409, f"table {table_id} has no free seat: its game is {table.status}")
        seats = table.data.seats
        if seat is not None:
            if not 0 <= seat < len(seats):
                raise TableError(400, f"seat must be 0 to {len(seats) - 1}, not {seat}")
            chosen = seats[seat]
            if chosen.kind != "human":
                raise TableError(409, f"seat {seat} is a bot's ({chosen.bot}); the free seats are "
                                      f"{self._free_text(table)}")
            if chosen.token_hash is not None:
                raise TableError(409, f"seat {seat} is taken; the free seats are {self._free_text(table)}")
        else:
            free = [s for s in seats if s.kind == "human" and s.token_hash is None]
            if not free:
                raise TableError(409, f"table {table_id} has no free seat")
            chosen = free[0]
        token = secrets.token_urlsafe(24)
        token_hash = hash_token(token)
        left = [s for s in seats if s.kind == "human" and s.token_hash is None and s is not chosen]
        status = "waiting" if left else "running"
        self.store.take_seat(table.id, chosen.seat, name, token_hash, status)
        chosen.name = name
        chosen.token_hash = token_hash
        table.data.status = status
        if status == "running":
            self._begin(table)
        else:
            self._broadcast(table)
        return chosen.seat, token

    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError(404, f"no table {table_id!r:.40}")
        return table

    def listing(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        """Summaries, newest first: the unfinished tables, or the finished ones (``over``)."""
        if status not in (None, "over"):
            raise TableError(
                400, f"status may be left out (open and running tables) or be over, not {status!r:.40}"
            )
        chosen = [t for t in self.tables.values() if (t.status == "over") == (status == "over")]
        chosen.sort(key=lambda t: t.data.created, reverse=True)
        return [self.summary(t) for t in chosen[:limit]]

    def summary(self, table: LiveTable) -> dict[str, Any]:
        data = table.data
        return {
            "id": data.id,
            "game": data.game,
            "players": data.players,
            "rules": dict(data.rules),
            "deck": None if data.deck_info is None else dict(data.deck_info),
            "seats": [
                {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
                 "connected": table.connected(s.seat), "away": s.seat in table.away,
                 "left": s.seat in data.left}
                for s in data.seats
            ],
            "status": data.status,
            "closed": data.closed_after is not None,
            "rematch": data.rematch if data.rematch in self.tables else None,
            "timer": data.timer,
            "created": data.created,
            "url": f"/table/{data.id}",
        }

    # -- leaving, closing, rematches ------------------------------------------------------

    def leave(self, table_id: str, token: str) -> int:
        """The player holding ``token`` leaves; answers their seat. While the table waits the
        seat is free again; during the game a heuristic stand-in plays it to the end (the record
        says from when), and the token no longer holds it."""
        table = self.get(table_id)
        seat = table.seat_of(token)
        if seat is None:
            raise TableError(
                403, f"that token holds no seat at table {table_id}: only a seated player may leave")
        if table.status == "over":
            raise TableError(409, f"table {table_id}'s game is over: there is nothing to leave")
        data = table.data
        if table.status == "waiting":
            self.store.free_seat(table.id, seat)
            data.seats[seat].name = None
            data.seats[seat].token_hash = None
        else:
            self.store.leave_seat(table.id, seat, table.seq)
            data.seats[seat].token_hash = None
            data.left[seat] = table.seq
            table.away.add(seat)
            if table.state is not None and table.state.current_player == seat:
                self._kick(table)  # the stand-in takes this turn now
        for conn in table.conns:
            if conn.seat == seat:
                conn.seat = None  # still connected, as a spectator
                conn.push(error("left", f"you left seat {seat}; you are watching now"))
        self._broadcast(table)
        return seat

    def close(self, table_id: str, token: str) -> None:
        """The creator closes the table: a waiting table is forgotten (no game was dealt); a
        running game ends abandoned, its record (the game so far) kept."""
        table = self.get(table_id)
        data = table.data
        if data.creator_hash is None or not hmac.compare_digest(data.creator_hash, hash_token(token)):
            raise TableError(403, f"only the creator of table {table_id} may close it (with the token "
                                  "the create call answered)")
        if table.status == "over":
            raise TableError(409, f"table {table_id}'s game is over already")
        if table.status == "waiting":
            self.store.drop_waiting(table.id)
            del self.tables[table.id]
            for conn in list(table.conns):
                conn.push(error("closed", f"table {table_id} was closed by its creator"))
                conn.close()
            return
        state = table.state
        assert state is not None
        data.closed_after = table.seq
        record = make_record(state, self._record_seats(table))
        record["abandoned"] = {"closed_after": table.seq}
        now = time.time()
        self.store.close_table(table.id, table.seq, now, record)
        data.status = "over"
        data.finished = now
        table.away.clear()
        self._kick(table)  # stops a bot's move or a timer
        self._broadcast(table)

    def rematch(self, table_id: str, token: str) -> tuple[LiveTable, int | None]:
        """A new table for a finished game's players: the same game, rules, deck, timer and
        seats, a fresh seed. Bots keep their specs; each person keeps their seat and their
        token (so they can sit at once); the seat of a player who left is free. Asked again, it
        answers the same new table. Answers it and the seat ``token`` holds there."""
        table = self.get(table_id)
        old = table.data
        digest = hash_token(token)
        holds = table.seat_of(token) is not None or (
            old.creator_hash is not None and hmac.compare_digest(old.creator_hash, digest))
        if not holds:
            raise TableError(403, f"that token holds no seat at table {table_id}: a rematch is asked for "
                                  "by one of its players or its creator")
        if table.status != "over":
            raise TableError(
                409, f"table {table_id}'s game is {table.status}: a rematch follows a finished game")
        again = self.tables.get(old.rematch or "")
        if again is None:
            if sum(1 for t in self.tables.values() if t.status != "over") >= MAX_OPEN_TABLES:
                raise TableError(
                    503, f"this server already holds {MAX_OPEN_TABLES} unfinished tables; try later")
            try:
                rules = table.rules or self._rules(old.game, old.rules, old.deck, old.upload)
            except (RulesError, DeckError) as err:
                raise TableError(409, f"table {table_id}'s game cannot be set up again here: {err}") from None
            seats = [SeatData(s.seat, s.kind, s.bot, s.name if s.token_hash else None, s.token_hash)
                     for s in old.seats]
            free = [s for s in seats if s.kind == "human" and s.token_hash is None]
            data = TableData(
                id=self._new_id(), game=old.game, players=old.players, rules=dict(old.rules), deck=old.deck,
                upload=old.upload, deck_info=old.deck_info, seed=secrets.randbelow(2**31), timer=old.timer,
                status="waiting" if free else "running", created=time.time(), finished=None, seats=seats,
                creator_hash=old.creator_hash,
            )
            self.store.add_rematch(table.id, data)
            old.rematch = data.id
            again = self._live(data, rules)
            self.tables[data.id] = again
            if data.status == "running":
                self._begin(again)
            self._broadcast(table)  # everyone at the finished table hears of the rematch
        return again, again.seat_of(token)

    # -- finished games ----------------------------------------------------------------

    def record_text(self, table_id: str) -> str:
        table = self.get(table_id)
        if table.status != "over":
            raise TableError(
                409, f"table {table_id}'s game is {table.status}: its record is kept once it is over"
            )
        text = self.store.record(table_id)
        if text is None:
            raise TableError(404, f"table {table_id} has no record")
        return text

    def deck_text(self, table_id: str) -> tuple[str, str]:
        """The deck file of a table played with a deck, and a file name for it: an uploaded deck
        is ``<digest>.toml``, a project deck its own file's name. (A record carries its decks'
        content; the file is for people who want the deck itself.)"""
        table = self.get(table_id)
        data = table.data
        if not games.get(data.game).decks:
            raise TableError(404, f"table {table_id} plays {data.game}, which has no deck file")
        if data.upload is not None:
            text = self.store.deck_text(data.upload)
            if text is None:
                raise TableError(404, f"the deck of table {table_id} is missing from the database")
            return text, data.upload.removeprefix("sha256:") + ".toml"
        path = project_decks().get(data.deck or "")
        if path is None:
            raise TableError(404, f"table {table_id}'s deck {data.deck!r:.40} is not a project deck here")
        return path.read_text(encoding="utf-8"), path.name

    async def replay(
        self, table_id: str, seat: int | None, start: int = 0, count: int = MAX_REPLAY_STEPS
    ) -> tuple[list[dict[str, Any]], int]:
        """A finished game step by step from ``seat``'s point of view (``None``: every seat's):
        the steps ``start`` to ``start + count - 1`` (0 is the deal), and how many there are.

        The steps are worked out in a worker thread; the cache is kept on the event loop only.
        """
        table = self.get(table_id)
        if table.status != "over":
            raise TableError(
                409, f"table {table_id}'s game is {table.status}: it can be replayed once it is over"
            )
        if seat is not None and not 0 <= seat < table.data.players:
            raise TableError(400, f"seat must be 0 to {table.data.players - 1} or all, not {seat}")
        key = (table_id, seat, start, count)
        cached = self._replays.get(key)
        if cached is not None:
            return cached
        rules, steps, total = await asyncio.to_thread(self._replay_steps, table, seat, start, count)
        if table.cards is None and isinstance(rules, DeckRules):  # a finished game after a restart
            table.cards = card_rows(rules.cards)
        while len(self._replays) >= 16:
            self._replays.pop(next(iter(self._replays)))
        self._replays[key] = steps, total
        return steps, total

    def _replay_steps(
        self, table: LiveTable, seat: int | None, start: int, count: int
    ) -> tuple[Rules, list[dict[str, Any]], int]:
        data = table.data
        try:
            rules = table.rules or self._rules(data.game, data.rules, data.deck, data.upload)
            actions = self.store.actions(data.id)
            # Step k is the game after its k-th action (0: the deal): rebuilt up to the window.
            before = max(start - 1, 0)
            state = rebuild(rules, data.seed, actions[:before])
            window = views.replay_steps(state, actions[before:start + count - 1], seat, deal=start == 0)
            return rules, window, len(actions) + 1
        except (RulesError, DeckError, RecordError, IllegalAction) as err:
            raise TableError(409, f"table {data.id}'s game cannot be replayed here: {err}") from None

    # -- connections -------------------------------------------------------------------

    def attach(self, table: LiveTable, conn: Connection) -> None:
        """Take a new connection. At a full table the oldest connection without a seat (a
        spectator, or one yet to say hello) makes room, so watchers cannot keep a player from
        their seat; only a table whose every connection holds a seat refuses."""
        if len(table.conns) >= MAX_CONNECTIONS:
            unseated = next((c for c in table.conns if c.seat is None), None)
            if unseated is None:
                raise TableError(503, f"table {table.id} has {MAX_CONNECTIONS} connections already")
            unseated.push(error("full", f"table {table.id} has {MAX_CONNECTIONS} connections; this one, "
                                        "holding no seat, made room for a newer one"))
            unseated.close()
            table.conns.remove(unseated)
        table.conns.append(conn)

    def detach(self, table: LiveTable, conn: Connection) -> None:
        conn.close()
        if conn.seat is not None:
            table.seen = time.time()
        if conn in table.conns:
            table.conns.remove(conn)
            if conn.greeted and conn.seat is not None and not table.connected(conn.seat):
                self._broadcast(table)

    def handle(self, table: LiveTable, conn: Connection, raw: str | bytes) -> None:
        """One message from a connection; every refusal goes to that connection only."""
        if conn.closed:
            return  # dropped (too slow, or made room at a full table): it no longer speaks
        try:
            message = parse_message(raw)
            if isinstance(message, Ping):
                conn.push({"type": "pong"})
            elif isinstance(message, Hello):
                self._hello(table, conn, message)
            elif isinstance(message, Act):
                self._act(table, conn, message)
        except ProtocolError as err:
            conn.push(error(err.code, str(err)))
        except Exception:  # a bug must cost one message, not the connection or the table
            log.exception("table %s: a message could not be handled", table.id)
            conn.push(error("server_error", "the server could not handle that message; nothing changed"))

    def _hello(self, table: LiveTable, conn: Connection, hello: Hello) -> None:
        if conn.greeted:
            where = f"seat {conn.seat}" if conn.seat is not None else "a spectator"
            raise ProtocolError("bad_message", f"hello is the first message only; you are already {where}")
        seat = None
        if hello.token is not None:
            seat = table.seat_of(hello.token)
            if seat is None:
                raise ProtocolError(
                    "not_seated",
                    f"that token holds no seat at table {table.id}; say hello with a seat's token, "
                    "or with token null to watch",
                )
        if table.state is None and table.status == "over":
            self._finished_state(table)
        # The others hear of a hello only when the table's summary changes: the seat's first
        # connection, or a player back from away (a second tab changes nothing they see).
        changed = seat is not None and (not table.connected(seat) or seat in table.away)
        conn.greeted = True
        conn.seat = seat
        conn.sent = 0
        if seat is not None and seat in table.away:
            table.away.discard(seat)  # a player who comes back takes the seat back from the stand-in
            if table.state is not None and table.state.current_player == seat:
                self._kick(table)  # stop the stand-in's move; another seat's bot thinks on undisturbed
        conn.push({"type": "welcome", "seat": seat, "table": self.summary(table), "cards": table.cards})
        conn.push(self._update(table, conn, self.summary(table)))
        if changed:
            self._broadcast(table, skip=conn)

    def _act(self, table: LiveTable, conn: Connection, act: Act) -> None:
        if not conn.greeted:
            raise ProtocolError("not_seated", 'say hello first: {"type": "hello", "token": ...}')
        seat = conn.seat
        if seat is None:
            raise ProtocolError("spectator", "you are watching this table: spectators may not act")
        state = table.state
        if table.status == "over" or (state is not None and state.is_over):
            raise ProtocolError("over", "the game is over: no action can be taken")
        if state is None:
            raise ProtocolError(
                "not_your_turn", "the game has not started: it waits for every seat to be taken"
            )
        if act.seq != table.seq:
            raise ProtocolError(
                "stale", f"seq {act.seq} is not the game's seq {table.seq}: the game has moved on since; "
                         "act on the latest update"
            )
        turn = state.current_player
        if turn != seat:
            # The page calls this seat "You" and the others by name: no seat numbers here.
            raise ProtocolError("not_your_turn", "it is not your turn: wait until the game asks you to play")
        away = seat in table.away
        table.away.discard(seat)
        try:
            self._take(table, seat, act.action, "human")
        except IllegalAction as err:  # the acting seat's own moves: told to that seat only
            if away:
                table.away.add(seat)
            raise ProtocolError("illegal", str(err)) from None
        except Exception:
            if away:
                table.away.add(seat)
            log.exception("table %s: storing an action failed", table.id)
            raise ProtocolError(
                "server_error", "the action could not be stored; nothing changed, try again"
            ) from None

    def _finished_state(self, table: LiveTable) -> None:
        """A finished game loaded from the database, rebuilt when someone comes to look."""
        data = table.data
        try:
            rules = self._rules(data.game, data.rules, data.deck, data.upload)
            actions = self.store.actions(data.id)
            state = rebuild(rules, data.seed, actions)
        except (RulesError, DeckError, RecordError) as err:
            log.warning("table %s: the finished game cannot be rebuilt here: %s", data.id, err)
            return
        table.rules = rules
        table.state = state
        table.seq = len(actions)
        if isinstance(rules, DeckRules):
            table.cards = card_rows(rules.cards)

    # -- the one path of an action ---------------------------------------------------------

    def _take(self, table: LiveTable, seat: int, action: int, by: str) -> None:
        """Apply ``action`` for ``seat`` (whose turn it is), commit it, then tell everyone."""
        state = table.state
        assert state is not None and state.current_player == seat
        # The delay lets people follow the bots' moves; a move nobody else can see (a pass pick)
        # has nothing to follow, so the next bot moves at once: one delay, then a bot's three
        # picks and the next bots' picks together (see _bot_turn).
        hidden = by != "human" and self._hidden(state, seat, action)
        after = state.clone()
        after.apply(action)  # IllegalAction here leaves the table untouched
        seq = table.seq + 1
        now = time.time()
        record = make_record(after, self._record_seats(table)) if after.is_over else None
        self.store.add_action(table.id, seq, seat, action, state.action_to_string(action), by, now, record)
        table.state = after
        table.seq = seq
        if record is not None:
            table.data.status = "over"
            table.data.finished = now
            table.away.clear()
        self._kick(table, hurry=hidden)
        self._broadcast(table)

    @staticmethod
    def _hidden(state: State, seat: int, action: int) -> bool:
        """Whether no other seat can tell which action ``seat`` takes (a pass pick)."""
        others = (other for other in range(len(state.scores)) if other != seat)
        return all(state.public_action(action, other) == -1 for other in others)

    def _record_seats(self, table: LiveTable) -> list[dict[str, Any]]:
        seats: list[dict[str, Any]] = [
            {"name": s.name or f"Seat {s.seat}", "agent": "human"} if s.kind == "human"
            else {"name": f"Seat {s.seat}", "agent": s.bot or "unknown"}
            for s in table.data.seats
        ]
        for seat, after in table.data.left.items():
            # the player left: a heuristic stand-in took every action of the seat from then on
            seats[seat]["left_after"] = after
            seats[seat]["stand_in"] = "heuristic"
        return seats

    # -- bots and timers ------------------------------------------------------------------

    def _kick(self, table: LiveTable, hurry: bool = False) -> None:
        """Start what the position needs: a bot's move, a stand-in's move, or a turn timer.
        ``hurry``: the bot moves without the delay (see :meth:`_take`)."""
        old = table.task
        if old is not None and not old.done() and old is not asyncio.current_task():
            old.cancel()
        table.task = None
        table.deadline = None
        state = table.state
        if table.status != "running" or state is None or state.is_over:
            return
        seat = state.current_player
        if seat is None:
            return
        if seat in table.agents or seat in table.away:
            table.task = asyncio.create_task(self._bot_turn(table, seat, table.seq, hurry))
        elif table.data.timer is not None:
            table.deadline = time.time() + table.data.timer
            table.task = asyncio.create_task(self._timer(table, seat, table.seq, table.deadline))

    async def _bot_turn(self, table: LiveTable, seat: int, seq: int, hurry: bool = False) -> None:
        if self.bot_delay > 0 and not hurry:
            await asyncio.sleep(self.bot_delay)
        state = table.state
        if table.seq != seq or state is None:
            return
        agent = table.agents.get(seat)
        by = table.data.seats[seat].bot or "heuristic"
        if agent is None:  # a stand-in for a person who ran out of time
            agent = make("heuristic", seed=table.data.seed + seq)
            by = "heuristic (stand-in)"
        try:
            action = await self._think(table, seat, seq, agent, by, state)
        except AgentError as err:  # an illegal choice: match.choose says whose and why
            log.error("table %s: %s; it plays its first legal move", table.id, err)
            action = state.legal_actions()[0]
        except Exception:
            log.exception("table %s: the bot at seat %d failed; it plays its first legal move",
                          table.id, seat)
            action = state.legal_actions()[0]
        if hurry and self.bot_delay > 0 and not self._hidden(state, seat, action):
            # after hidden picks, a move people can see (the first card) still waits the delay
            await asyncio.sleep(self.bot_delay)
        if table.seq != seq or (seat not in table.agents and seat not in table.away):
            return  # the position changed (a person acted) while the bot thought
        try:
            self._take(table, seat, action, by)  # checked by choose on this very position
        except Exception:  # storing the move failed: try again, or the table would wait for ever
            log.exception("table %s: storing a bot's action failed; retrying", table.id)
            await asyncio.sleep(1.0)
            if table.seq == seq:
                self._kick(table)

    async def _think(self, table: LiveTable, seat: int, seq: int, agent: Agent, by: str, state: State) -> int:
        """A bot's choice, taken as every front takes an agent's turn (``match.choose``: an
        illegal choice is an ``AgentError``): a search bot's in the worker pool (people's tables
        first), a quick bot's in a thread (it holds the interpreter lock only for a moment)."""
        spec = table.data.seats[seat].bot
        if spec is not None and spec == by and is_search_bot(spec):
            people = any(s.kind == "human" for s in table.data.seats)
            seed = table.data.seed + 7919 * (seat + 1) + 104729 * seq
            return await self.bot_pool.act(spec, seed, state.clone(), seat, people)
        return await asyncio.to_thread(choose, agent, state.clone(), seat)

    async def _timer(self, table: LiveTable, seat: int, seq: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        if table.seq != seq:
            return
        table.away.add(seat)
        log.info("table %s: seat %d ran out of time; a heuristic bot plays for it", table.id, seat)
        self._kick(table)
        self._broadcast(table)

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
        seat = conn.seat if conn.seat is not None else views.SPECTATOR
        events = views.visible_events(state, seat, conn.sent)
        conn.sent = len(state.log)
        moves = []
        if conn.seat is not None and state.current_player == conn.seat:
            moves = [{"action": a, "text": state.action_to_string(a)} for a in state.legal_actions()]
        return {
            "type": "update", "seq": table.seq, "view": views.seat_view(state, seat), "events": events,
            "moves": moves, "table": summary, "deadline": table.deadline, "now": time.time(),
        }

    # -- helpers -----------------------------------------------------------------------

    def _begin(self, table: LiveTable) -> None:
        """Every seat is taken: deal."""
        assert table.rules is not None
        table.state = start_game(table.rules, table.data.seed)
        table.seq = 0
        self._kick(table)
        self._broadcast(table)

    def _live(self, data: TableData, rules: Rules) -> LiveTable:
        table = LiveTable(data, rules)
        for s in data.seats:
            if s.kind == "bot" and s.bot is not None:
                name, options = parse_spec(s.bot)
                table.agents[s.seat] = make(name, seed=data.seed + 7919 * (s.seat + 1), **options)
        if isinstance(rules, DeckRules):
            table.cards = card_rows(rules.cards)
        return table

    def _seat(self, seat: int, spec: str) -> SeatData:
        text = spec.strip()
        if text == "human":
            return SeatData(seat, "human")
        try:
            name, options = parse_spec(text)
            if name not in BOTS:
                raise AgentError(f"unknown bot {name!r:.40}")
            for key, most in BOT_LIMITS.items():
                value = options.get(key)
                if isinstance(value, int | float) and value > most:
                    raise AgentError(f"{name}: {key} may be at most {most:g} on the web table, not {value}")
            make(name, seed=0, **options)
        except AgentError as err:
            raise TableError(
                400, f"seat {seat}: {err} (a seat is \"human\" or a bot: {', '.join(BOTS)}, with options "
                     "after colons, e.g. ismcts:iterations=300)"
            ) from None
        # Kept in its shortest form: every summary repeats it, so padding must not be stored.
        return SeatData(seat, "bot", bot=format_spec(name, options))

    def _upload(self, text: str) -> str:
        """Validate an uploaded deck file and keep it in the database; its digest."""
        try:
            deck = parse_deck(text, "deck_toml")
        except DeckError as err:
            raise TableError(400, str(err)) from None
        self.store.add_deck(deck.digest, deck.name, text, time.time())
        return deck.digest

    def _rules(self, game: str, options: dict[str, Any], deck: str | None, upload: str | None) -> Rules:
        options = dict(options)
        if upload is not None:  # the rules hold the deck's content, read from the database
            text = self.store.deck_text(upload)
            if text is None:
                raise DeckError(f"the uploaded deck {upload} is missing from the database")
            options["deck"], options["deck_files"] = upload, [text]
        elif deck is not None:
            options["deck"] = deck
        try:
            return make_rules(game, options)
        except (TypeError, ValueError) as err:
            if isinstance(err, RulesError | DeckError):
                raise
            raise RulesError(f"bad rules: {err}") from None

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_urlsafe(6)
            if table_id not in self.tables:
                return table_id

    @staticmethod
    def _free_text(table: LiveTable) -> str:
        free = [str(s.seat) for s in table.data.seats if s.kind == "human" and s.token_hash is None]
        return ", ".join(free) or "none"
