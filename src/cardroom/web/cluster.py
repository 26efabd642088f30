"""Several ``cardroom serve`` processes on one PostgreSQL database and one Redis (``--redis``).

Each table has one owner at a time, the only process that holds it in memory and plays it:

- **A node** is one server process: a random id, and the address its peers reach it at,
  kept in Redis under ``cardroom:node:<id>`` for ``LEASE_SECONDS``, refreshed every ``BEAT``.
- **A lease** ``cardroom:lease:<table id>`` names the table's owner and expires after
  ``LEASE_SECONDS`` unless renewed. The owner renews the leases of every table it holds each
  ``BEAT``, from a thread of its own so that a busy event loop does not let them run out (a
  script renews only those it still holds); a lease it finds lost (it was paused
  past the expiry, say) makes it drop the table at once. A new table's lease is taken before
  the table is stored. Every ``TICK`` each node looks for unfinished tables nobody holds (their
  owner died: its leases ran out) and takes those still without a lease ``CONFIRM`` after it
  first saw them so (``SET NX``: one node wins each; a node that still plays a table whose
  lease Redis forgot, or whose renewal came late, takes it back in between: ``CONFIRM`` is two
  beats), rebuilding each game from the actions in the database in a thread, off the event
  loop: a table is played again within about ``LEASE_SECONDS + TICK + CONFIRM`` of its owner's
  death (1.6 s). A client that asks for such a table meanwhile waits for it rather than being
  sent away.
- **Routing**: a request or a WebSocket for one table (``/table/ID``, ``/replay/ID``,
  ``/api/tables/ID...``, ``/ws/tables/ID``) that reaches a node that does not own the table is
  forwarded to the owner (HTTP by httpx, the WebSocket relayed message by message), so any
  node answers for any table and the nodes can stand behind any balancer. A table nobody holds
  is taken by the node the request reached: a finished one at once, an unfinished one once the
  last look found it without a lease (until then the request is asked to come again). When the
  owner dies, the relayed WebSocket closes; the client connects again (the table page does by
  itself) and reaches the new owner.
- **Guards in the database**: an action's row is keyed by (table, seq), so an action written at
  a seq that is taken already (a stale owner's, or a move made twice) is refused, and the node
  that tried reloads the table from the database; a seat is granted only while the database
  has it free (:class:`cardroom.web.store.SeatTaken`).
- **The lobby** is shared: each node writes the summaries of the tables it holds to the hash
  ``cardroom:lobby`` (those that changed, each ``LOBBY_EVERY``); ``GET /api/tables`` reads it.
- **Bounds per address** are shared: the table quotas (:class:`SharedQuota`), the open
  connections (:class:`SharedGate`: a hash per address of each node's count, checked and
  counted in one script before the connection's first byte is read) and the sign-in limits
  (:class:`SharedAttempts`). A connection from an address the per-address bound exempts (the
  ``--forwarded-allow-ips``: the other nodes relaying their clients, or a balancer) is not
  counted, so a client whose WebSocket one node relays to another counts once, where it
  connected.

The node's side of this is :class:`RedisDirectory`, the table directory
(:mod:`cardroom.web.directory`) ``create_app`` gives the table manager when its settings name a
Redis; the leases are :mod:`cardroom.web.leases`, the shared bounds :mod:`cardroom.web.shared`
and the router :mod:`cardroom.web.relay`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from cardroom.web.leases import (
    BEAT,
    CONFIRM,
    FORWARDED,
    LEASE_SECONDS,
    LOBBY_EVERY,
    TAKE_WAIT,
    TICK,
    Leases,
    cluster_database,
)
from cardroom.web.live import LiveTable, TableError
from cardroom.web.relay import ClusterRouter
from cardroom.web.shared import SharedAttempts, SharedGate, SharedQuota
from cardroom.web.store import TableData

if TYPE_CHECKING:
    from cardroom.web.tables import TableManager

__all__ = ["Leases", "RedisDirectory", "ClusterRouter", "SharedQuota", "SharedGate", "SharedAttempts",
           "cluster_database", "LEASE_SECONDS", "BEAT", "TICK", "CONFIRM", "LOBBY_EVERY", "FORWARDED"]

log = logging.getLogger("cardroom.web")


class RedisDirectory:
    """A cluster node's table directory: the tables this node owns are in its manager's memory;
    the others are other nodes' (see the module)."""

    def __init__(self, leases: Leases) -> None:
        self.leases = leases
        self.node = leases.node
        self.address = ""
        """Where the other nodes reach this one (set once it listens)."""
        self._manager: TableManager | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._heart: threading.Thread | None = None
        self._stopping = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lobby: dict[str, str] = {}
        """The summaries this node last wrote to the lobby hash."""
        self._taking: set[str] = set()
        self._orphans: dict[str, float] = {}
        """The unfinished tables nobody held at the last look, and when (monotonic) each was
        first seen so."""
        self._lobby_due = 0.0
        self.http: Any = None
        """The client requests are forwarded to the other nodes with (httpx)."""
        self._loader = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="cardroom-takeover")
        """Where the games of tables taken are read and rebuilt."""

    def bind(self, tables: TableManager) -> None:
        self._manager = tables

    @property
    def manager(self) -> TableManager:
        """The table manager this directory places the tables of."""
        assert self._manager is not None, "a directory is bound to its table manager first"
        return self._manager

    @property
    def tables(self) -> dict[str, LiveTable]:
        """The tables this node holds (its manager's)."""
        return self.manager.tables

    # -- owning tables -----------------------------------------------------------------

    def load(self) -> None:
        """Nothing at start: the tables are taken as their leases are (:meth:`tick`)."""

    def start(self) -> None:
        import importlib

        import httpx

        # What relaying needs, made before the node listens: a node started again after a crash
        # relays its first clients at once rather than importing while they wait.
        importlib.import_module("websockets.asyncio.client")
        if self.http is None:
            self.http = httpx.AsyncClient(timeout=30.0)
        self._loop = asyncio.get_running_loop()
        self._heart = threading.Thread(target=self._beat, name="cardroom-leases", daemon=True)
        self._heart.start()
        self._ticker = asyncio.create_task(self._tick_every())

    async def stop(self) -> None:
        self._stopping.set()
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(BaseException):
                await self._ticker
        if self._heart is not None:
            await asyncio.to_thread(self._heart.join, 5.0)

    async def close(self) -> None:
        self._loader.shutdown(wait=False, cancel_futures=True)
        if self.http is not None:
            await self.http.aclose()
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.leases.release, list(self.tables))
            await asyncio.to_thread(self.leases.leave)
        self.leases.close()

    def claim(self, table_id: str) -> bool:
        from redis.exceptions import RedisError

        try:
            claimed = self.leases.claim(table_id)
        except RedisError:
            raise TableError(503, "the servers' Redis does not answer, so no table can be made "
                                  "now; try again shortly", retry_after=1.0) from None
        if claimed:  # held before it is stored: nobody else takes it
            self.manager.metrics.lease("taken")
        return claimed

    async def _tick_every(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception as err:  # Redis or the database away: tried again next tick
                log.warning("cluster: looking for tables failed: %s", err)
            # the next look at the next tick, or sooner when a table found without a lease is due
            now = time.monotonic()
            due = min((first + CONFIRM for t, first in self._orphans.items() if t not in self._taking),
                      default=now + TICK)
            await asyncio.sleep(min(TICK, max(0.01, due - now)))

    def _unheld(self) -> dict[str, str | None]:
        """The owners of the unfinished tables this node does not hold (in a thread)."""
        unfinished = self.manager.store.unfinished()
        return self.leases.owners([t for t in unfinished if t not in self.tables])

    async def tick(self) -> None:
        """Take the tables nobody holds, and write the lobby."""
        # in the takeover's own threads: a crowd of requests for moving tables, each looking its
        # table up in the default executor's threads, does not delay the look that takes them
        owners = await asyncio.get_running_loop().run_in_executor(self._loader, self._unheld)
        # A table is taken when its lease has been missing for CONFIRM: a node still playing it
        # (Redis restarted and forgot every lease, or its beat came late) takes it back in between.
        now = time.monotonic()
        self._orphans = {t: self._orphans.get(t, now) for t, owner in owners.items() if owner is None}
        due = [t for t, first in self._orphans.items() if now - first >= CONFIRM and t not in self._taking]
        if due:
            await self._take_all(due)
        if now >= self._lobby_due:
            self._lobby_due = now + LOBBY_EVERY
            await self._write_lobby()

    async def _take_all(self, table_ids: list[str]) -> list[str]:
        """Take the tables among ``table_ids`` nobody holds, all at once (a dead node's tables are
        many): one claim, then each game read and rebuilt in a thread, and played as soon as it
        is; the ids held now."""
        mine = [t for t in table_ids if t not in self._taking]
        self._taking.update(mine)
        try:
            claimed = await asyncio.to_thread(self.leases.claim_many, mine)
            self._taking.difference_update(set(mine) - set(claimed))
            # in a thread of their own: the default executor stays free for the requests' lookups
            built = await asyncio.get_running_loop().run_in_executor(self._loader, self._load, claimed)
            return [table_id for table_id, data, table in built if self._install(table_id, data, table)]
        finally:
            self._taking.difference_update(mine)

    def _beat(self) -> None:
        """Announce this node and renew its leases every ``BEAT``, in a thread of its own: a
        busy event loop does not let them run out (the process is alive, and its tables are
        played); the leases found lost are dropped on the loop."""
        while True:  # at once first: a table made now is reached through the others at once
            try:
                if self.address:
                    self.leases.announce(self.address)
                lost = self.leases.renew(self._held())
            except Exception as err:  # Redis away: tried again next beat
                log.warning("cluster: renewing leases failed: %s", err)
                lost = set()
            if lost and self._loop is not None:
                self._loop.call_soon_threadsafe(self._lost, lost)
            if self._stopping.wait(BEAT):
                return

    def _held(self) -> list[str]:
        """The ids of the tables held, read from the leases' thread while the loop changes them."""
        while True:
            try:
                return list(self.tables)
            except RuntimeError:  # the dict changed size meanwhile: read again
                continue

    def _lost(self, table_ids: set[str]) -> None:
        for table_id in table_ids:
            self.drop(table_id, "its lease was lost")

    def holds(self, table_id: str) -> bool:
        """Whether this node holds the table now."""
        return table_id in self.tables

    def taking(self, table_id: str) -> bool:
        """Whether this node is taking the table now (its game read and rebuilt)."""
        return table_id in self._taking

    def orphaned(self, table_id: str, now: float) -> float:
        """When (monotonic) the table was first seen without a lease (``now`` if it is now)."""
        return self._orphans.setdefault(table_id, now)

    async def take(self, table_id: str) -> bool:
        """Take the table if nobody holds it (its lease, then its game from the database);
        whether this node holds it now."""
        if table_id in self.tables:
            return True
        if table_id in self._taking:
            return False
        return table_id in await self._take_all([table_id])

    async def settled(self, table_id: str) -> bool:
        """Whether this node holds the table once the taking under way here (if any) is done
        (waited for up to ``TAKE_WAIT``: a request for a table being taken waits for it rather
        than being sent away)."""
        end = time.monotonic() + TAKE_WAIT
        while table_id in self._taking and table_id not in self.tables and time.monotonic() < end:
            await asyncio.sleep(0.02)
        return table_id in self.tables

    def _load(self, table_ids: list[str]) -> list[tuple[str, TableData | None, LiveTable | None]]:
        """Tables whose leases this node just took, as the database has them (read together, in
        a few queries), each game rebuilt from its actions: in a thread."""
        found = self.manager.store.several(table_ids)
        built: list[tuple[str, TableData | None, LiveTable | None]] = []
        for table_id in table_ids:
            data = found.get(table_id)
            if data is None or data.status == "over":
                built.append((table_id, data, None if data is None else LiveTable(data, None)))
                continue
            try:
                built.append((table_id, data, self.manager.rebuild_table(data)))
            except Exception as err:
                log.error("table %s cannot be rebuilt and is left out: %s", table_id, err)
                built.append((table_id, data, None))
        return built

    def _install(self, table_id: str, data: TableData | None, table: LiveTable | None) -> bool:
        """Hold a table whose lease this node just took (:meth:`_load`'s); whether it is held now."""
        if data is None:  # no such table: the lease goes again
            with contextlib.suppress(Exception):
                self.leases.release([table_id])
            return False
        if table is None:
            return False  # the lease stays, unrenewed: it is tried again after it expires
        table.seen = time.time()
        self.manager.hold(table)
        self.manager.metrics.lease("taken")
        log.info("cluster: took table %s at seq %d", table_id, table.seq)
        return True

    def moved(self, table_id: str, why: str) -> bool:
        self.drop(table_id, why)
        return True

    def drop(self, table_id: str, why: str) -> None:
        """Forget a table this node no longer owns: its bot or timer stops, its connections
        close (their clients connect again and reach the owner)."""
        table = self.tables.pop(table_id, None)
        if table is None:
            return
        with contextlib.suppress(Exception):  # still ours (a refused write): whoever takes it next
            self.leases.release([table_id])   # rebuilds it from the database
        self.manager.metrics.lease("lost")
        log.warning("cluster: dropped table %s: %s", table_id, why)
        self.manager.moved_away(table)

    async def _write_lobby(self) -> None:
        now: dict[str, str] = {}
        for table in self.tables.values():
            now[table.id] = json.dumps(self.manager.summary(table), separators=(",", ":"))
        changed = {k: v for k, v in now.items() if self._lobby.get(k) != v}
        away = [k for k in self._lobby if k not in now]
        gone = []
        if away:
            there = await asyncio.to_thread(self.manager.store.existing, away)
            gone = [k for k in away if k not in there]  # closed before it began, or forgotten
        if changed or gone:
            await asyncio.to_thread(self.leases.lobby_write, changed, gone)
        self._lobby = now

    # -- the tables other nodes hold -----------------------------------------------------

    def unfinished(self, table_id: str) -> bool:
        """Whether the game of a table another node holds goes on (the lobby says)."""
        text = self.leases.redis.hget(f"{self.leases.prefix}:lobby", table_id)
        if text is None:  # not listed yet (made a moment ago), or gone: held means made
            return self.leases.owners([table_id])[table_id] is not None
        try:
            return bool(json.loads(str(text)).get("status") != "over")
        except ValueError:
            return False

    def lobby(self) -> dict[str, dict[str, Any]] | None:
        """The shared lobby's summaries (the tables every node holds); while Redis does not
        answer, none (this server's own tables)."""
        from redis.exceptions import RedisError

        summaries: dict[str, dict[str, Any]] = {}
        try:
            shared = self.leases.lobby()
        except RedisError:  # Redis away: this server's own tables
            shared = {}
        for table_id, text in shared.items():
            with contextlib.suppress(ValueError):
                summaries[table_id] = json.loads(text)
        return summaries
