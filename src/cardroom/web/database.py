"""Whose a database is, and its schema: the lock that makes a database one server's (``flock``
on a SQLite file, an advisory lock on PostgreSQL), the refusals of a database in use or
damaged, and the schema's alembic migrations (:func:`migrate`). The store
(:class:`cardroom.web.store.Store`) opens a database through these.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from sqlalchemy import create_engine, inspect
from sqlalchemy import text as sql
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

__all__ = ["DatabaseInUse", "DatabaseDamaged", "ServerLock", "AdvisoryLock", "migrate", "HEAD", "BASELINE",
           "MIGRATIONS", "CORE_TABLES", "named_file", "opened_file"]

log = logging.getLogger("cardroom.web")


class DatabaseInUse(Exception):
    """Another server holds the database: two would grant the same seat twice."""


class DatabaseDamaged(Exception):
    """The database is not a whole Cardroom database (an empty file, a table dropped): serving
    it would deal the running games again from the start."""


class ServerLock:
    """The lock that makes a SQLite database one server's: ``flock`` on the database file
    itself, held for the life of the process (the system lets it go when the process ends, even
    by SIGKILL). A lock belongs to the file, not to a name of it: another path, a symbolic or a
    hard link, or a ``file:`` URI naming the same file meets the same lock. (SQLite's own locks
    are ``fcntl`` locks, which do not meet ``flock``'s on Linux.)"""

    def __init__(self, database: str) -> None:
        self.path = database
        self._fd = os.open(database, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _flock_holder(os.fstat(self._fd))
            os.close(self._fd)
            by = f" (pid {holder})" if holder is not None else ""
            raise DatabaseInUse(
                f"the database {database} is in use by another Cardroom server{by}; one server "
                "serves a database: stop that one, or give this one another --db or --data"
            ) from None

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing the file lets the lock go
            self._fd = -1


def _flock_holder(stat: os.stat_result) -> int | None:
    """The pid holding a ``flock`` on the file ``stat`` describes, from ``/proc/locks``
    (Linux); ``None`` when it cannot be told."""
    where = f"{os.major(stat.st_dev):02x}:{os.minor(stat.st_dev):02x}:{stat.st_ino}"
    try:
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        parts = line.split()
        if len(parts) > 5 and parts[1] == "FLOCK" and parts[5] == where and parts[4].isdigit():
            return int(parts[4])
    return None


class AdvisoryLock:
    """The lock that makes a PostgreSQL database one server's: a session advisory lock
    (``pg_try_advisory_lock``) on a connection of its own, held for the life of the store. The
    database lets it go when that connection ends, the server's process killed included."""

    KEY = int.from_bytes(b"cardroom", "big")
    """The lock's key in the database: the same for every Cardroom server."""

    def __init__(self, url: Any) -> None:
        self._engine = create_engine(url, poolclass=NullPool)
        self._connection: Connection | None = self._engine.connect()
        try:
            got = self._connection.execute(sql("SELECT pg_try_advisory_lock(:key)"),
                                           {"key": self.KEY}).scalar_one()
            self._connection.commit()
        except BaseException:
            self.release()
            raise
        if not got:
            self.release()
            raise DatabaseInUse(
                f"the database {url.render_as_string(hide_password=True)} is in use by another "
                "Cardroom server; one server serves a database: stop that one, or give this one "
                "another --database")

    def release(self) -> None:
        if self._connection is not None:
            # Unlocked first, in the session: the server ends a closed session's backend (and
            # lets its locks go) a moment after the client has gone, and a store opened again at
            # once must find the database free.
            with contextlib.suppress(DBAPIError):
                self._connection.execute(sql("SELECT pg_advisory_unlock_all()"))
                self._connection.commit()
            self._connection.close()  # the session ends, and its advisory lock with it
            self._connection = None
        self._engine.dispose()


MIGRATIONS = Path(__file__).with_name("migrations")
"""The alembic scripts of the schema (shipped in the package)."""

BASELINE = "0001"
"""The revision of the schema every database made before alembic has at least."""

HEAD = "0008"
"""The newest revision (a test keeps it the head of ``migrations/versions``)."""


def _alembic(connection: Connection) -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def migrate(engine: Engine) -> str:
    """Bring ``engine``'s database to the newest schema, in one transaction: a new database gets
    every table; one from before alembic (Cardroom's tables, no ``alembic_version``) is first
    stamped at the baseline it has, then upgraded (the revisions after it make only what is
    missing). Returns what was done: ``"created"``, ``"adopted"``, ``"upgraded"`` or
    ``"current"``."""
    from alembic import command
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    with engine.begin() as c:
        if engine.dialect.name == "postgresql":
            # Servers of a cluster start together on one database: one migrates, the others
            # wait for its transaction and find the schema current.
            c.execute(sql("SELECT pg_advisory_xact_lock(:key)"), {"key": AdvisoryLock.KEY + 1})
        have = set(inspect(c).get_table_names())
        before = MigrationContext.configure(c).get_current_revision()
        config = _alembic(c)
        known = {script.revision for script in ScriptDirectory.from_config(config).walk_revisions()}
        if before is not None and before not in known:
            raise DatabaseDamaged(
                f"the database {engine.url.render_as_string(hide_password=True)} has the schema "
                f"revision {before!r:.40}, which this Cardroom does not know (it knows "
                f"{', '.join(sorted(known))}): a newer Cardroom made it. Serve it with that "
                "Cardroom, or give this server another --database")
        if before is None and "tables" in have:
            command.stamp(config, BASELINE)
            done = "adopted"
        elif before is None:
            done = "created"
        else:
            done = "current" if before == HEAD else "upgraded"
        command.upgrade(config, "head")
    if done != "current":
        log.info("database schema %s at revision %s", done, HEAD)
    return done


CORE_TABLES = ("tables", "seats", "actions", "decks")
"""The tables every Cardroom database has had from the first: one missing is damage."""


def named_file(url: Any) -> Path | None:
    """The file a SQLite URL names, as best read before opening it (``None``: in memory)."""
    database = url.database or ""
    if not database or database == ":memory:" or url.query.get("mode") == "memory":
        return None
    if database.startswith("file:"):
        database = unquote(database.removeprefix("file:").split("?", 1)[0])
        if database.startswith("//"):  # file://host/path: the path
            database = "/" + database[2:].split("/", 1)[-1]
        if not database or database == ":memory:":
            return None
    return Path(database)


def opened_file(engine: Engine) -> str | None:
    """The file SQLite itself opened for ``engine``'s main database (``None``: in memory),
    whatever path or URI named it."""
    with engine.connect() as c:
        rows = c.exec_driver_sql("PRAGMA database_list").all()
    engine.dispose()
    for _number, name, file in rows:
        if name == "main":
            return str(file) or None
    return None
