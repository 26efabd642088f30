"""The web table's database: tables, seats, every action in order, uploaded decks, records.

SQLAlchemy 2.x ORM over a SQLAlchemy URL: SQLite (the default) or PostgreSQL (psycopg 3). A
game's state is never stored: the actions are, one row each, committed before anyone hears of
them, and a table is rebuilt by replaying them from its seed. A finished game's record is stored
as JSON text.

The schema is alembic's (``cardroom/web/migrations``): the store upgrades a database to the
newest revision when it opens it, and adopts a database made before alembic by stamping it
(:func:`migrate`). A new table is a class below plus a revision file in ``migrations/versions``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    create_engine,
    event,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy import (
    text as sql,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import (
    Session,
    selectinload,
    sessionmaker,
)

from cardroom.web.database import (
    CORE_TABLES,
    HEAD,
    MIGRATIONS,
    AdvisoryLock,
    DatabaseDamaged,
    DatabaseInUse,
    ServerLock,
    migrate,
    named_file,
    opened_file,
)
from cardroom.web.schema import (
    ActionRow,
    Base,
    ClosureRow,
    CreatorRow,
    DeckRow,
    DepartureRow,
    PrivateRow,
    RematchRow,
    SeatRow,
    TableRow,
)

__all__ = ["Store", "TableData", "SeatData", "Base", "DatabaseInUse", "DatabaseDamaged", "ServerLock",
           "AdvisoryLock", "SeatTaken", "PrivateRow", "migrate", "HEAD", "MIGRATIONS"]

log = logging.getLogger("cardroom.web")


@dataclass
class SeatData:
    seat: int
    kind: str
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None


@dataclass
class TableData:
    """A table as stored (its actions only when asked for)."""

    id: str
    game: str
    players: int
    rules: dict[str, Any]
    deck: str | None
    upload: str | None
    deck_info: dict[str, Any] | None
    seed: int
    timer: float | None
    status: str
    created: float
    finished: float | None
    seats: list[SeatData]
    actions: list[int] = field(default_factory=list)
    creator_hash: str | None = None
    """The hash of the creator's token (the creator's seat token when the creator sat)."""
    left: dict[int, int] = field(default_factory=dict)
    """Seats whose player left the running game: the number of actions taken when they left."""
    closed_after: int | None = None
    """When the creator closed the running game: the number of actions taken by then."""
    rematch: str | None = None
    """The id of this finished table's rematch, once someone asked for it."""
    private: bool = False
    """Kept out of the lobby's list: found by its link only."""


class SeatTaken(Exception):
    """The seat was taken in the database already (by another server of a cluster that held the
    table a moment ago): it is not granted twice."""


class Store:
    """The database of one server.

    A SQLite file is locked for the life of the store (:class:`ServerLock`), a PostgreSQL
    database by an advisory lock (:class:`AdvisoryLock`): a second server on it raises
    :class:`DatabaseInUse` before touching it; a damaged database (an empty file, a table
    dropped) raises :class:`DatabaseDamaged`. Other databases are not locked: running one
    server per database is then up to whoever starts them (docs/web.md). The schema is
    brought up to date on opening (:func:`migrate`).
    """

    def __init__(self, url: str, shared: bool = False) -> None:
        """``shared``: several servers of a cluster use the database (cardroom.web.cluster, which
        gives each table one owner): it is not locked to this one."""
        connect_args: dict[str, Any] = {}
        if url.startswith("sqlite"):
            connect_args["check_same_thread"] = False
        # PostgreSQL: a pooled connection is checked before use, so a database restarted under
        # the server costs the next request nothing.
        pre_ping = not url.startswith("sqlite")
        self.engine: Engine = create_engine(url, connect_args=connect_args, pool_pre_ping=pre_ping)
        self._lock: ServerLock | None = None
        self._advisory: AdvisoryLock | None = None
        self._autocommit: Engine | None = None
        """PostgreSQL: the same pool, each statement its own transaction (``add_action``)."""
        try:
            if self.engine.dialect.name == "postgresql":
                self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
            if self.engine.dialect.name == "postgresql" and not shared:
                self._advisory = AdvisoryLock(self.engine.url)
            if self.engine.dialect.name == "sqlite":
                named = named_file(self.engine.url)
                empty = named is not None and named.is_file() and named.stat().st_size == 0
                file = opened_file(self.engine)
                if file is not None:
                    self._lock = ServerLock(file)
                    if empty:
                        raise DatabaseDamaged(
                            f"the database {file} is an empty file, not a Cardroom database: its "
                            "tables are gone. Restore it from a copy, or delete it to start afresh")
                event.listen(self.engine, "connect", _sqlite_pragmas)
            self._check_tables()
            self.migrated = migrate(self.engine)
        except BaseException:
            self.close()
            raise
        self._session = sessionmaker(self.engine, expire_on_commit=False)

    def _check_tables(self) -> None:
        """A database that holds Cardroom's tables holds all of those it always had: one dropped
        (``actions``, say) would deal every running game again from the start."""
        have = set(inspect(self.engine).get_table_names())
        missing = [name for name in CORE_TABLES if name not in have]
        if "tables" in have and missing:
            where = self._lock.path if self._lock is not None else self.engine.url.render_as_string()
            raise DatabaseDamaged(
                f"the database {where} has lost its table {missing[0]!r} (it has "
                f"{', '.join(sorted(have & set(CORE_TABLES)))}): its games cannot be rebuilt. "
                "Restore it from a copy, or give this server another --db or --data")

    def close(self) -> None:
        self.engine.dispose()
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        if self._advisory is not None:
            self._advisory.release()
            self._advisory = None

    def ping(self) -> bool:
        """Whether the database answers a query now (the server's readiness)."""
        try:
            with self.engine.connect() as c:
                c.execute(sql("SELECT 1"))
        except DBAPIError:
            return False
        return True

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        try:
            with self._session() as session, session.begin():
                yield session
        except DBAPIError:
            # A connection that failed may stay broken once the cause is gone (SQLite opens a
            # read-only file read-only for the connection's life): the next write opens anew.
            self.engine.dispose()
            raise

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """A transaction in Core statements, committed on leaving, failing as :meth:`_tx` does."""
        try:
            with self.engine.begin() as c:
                yield c
        except DBAPIError:
            self.engine.dispose()
            raise

    # -- writing -----------------------------------------------------------------------

    def add_deck(self, digest: str, name: str, text: str, now: float) -> None:
        with self._tx() as s:
            if s.get(DeckRow, digest) is None:
                s.add(DeckRow(digest=digest, name=name, text=text, created=now))

    def add_table(self, table: TableData) -> None:
        with self._tx() as s:
            _add_table(s, table)

    def add_rematch(self, old_id: str, table: TableData) -> None:
        """Store ``table`` as the rematch of the finished table ``old_id``, in one transaction."""
        with self._tx() as s:
            _add_table(s, table)
            row = s.get(RematchRow, old_id)
            if row is None:
                s.add(RematchRow(table_id=old_id, rematch_id=table.id))
            else:  # the earlier rematch was closed before it began
                row.rematch_id = table.id

    def free_seat(self, table_id: str, seat: int) -> None:
        """A player leaves a table that still waits: the seat is free again."""
        with self._tx() as s:
            row = s.get(SeatRow, (table_id, seat))
            assert row is not None
            row.name = None
            row.token_hash = None

    def leave_seat(self, table_id: str, seat: int, after: int) -> None:
        """A player leaves a running game after ``after`` actions: their token no longer holds
        the seat, and a stand-in plays it to the end."""
        with self._tx() as s:
            row = s.get(SeatRow, (table_id, seat))
            assert row is not None
            row.token_hash = None
            s.add(DepartureRow(table_id=table_id, seat=seat, after=after))

    def close_table(self, table_id: str, after: int, now: float, record: dict[str, Any]) -> None:
        """The creator closes a running game after ``after`` actions: it ends abandoned, its
        record (the game so far) kept."""
        with self._tx() as s:
            table = s.get(TableRow, table_id)
            assert table is not None
            table.status = "over"
            table.finished = now
            table.record = json.dumps(record, separators=(",", ":"))
            s.add(ClosureRow(table_id=table_id, after=after))

    def drop_waiting(self, table_id: str) -> None:
        """Forget a table that never started (it has no actions)."""
        with self._tx() as s:
            row = s.get(TableRow, table_id)
            if row is not None and row.status == "waiting":
                for kind in (CreatorRow, PrivateRow):
                    done = s.get(kind, table_id)
                    if done is not None:
                        s.delete(done)
                s.flush()
                s.delete(row)

    def seat_bots(self, table_id: str, bots: dict[int, str], status: str) -> None:
        """Bots take the free seats ``bots`` names (seat: bot spec); ``status`` is the table's
        status after it. Only seats free in the database are given: :class:`SeatTaken` when
        one is not (nothing changed)."""
        with self._tx() as s:
            for seat, bot in bots.items():
                given = s.execute(
                    update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat,
                                          SeatRow.token_hash.is_(None), SeatRow.kind == "human")
                    .values(kind="bot", bot=bot, name=None).execution_options(synchronize_session=False))
                if given.rowcount != 1:  # type: ignore[attr-defined]
                    raise SeatTaken(f"seat {seat} of table {table_id} is taken")
            table = s.get(TableRow, table_id)
            assert table is not None
            table.status = status

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str, status: str) -> None:
        """A person takes a seat; ``status`` is the table's status after it. Only a seat free
        in the database is taken: :class:`SeatTaken` when it is not (nothing changed)."""
        with self._tx() as s:
            taken = s.execute(
                update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat,
                                      SeatRow.token_hash.is_(None))
                .values(name=name, token_hash=token_hash).execution_options(synchronize_session=False))
            if taken.rowcount != 1:  # type: ignore[attr-defined]
                raise SeatTaken(f"seat {seat} of table {table_id} is taken")
            table = s.get(TableRow, table_id)
            assert table is not None
            table.status = status

    def add_action(
        self, table_id: str, seq: int, seat: int, action: int, text: str, by: str, now: float,
        record: dict[str, Any] | None = None,
    ) -> None:
        """Write one action (and, when it ended the game, the record), committed on return."""
        # Core statements, not the ORM: this runs on the event loop for every action of every
        # table, and the ORM's unit of work cost more than the rest of an action together.
        row = {"table_id": table_id, "seq": seq, "seat": seat, "action": action, "text": text, "by": by,
               "at": now}
        if record is None and self._autocommit is not None:
            # One statement, atomic alone: sent without BEGIN and COMMIT, one round trip to
            # PostgreSQL instead of three.
            try:
                with self._autocommit.connect() as c:
                    c.execute(_INSERT_ACTION, row)
            except DBAPIError:
                self.engine.dispose()
                raise
            return
        with self._write() as c:
            c.execute(_INSERT_ACTION, row)
            if record is not None:
                text = json.dumps(record, separators=(",", ":"))
                c.execute(_FINISH_TABLE.where(TableRow.id == table_id),
                          {"status": "over", "finished": now, "record": text})

    def finish(self, table_id: str, now: float, record: dict[str, Any]) -> None:
        """End a table's game where it stands (nobody plays it any more), keeping its record."""
        text = json.dumps(record, separators=(",", ":"))
        with self._write() as c:
            c.execute(_FINISH_TABLE.where(TableRow.id == table_id),
                      {"status": "over", "finished": now, "record": text})

    # -- reading -----------------------------------------------------------------------

    def deck_text(self, digest: str) -> str | None:
        with self._session() as s:
            row = s.get(DeckRow, digest)
            return None if row is None else row.text

    def tables(self, with_actions: bool = False) -> list[TableData]:
        """Every table, oldest first; the actions of the unfinished ones when asked."""
        with self._session() as s:
            ids = s.scalars(select(TableRow.id).order_by(TableRow.created)).all()
            out = []
            for table_id in ids:
                # One by one: a row that cannot be read (bad JSON in it, say) is left out with a
                # log line instead of keeping the server from starting.
                try:
                    out.append(_data(s.get_one(TableRow, table_id)))
                except (ValueError, TypeError, DBAPIError) as err:
                    s.rollback()
                    log.error("table %s cannot be read from the database and is left out: %s",
                              table_id, err)
            _add_people(s, {t.id: t for t in out})
            if with_actions:
                for table in out:
                    if table.status != "over":
                        table.actions = self.actions(table.id, s)
            return out

    def table(self, table_id: str) -> TableData | None:
        """One table as :meth:`tables` reads it (its actions when unfinished); ``None`` when
        there is no such table."""
        with self._session() as s:
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            data = _data(row)
            _add_people(s, {data.id: data}, table_id)
            if data.status != "over":
                data.actions = self.actions(data.id, s)
            return data

    def several(self, table_ids: Sequence[str]) -> dict[str, TableData]:
        """The tables among ``table_ids`` the database holds, as :meth:`table` reads each, in a
        few queries for them all (a server taking over a dead one's tables reads many at once)."""
        if not table_ids:
            return {}
        ids = list(table_ids)
        with self._session() as s:
            rows = s.scalars(select(TableRow).options(selectinload(TableRow.seats))
                             .where(TableRow.id.in_(ids))).all()
            found = {row.id: _data(row) for row in rows}
            _add_people(s, found, among=ids)
            unfinished = [t for t, data in found.items() if data.status != "over"]
            for table_id in unfinished:
                found[table_id].actions = []
            if unfinished:
                for table_id, action in s.execute(
                        select(ActionRow.table_id, ActionRow.action).where(ActionRow.table_id.in_(unfinished))
                        .order_by(ActionRow.table_id, ActionRow.seq)):
                    found[table_id].actions.append(action)
            return found

    def status(self, table_id: str) -> str | None:
        """A table's status (``waiting``, ``running``, ``over``); ``None``: no such table."""
        with self._session() as s:
            return s.scalar(select(TableRow.status).where(TableRow.id == table_id))

    def unfinished(self) -> list[str]:
        """The ids of the tables whose game is not over, oldest first."""
        with self._session() as s:
            return list(s.scalars(select(TableRow.id).where(TableRow.status != "over")
                                  .order_by(TableRow.created)).all())

    def existing(self, table_ids: Sequence[str]) -> set[str]:
        """Which of ``table_ids`` the database holds."""
        if not table_ids:
            return set()
        with self._session() as s:
            return set(s.scalars(select(TableRow.id).where(TableRow.id.in_(list(table_ids)))).all())

    def actions(self, table_id: str, session: Session | None = None) -> list[int]:
        """A table's actions in order."""
        if session is None:
            with self._session() as s:
                return self.actions(table_id, s)
        rows: Sequence[int] = session.scalars(
            select(ActionRow.action).where(ActionRow.table_id == table_id).order_by(ActionRow.seq)
        ).all()
        return list(rows)

    def record(self, table_id: str) -> str | None:
        """A finished game's record as JSON text."""
        with self._session() as s:
            return s.scalar(select(TableRow.record).where(TableRow.id == table_id))


_INSERT_ACTION = insert(ActionRow)
_FINISH_TABLE = update(TableRow)


def _data(row: TableRow) -> TableData:
    return TableData(
        id=row.id, game=row.game, players=row.players, rules=dict(row.rules), deck=row.deck,
        upload=row.upload, deck_info=None if row.deck_info is None else dict(row.deck_info),
        seed=row.seed, timer=row.timer,
        status=row.status, created=row.created, finished=row.finished,
        seats=[SeatData(x.seat, x.kind, x.bot, x.name, x.token_hash) for x in row.seats],
    )


def _add_table(session: Session, table: TableData) -> None:
    session.add(TableRow(
        id=table.id, game=table.game, players=table.players, rules=table.rules,
        deck=table.deck, upload=table.upload, deck_info=table.deck_info,
        seed=table.seed, timer=table.timer, status=table.status, created=table.created,
        seats=[SeatRow(seat=x.seat, kind=x.kind, bot=x.bot, name=x.name, token_hash=x.token_hash)
               for x in table.seats],
    ))
    if table.creator_hash is not None or table.private:
        session.flush()  # the table row first: the rows below refer to it
    if table.creator_hash is not None:
        session.add(CreatorRow(table_id=table.id, token_hash=table.creator_hash))
    if table.private:
        session.add(PrivateRow(table_id=table.id))


def _add_people(session: Session, tables: dict[str, TableData], only: str | None = None,
                among: Sequence[str] | None = None) -> None:
    """Fill in what people did to each table: its creator, who left, a closure, a rematch,
    whether it is private (``only``: the rows of that one table are read; ``among``: of those
    tables)."""
    def rows(kind: Any) -> Any:
        query = select(kind)
        if only is not None:
            query = query.where(kind.table_id == only)
        elif among is not None:
            query = query.where(kind.table_id.in_(list(among)))
        return session.scalars(query)

    for creator in rows(CreatorRow):
        if creator.table_id in tables:
            tables[creator.table_id].creator_hash = creator.token_hash
    for departure in rows(DepartureRow):
        if departure.table_id in tables:
            tables[departure.table_id].left[departure.seat] = departure.after
    for closure in rows(ClosureRow):
        if closure.table_id in tables:
            tables[closure.table_id].closed_after = closure.after
    for rematch in rows(RematchRow):
        if rematch.table_id in tables:
            tables[rematch.table_id].rematch = rematch.rematch_id
    for private in rows(PrivateRow):
        if private.table_id in tables:
            tables[private.table_id].private = True


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    # NORMAL in WAL mode: a commit survives the process dying (SIGKILL, a crash) without an
    # fsync each; only a power cut or a system crash can lose the last commits (docs/web.md).
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
