"""Where each table lives: the table directory the table manager is given.

The table logic is one class, :class:`cardroom.web.tables.TableManager`; what differs between
one server and a cluster of them is only where each table lives, and that is the directory's:
which tables this server loads and holds (its leases), how a new table's id is held before it
is stored, what happens to a table another server played meanwhile, and what the lobby lists
beside this server's own tables. ``create_app`` chooses one from its settings:
:class:`LocalDirectory` (one server: every table of the database is its own, in memory) or,
with ``redis_url``, :class:`cardroom.web.cluster.RedisDirectory` (a node of a cluster: leases
in Redis, tables taken over from the database when their owner dies, a shared lobby).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from cardroom.web.tables import TableManager

__all__ = ["TableDirectory", "LocalDirectory"]


class TableDirectory(Protocol):
    """Where each table lives, for the table manager that is bound to it (:meth:`bind`)."""

    node: str
    """This server's name among those that hold tables (the holder its leases name)."""
    address: str
    """Where the other servers reach this one (``""``: nobody needs to, or not listening yet)."""

    def bind(self, tables: TableManager) -> None:
        """The tables this directory places (called once, by the table manager it is given to)."""

    def load(self) -> None:
        """The tables this server holds at start, loaded into the manager's memory."""

    def start(self) -> None:
        """The server starts (on the event loop, after the tables' own bots and timers)."""

    async def stop(self) -> None:
        """The server stops: no table is taken or renewed any more (before the tables stop)."""

    async def close(self) -> None:
        """The tables stopped: let go of what this server held."""

    def claim(self, table_id: str) -> bool:
        """Hold a new table's id before it is stored; ``False``: somebody holds it (choose
        another). A :class:`cardroom.web.live.TableError` when no table can be made now."""

    def moved(self, table_id: str, why: str) -> bool:
        """The database shows that another server played the table meanwhile (``why``): let it
        go; whether it was let go (``False``: nobody else plays here, so it was not)."""

    def unfinished(self, table_id: str) -> bool:
        """Whether the game of a table this server does not hold goes on."""

    def lobby(self) -> dict[str, dict[str, Any]] | None:
        """The summaries of the tables every server holds, by id; ``None``: the lobby is this
        server's own tables."""


class LocalDirectory:
    """One server: every table of the database is its own, loaded at start; no lease to keep."""

    node = "local"

    def __init__(self) -> None:
        self.address = ""
        self._tables: TableManager | None = None

    def bind(self, tables: TableManager) -> None:
        self._tables = tables

    def load(self) -> None:
        assert self._tables is not None
        self._tables.load_stored()

    def start(self) -> None:
        """Nothing to look after: the tables are all here."""

    async def stop(self) -> None:
        """Nothing to stop."""

    async def close(self) -> None:
        """Nothing to let go."""

    def claim(self, table_id: str) -> bool:
        return True

    def moved(self, table_id: str, why: str) -> bool:
        return False

    def unfinished(self, table_id: str) -> bool:
        return False

    def lobby(self) -> dict[str, dict[str, Any]] | None:
        return None
