"""Live web tables: creating, joining, leaving and closing them, rematches, finished games.

How a table is played (connections, actions, bots, timers) is :mod:`cardroom.web.play`; a
table and its connections are :mod:`cardroom.web.live`. The names other modules import from
here are still found here.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from pathlib import Path, PurePath
from typing import Any

from sqlalchemy.exc import IntegrityError

from cardroom.agents import make, parse_spec
from cardroom.engine import CardroomInputError, DeckRules, RulesError
from cardroom.games import GameSpec
from cardroom.record import make_record, rebuild
from cardroom.web.directory import LocalDirectory, TableDirectory
from cardroom.web.finished import MAX_REPLAY_STEPS, MAX_REPLAYS, MAX_REPLAYS_PER_ADDRESS, FinishedTables
from cardroom.web.live import MAX_QUEUED_BYTES, Connection, LiveTable, TableError, hash_token
from cardroom.web.play import MAX_CONNECTIONS
from cardroom.web.protocol import CreateBody, error
from cardroom.web.seating import BOT_LIMITS, check_fits, game_spec, project_deck, quick_bot, table_plan
from cardroom.web.store import SeatData, SeatTaken, Store, TableData

__all__ = [
    "TableError", "Connection", "LiveTable", "TableManager", "MAX_CONNECTIONS", "MAX_QUEUED_BYTES",
    "MAX_REPLAY_STEPS", "MAX_REPLAYS", "MAX_REPLAYS_PER_ADDRESS", "BOT_LIMITS",
]

log = logging.getLogger("cardroom.web")

MAX_OPEN_TABLES = 1000
"""Unfinished tables a server holds; creating more is refused until some finish."""
WAITING_TTL = 3600.0
"""A table still waiting for players this long, with nobody connected, may be forgotten to
make room when the server holds ``MAX_OPEN_TABLES`` unfinished tables."""
ABANDON_AFTER = 3600.0
"""A running game that no player has been connected to for this long ends as abandoned."""
SWEEP_EVERY = 60.0
"""Seconds between two looks for abandoned games."""


class TableManager(FinishedTables):
    """The tables this server holds, in memory, backed by the store; where each table lives
    (which this server holds, the lobby over every server's) is its ``directory``'s: one
    server's own (:class:`LocalDirectory`, the default) or a cluster node's
    (:class:`cardroom.web.cluster.RedisDirectory`)."""

    def __init__(self, store: Store, data_dir: Path, bot_delay: float, bot_workers: int = 1,
                 directory: TableDirectory | None = None) -> None:
        super().__init__(store, data_dir, bot_delay, bot_workers)
        self.directory: TableDirectory = directory if directory is not None else LocalDirectory()
        self.directory.bind(self)

    @property
    def leases(self) -> TableDirectory:
        """The directory, which keeps the leases of the tables (its ``node`` names this server)."""
        return self.directory

    @property
    def address(self) -> str:
        """Where the other servers reach this one (the directory's)."""
        return self.directory.address

    @address.setter
    def address(self, address: str) -> None:
        self.directory.address = address

    # -- starting and stopping -------------------------------------------------------

    def load(self) -> None:
        """Load the tables this server holds at start, as its directory says."""
        self.directory.load()

    def load_stored(self) -> None:
        """Rebuild every table from the database: unfinished games replay their actions."""
        for data in self.store.tables(with_actions=True):
            if data.status == "over":
                self.tables[data.id] = LiveTable(data, None)
                continue
            try:
                table = self.rebuild_table(data)
            except Exception as err:  # a table that cannot be rebuilt must not stop the others
                log.error("table %s cannot be rebuilt and is left out: %s", data.id, err)
                continue
            self.tables[data.id] = table

    def rebuild_table(self, data: TableData) -> LiveTable:
        """A stored table, its game (if running) rebuilt from its actions."""
        rules = self._rules(data.game, data.rules, data.deck, data.upload, stored=True)
        if data.deck_info is not None:
            have = rules.deck_record() if isinstance(rules, DeckRules) else {}
            if have.get("digest") != data.deck_info.get("digest"):
                raise RulesError(f"its deck {data.deck_info.get('name')!r} has changed since the game began")
        table = self._live(data, rules)
        if data.status == "running":
            table.state = rebuild(rules, data.seed, data.actions, engine=self.engine)
            table.seq = len(data.actions)
            table.away.update(data.left)  # who left is played by a stand-in to the end
        return table

    def start(self) -> None:
        """Set the bots and timers of every running table going (on the event loop)."""
        for table in self.tables.values():
            self._kick(table)
        self._sweeper = asyncio.create_task(self._sweep_every())
        self.directory.start()

    async def stop(self) -> None:
        await self.directory.stop()
        tasks = [t.task for t in self.tables.values() if t.task is not None and not t.task.done()]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        for table in self.tables.values():
            self._end_grace(table)
            for conn in table.conns:
                conn.close()
        self.bot_pool.close()
        for threads in (self.quick_pool, self.replay_pool, self.hint_pool):
            threads.shutdown(wait=False, cancel_futures=True)
        await self.directory.close()

    def hold(self, table: LiveTable) -> None:
        """Hold a table the directory took (its owner died): in memory, its bot or timer going."""
        self.tables[table.id] = table
        self._kick(table)

    def moved_away(self, table: LiveTable) -> None:
        """A table another server holds now, forgotten here already: its bot or timer stops,
        its connections close (their clients connect again and reach its holder)."""
        if table.task is not None and not table.task.done():
            table.task.cancel()
        for conn in list(table.conns):
            conn.push(error("moved", "this table moved to another server; connecting again"))
            conn.close()

    def _refused(self, table: LiveTable, what: str, err: Exception) -> None:
        super()._refused(table, what, err)
        if isinstance(err, IntegrityError):
            # the seq is taken in the database: another server played this table meanwhile
            self.directory.moved(table.id, "the database holds a newer action")

    # -- creating and joining ------------------------------------------------------------

    def create(self, body: CreateBody) -> tuple[LiveTable, int | None, str | None]:
        """A new table from a create request; the creator's seat and token if it sat down."""
        if sum(1 for t in self.tables.values() if t.status != "over") >= MAX_OPEN_TABLES:
            self._drop_abandoned(time.time())
        if sum(1 for t in self.tables.values() if t.status != "over") >= MAX_OPEN_TABLES:
            raise TableError(503, f"this server already holds {MAX_OPEN_TABLES} unfinished tables; try later")
        spec = game_spec(body.game)
        options, players, seat_data = table_plan(spec, body)
        deck = project_deck(spec, body)
        upload = None if body.deck_toml is None else self._upload(spec, body.deck_toml, body.deck_file)
        try:
            rules = self._rules(spec.name, options, deck, upload)
        except CardroomInputError as err:
            raise TableError(400, str(err)) from None
        for s in seat_data:
            if s.bot is not None:
                check_fits(s.seat, s.bot, rules)
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
            id=self._new_id(), game=spec.name, players=players, rules=stored, deck=deck, upload=upload,
            deck_info=deck_info, seed=secrets.randbelow(2**31), timer=body.timer,
            status="waiting" if free else "running", created=time.time(), finished=None, seats=seat_data,
            creator_hash=hash_token(token), private=body.private,
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
        """Whether the table's game goes on, wherever it is held (the directory says for a
        table this server does not hold)."""
        table = self.tables.get(table_id)
        if table is None:
            return self.directory.unfinished(table_id)
        return table.status != "over"

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
        try:
            self.store.take_seat(table.id, chosen.seat, name, token_hash, status)
        except SeatTaken:
            if not self.directory.moved(table_id, "a seat it offered was taken through another server"):
                raise
            raise TableError(409, f"that seat of table {table_id} was just taken; look again") from None
        chosen.name = name
        chosen.token_hash = token_hash
        table.data.status = status
        if status == "running":
            self._begin(table)
        else:
            self._broadcast(table)
        return chosen.seat, token

    # -- Play now ------------------------------------------------------------------------

    def quick_match(self, game: str, players: int, bot: str,
                    skip: frozenset[str] = frozenset()) -> LiveTable | None:
        """A table Play now may seat a person at: one Play now made, still in its wait, of
        ``game`` for ``players`` with bots ``bot`` (a spec, as :meth:`quick_check` answers),
        with a free seat for a person, not in ``skip`` (where the person sits already); the
        oldest. A table made with New table is never one: its free seats are for those its
        creator sends the link to."""
        open_tables = [
            t for t in self.tables.values()
            if t.status == "waiting" and t.data.game == game and t.data.players == players
            and self.quick_waits.get(t.id, ("", 0.0))[0] == bot
            and t.id not in skip
            and t.data.closed_after is None
            and any(s.kind == "human" and s.token_hash is None for s in t.data.seats)
        ]
        if not open_tables:
            return None
        return min(open_tables, key=lambda t: t.data.created)

    def quick_check(self, game: str, players: int, bot: str) -> str:
        """Refuse, in words, a Play now of an unknown game, size or bot (nothing is made); the
        bot's spec as a seat keeps it (a level's name is its agent's spec)."""
        return quick_bot(game_spec(game), players, bot)

    def quick_create(self, game: str, players: int, bot: str, name: str) -> tuple[LiveTable, int, str]:
        """A new table for Play now: ``name`` in the first seat, the others free for people who
        press Play now for the same game, size and level in the next ``quick_wait`` seconds; then bots
        ``bot`` take the seats still free and the game starts."""
        bot = self.quick_check(game, players, bot)
        body = CreateBody(game=game, players=players, seats=["human"] * players, name=name)
        table, seat, token = self.create(body)
        assert seat is not None and token is not None
        if table.status == "waiting":
            at = time.time() + self.quick_wait
            self.quick_waits[table.id] = (bot, at)
            self._broadcast(table)
            asyncio.get_running_loop().call_later(self.quick_wait, self.quick_fill, table.id)
        return table, seat, token

    def quick_fill(self, table_id: str) -> None:
        """Play now's wait is over: bots take the seats of ``table_id`` nobody took, and the game
        starts. A table nobody sits at any more (they left) stays waiting, as any table."""
        wait = self.quick_waits.pop(table_id, None)
        table = self.tables.get(table_id)
        if wait is None or table is None or table.status != "waiting":
            return
        bot = wait[0]
        seats = table.data.seats
        if not any(s.kind == "human" and s.token_hash is not None for s in seats):
            self._broadcast(table)
            return
        free = {s.seat: bot for s in seats if s.kind == "human" and s.token_hash is None}
        try:
            self.store.seat_bots(table.id, free, "running")
        except Exception:  # the table stays waiting for people: nothing changed
            log.exception("table %s: bots could not take the free seats", table.id)
            self._broadcast(table)
            return
        assert table.rules is not None
        for number, spec in free.items():
            seats[number].kind = "bot"
            seats[number].bot = spec
            name, options = parse_spec(spec)
            table.agents[number] = make(name, seed=table.data.seed + 7919 * (number + 1), **options)
        table.data.status = "running"
        self._begin(table)

    def rename_seat(self, table_id: str, seat: int, old: str, new: str) -> None:
        """The person at ``seat`` of ``table_id`` is called ``new`` from now on, where this server
        holds the table (in its summary and chat; the database is the caller's): a deleted
        account's seat. Everyone at the table hears the new summary."""
        table = self.tables.get(table_id)
        if table is None or not 0 <= seat < len(table.data.seats) or table.data.seats[seat].name != old:
            return
        table.data.seats[seat].name = new
        self.chat.rename(table_id, seat, new)
        self._broadcast(table)

    def listing(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        """Summaries, newest first: the unfinished tables, or the finished ones (``over``);
        never a private table's (found by its link only)."""
        if status not in (None, "over"):
            raise TableError(
                400, f"status may be left out (open and running tables) or be over, not {status!r:.40}"
            )
        shared = self.directory.lobby()
        if shared is None:
            chosen = [t for t in self.tables.values()
                      if (t.status == "over") == (status == "over") and not t.data.private]
            chosen.sort(key=lambda t: t.data.created, reverse=True)
            return [self.summary(t) for t in chosen[:limit]]
        # the lobby over every server's tables, this server's own as they are now
        for table in self.tables.values():
            shared[table.id] = self.summary(table)
        found = [s for s in shared.values()
                 if (s.get("status") == "over") == (status == "over") and not s.get("private")]
        found.sort(key=lambda s: float(s.get("created", 0)), reverse=True)
        return found[:limit]


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
        record = make_record(state, self._record_seats(table))
        record["abandoned"] = {"closed_after": table.seq}
        now = time.time()
        self.store.close_table(table.id, table.seq, now, record)
        # Only once the database took it: a refused close (500) leaves the table as it was.
        data.closed_after = table.seq
        data.status = "over"
        data.finished = now
        table.away.clear()
        self._kick(table)  # stops a bot's move or a timer
        self._broadcast(table)

    def rematch(
        self, table_id: str, token: str, admit: Callable[[], None] | None = None
    ) -> tuple[LiveTable, int | None]:
        """A new table for a finished game's players: the same game, rules, deck, timer,
        seats and privacy, a fresh seed. Bots keep their specs; each person keeps their seat and their
        token (so they can sit at once); the seat of a player who left is free. Asked again, it
        answers the same new table. Answers it and the seat ``token`` holds there. ``admit``
        is called before a new table is made, and may refuse it (a ``TableError``)."""
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
            if admit is not None:
                admit()
            try:
                rules = table.rules or self._rules(old.game, old.rules, old.deck, old.upload, stored=True)
            except CardroomInputError as err:
                raise TableError(409, f"table {table_id}'s game cannot be set up again here: {err}") from None
            seats = [SeatData(s.seat, s.kind, s.bot, s.name if s.token_hash else None, s.token_hash)
                     for s in old.seats]
            free = [s for s in seats if s.kind == "human" and s.token_hash is None]
            data = TableData(
                id=self._new_id(), game=old.game, players=old.players, rules=dict(old.rules), deck=old.deck,
                upload=old.upload, deck_info=old.deck_info, seed=secrets.randbelow(2**31), timer=old.timer,
                status="waiting" if free else "running", created=time.time(), finished=None, seats=seats,
                creator_hash=old.creator_hash, private=old.private,
            )
            self.store.add_rematch(table.id, data)
            old.rematch = data.id
            again = self._live(data, rules)
            self.tables[data.id] = again
            if data.status == "running":
                self._begin(again)
            self._broadcast(table)  # everyone at the finished table hears of the rematch
        return again, again.seat_of(token)

    # -- helpers -----------------------------------------------------------------------

    def _upload(self, spec: GameSpec, text: str, filename: str | None) -> str:
        """Validate an uploaded deck file of the game ``spec`` and keep it in the database; its
        digest. Its problems are told by the file's name (without any folder), as the person
        chose it, else by the field that carried the text (``deck_toml``)."""
        decks = spec.decks
        assert decks is not None
        where = PurePath(filename.replace("\\", "/")).name if filename else ""
        try:
            deck = decks.parse(text, where or "deck_toml")
        except decks.error as err:
            raise TableError(400, str(err)) from None
        self.store.add_deck(deck.digest, deck.title, text, time.time())
        return deck.digest

    def _new_id(self) -> str:
        """A new table's id, held in the directory before the table is stored."""
        while True:
            table_id = secrets.token_urlsafe(6)
            if table_id not in self.tables and self.directory.claim(table_id):
                return table_id

    @staticmethod
    def _free_text(table: LiveTable) -> str:
        free = [str(s.seat) for s in table.data.seats if s.kind == "human" and s.token_hash is None]
        return ", ".join(free) or "none"
