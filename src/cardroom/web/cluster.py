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
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import re
import secrets
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from sqlalchemy.exc import IntegrityError

from cardroom.web.accounts import Attempts
from cardroom.web.guard import CREATES_PER_MINUTE, ConnectionGate, TableQuota, client_address
from cardroom.web.live import MAX_QUEUED_BYTES, LiveTable, TableError
from cardroom.web.protocol import error
from cardroom.web.store import SeatTaken, Store, TableData
from cardroom.web.tables import TableManager

__all__ = ["Leases", "ClusterTables", "ClusterRouter", "SharedQuota", "SharedGate", "SharedAttempts",
           "cluster_database", "LEASE_SECONDS", "BEAT", "TICK", "CONFIRM", "LOBBY_EVERY", "FORWARDED"]

log = logging.getLogger("cardroom.web")

LEASE_SECONDS = 1.0
"""How long a lease (and a node's address) lasts unless renewed: five beats, so that a beat late
by most of a second (a busy machine) loses nothing, and a dead node's tables are taken soon."""
BEAT = 0.2
"""Seconds between two renewals of a node's leases (in a thread of its own)."""
TICK = 0.2
"""Seconds between two looks for tables nobody holds."""
CONFIRM = 2 * BEAT
"""Seconds a table must stay without a lease before another node takes it: its owner, alive
(Redis restarted, or its beat came late), renews it in between."""
TAKE_WAIT = 5.0
"""Seconds a request for a table this node is taking waits for it (its game read and rebuilt)."""
MOVE_WAIT = LEASE_SECONDS + TICK + CONFIRM + 1.0
"""Seconds a request for a table whose owner cannot be reached waits for the table to be taken
(its owner died) before it is asked to come again."""
MOVE_LOOK = 0.25
"""Seconds between two looks for such a table."""
LOBBY_EVERY = 0.5
"""Seconds between two writes of this node's tables to the shared lobby."""
REDIS_TIMEOUT = 1.0
"""Seconds a Redis call may take (less than a lease: a renewal that hangs fails in time to be
tried again)."""
FORWARDED = "x-cardroom-forwarded"
"""The header a forwarded request carries (the id of the node that forwarded it): the node it
reaches answers it itself and never forwards it again."""

_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif holder == false then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    lost[#lost + 1] = key
  end
end
return lost
"""
# A lease nobody holds is taken back by the node that still plays the table: after a Redis
# restart (which forgets every lease) each node keeps its tables instead of all changing hands.
_LOCATE = """
local owner = redis.call('GET', KEYS[1])
if not owner then return {} end
return {owner, redis.call('GET', ARGV[1] .. owner)}
"""
_RELEASE = """
local n = 0
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then n = n + redis.call('DEL', key) end
end
return n
"""

_BUDGET = """
local held = redis.call('HMGET', KEYS[1], 'left', 'then')
local most = tonumber(ARGV[2])
local left = tonumber(held[1]) or most
local since = tonumber(held[2]) or tonumber(ARGV[1])
left = math.min(most, left + math.max(0, tonumber(ARGV[1]) - since) * tonumber(ARGV[3]))
left = left - tonumber(ARGV[4])
redis.call('HSET', KEYS[1], 'left', tostring(left), 'then', ARGV[1])
redis.call('EXPIRE', KEYS[1], 120)
return tostring(left)
"""
# An address's creates left (a bucket refilled at CREATES_PER_MINUTE), spending ARGV[4]: as a
# string, since Redis would cut a Lua number to an integer.

_CONNECT = """
local total = 0
local held = redis.call('HGETALL', KEYS[1])
for i = 1, #held, 2 do
  if held[i] == ARGV[1] or redis.call('EXISTS', ARGV[2] .. held[i]) == 1 then
    total = total + tonumber(held[i + 1])
  else
    redis.call('HDEL', KEYS[1], held[i])
  end
end
if total >= tonumber(ARGV[3]) then return -total end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('EXPIRE', KEYS[1], 86400)
return total + 1
"""
# An address's open connections over the nodes (a field per node; a dead node's, whose address
# key ran out, no longer counts): one more unless there are ARGV[3] already (then minus their number).
_DISCONNECT = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0
"""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def cluster_database(url: str) -> str:
    """``url`` if a cluster can share it: PostgreSQL; a ``ValueError`` that says so otherwise."""
    if not url.startswith("postgresql"):
        raise ValueError(f"--redis: the servers of a cluster share one PostgreSQL database "
                         f"(--database postgresql+psycopg://...), not {url.split(':', 1)[0]}; without "
                         "--redis one server serves a SQLite file")
    return url


class Leases:
    """The tables' leases and the nodes' addresses in Redis, for the node ``node``."""

    def __init__(self, url: str, node: str | None = None, prefix: str = "cardroom") -> None:
        import redis

        self.node = node or secrets.token_hex(6)
        self.prefix = prefix
        self.redis = redis.Redis.from_url(url, socket_timeout=REDIS_TIMEOUT,
                                          socket_connect_timeout=REDIS_TIMEOUT, decode_responses=True)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._locate = self.redis.register_script(_LOCATE)
        self.ms = int(LEASE_SECONDS * 1000)

    def key(self, table_id: str) -> str:
        return f"{self.prefix}:lease:{table_id}"

    def ping(self) -> bool:
        """Whether Redis answers now (the server's readiness)."""
        from redis.exceptions import RedisError

        try:
            return bool(self.redis.ping())
        except RedisError:
            return False

    def claim(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it."""
        return bool(self.redis.set(self.key(table_id), self.node, nx=True, px=self.ms))

    def claim_many(self, table_ids: list[str]) -> list[str]:
        """Take the leases nobody holds among ``table_ids``; the ids taken."""
        pipe = self.redis.pipeline(transaction=False)
        for table_id in table_ids:
            pipe.set(self.key(table_id), self.node, nx=True, px=self.ms)
        return [t for t, took in zip(table_ids, pipe.execute(), strict=True) if took]

    def renew(self, table_ids: list[str]) -> set[str]:
        """Renew the leases this node holds among ``table_ids``; the ids of those it lost."""
        if not table_ids:
            return set()
        cut = len(self.prefix) + len(":lease:")
        lost = self._renew(keys=[self.key(t) for t in table_ids], args=[self.node, self.ms])
        return {str(k)[cut:] for k in lost}

    def owners(self, table_ids: list[str]) -> dict[str, str | None]:
        if not table_ids:
            return {}
        values = self.redis.mget([self.key(t) for t in table_ids])
        return {t: None if v is None else str(v) for t, v in zip(table_ids, values, strict=True)}

    def owner_and_address(self, table_id: str) -> tuple[str | None, str | None]:
        """The table's owner and that node's address, in one round trip."""
        found = self._locate(keys=[self.key(table_id)], args=[f"{self.prefix}:node:"])
        owner, address = (found + [None, None])[:2] if found else (None, None)
        return (None if owner is None else str(owner)), (None if address is None else str(address))

    def release(self, table_ids: list[str]) -> None:
        """Let go of the leases this node holds among ``table_ids`` (a clean stop: the others
        take the tables at once instead of after the expiry)."""
        if table_ids:
            self._release(keys=[self.key(t) for t in table_ids], args=[self.node])

    def announce(self, address: str) -> None:
        self.redis.set(f"{self.prefix}:node:{self.node}", address, px=self.ms)

    def leave(self) -> None:
        self.redis.delete(f"{self.prefix}:node:{self.node}")

    def lobby_write(self, summaries: dict[str, str], gone: list[str]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        if summaries:
            pipe.hset(f"{self.prefix}:lobby", mapping=dict[Any, Any](summaries))
        if gone:
            pipe.hdel(f"{self.prefix}:lobby", *gone)
        pipe.execute()

    def lobby(self) -> dict[str, str]:
        return {str(k): str(v) for k, v in self.redis.hgetall(f"{self.prefix}:lobby").items()}

    def close(self) -> None:
        self.redis.close()


class SharedQuota(TableQuota):
    """The table quotas of :class:`cardroom.web.guard.TableQuota`, kept in Redis: a client
    that spreads its creates over the nodes meets the same rate and cap as on one server."""

    def __init__(self, leases: Leases) -> None:
        super().__init__()
        self.leases = leases
        self._budget_script = leases.redis.register_script(_BUDGET)

    def _key(self, what: str, address: str) -> str:
        return f"{self.leases.prefix}:quota:{what}:{address}"

    def owner(self, table_id: str) -> str | None:
        found = self.leases.redis.hget(f"{self.leases.prefix}:quota:owner", table_id)
        return None if found is None else str(found)

    def refusal(self, address: str, unfinished: Any, now: float) -> tuple[str, float] | None:
        from redis.exceptions import RedisError

        try:
            return super().refusal(address, unfinished, now)
        except RedisError:  # Redis away: no table can be made anyway (ClusterTables._new_id)
            return None

    def _mine(self, address: str) -> set[str]:
        return {str(t) for t in self.leases.redis.smembers(self._key("tables", address))}

    def _forget(self, address: str, table_ids: set[str]) -> None:
        if table_ids:
            self.leases.redis.srem(self._key("tables", address), *table_ids)

    def _left(self, address: str, now: float) -> float:
        return self._take(address, now, 0)

    def _take(self, address: str, now: float, spend: int) -> float:
        return float(self._budget_script(keys=[self._key("budget", address)],
                                         args=[now, CREATES_PER_MINUTE, CREATES_PER_MINUTE / 60, spend]))

    def _spend(self, address: str, table_id: str, now: float) -> None:
        self._take(address, now, 1)
        pipe = self.leases.redis.pipeline(transaction=False)
        pipe.sadd(self._key("tables", address), table_id)
        pipe.expire(self._key("tables", address), 86400)
        pipe.hset(f"{self.leases.prefix}:quota:owner", table_id, address)
        pipe.execute()


class SharedGate(ConnectionGate):
    """The connection bounds of :class:`cardroom.web.guard.ConnectionGate`, the per-address one
    shared by every node through Redis: a client that spreads its connections over the nodes
    meets the same bound as on one server.

    A connection this node admits is held unread until Redis has counted it
    among its address's connections on every live node, then read, or refused with ``503`` when
    the address has its most already. The Redis calls run in one thread of their own, in order
    (a connection's count before its discount), never on the event loop, and those that wait
    go together, in one round trip: when many clients connect at once (a node died, and its
    clients all come to this one), none waits on the others' calls one by one. While Redis does
    not answer, connections are let in on this node's own bound (and not counted in Redis).
    """

    def __init__(self, leases: Leases, per_address: int | None = None, total: int | None = None) -> None:
        super().__init__(per_address, total)
        self.leases = leases
        self._connect = leases.redis.register_script(_CONNECT)
        self._disconnect = leases.redis.register_script(_DISCONNECT)
        self._calls: list[tuple[tuple[str, int], Callable[[str | None], None] | None]] = []
        """Counts (with what to call once counted) and discounts (``None``) not yet sent, in order."""
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._closing = False
        self._thread: threading.Thread | None = None
        self._counted: set[tuple[str, int]] = set()
        """The connections counted in Redis (read and written by the worker only)."""
        self._away_until = 0.0
        """Until when (monotonic) Redis is taken for away, after a call that failed."""

    def _key(self, address: str) -> str:
        return f"{self.leases.prefix}:conns:{address}"

    def _send(self, key: tuple[str, int], then: Callable[[str | None], None] | None) -> None:
        with self._lock:
            if self._closing:
                return
            self._calls.append((key, then))
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="cardroom-conns", daemon=True)
                self._thread.start()
        self._wake.set()

    def share(self, address: str, port: int, then: Callable[[str | None], None]) -> bool:
        if self._exempt(address) or time.monotonic() < self._away_until:
            return False
        loop = asyncio.get_running_loop()
        why = (f"this address already has {self.per_address} connections open on these servers; "
               "close some first")

        def counted(total: int) -> None:  # in the worker
            loop.call_soon_threadsafe(then, why if total < 0 else None)

        self._send((client_address(address), port), lambda answer: counted(int(answer or 0)))
        return True

    def closed(self, address: str, port: int) -> None:
        self._send((client_address(address), port), None)

    def _work(self) -> None:
        """The worker: the calls waiting, sent together (a connection counted and gone in the same
        round is discounted in the next, once its count is known)."""
        from redis.exceptions import RedisError

        while True:
            self._wake.wait()
            with self._lock:
                self._wake.clear()
                calls, self._calls = self._calls, []
                closing = self._closing
            if not calls and closing:
                return
            counting = {key for key, then in calls if then is not None}
            later = [(key, then) for key, then in calls if then is None and key in counting]
            batch = [(key, then) for key, then in calls if then is not None or key not in counting]
            sent: list[tuple[tuple[str, int], Callable[[str | None], None] | None]] = []
            pipe = self.leases.redis.pipeline(transaction=False)
            for key, then in batch:
                if then is not None:
                    self._connect(keys=[self._key(key[0])], client=pipe,
                                  args=[self.leases.node, f"{self.leases.prefix}:node:", self.per_address])
                    sent.append((key, then))
                elif key in self._counted:
                    self._counted.discard(key)
                    self._disconnect(keys=[self._key(key[0])], args=[self.leases.node], client=pipe)
                    sent.append((key, None))
            answers: list[Any] = []
            if sent:
                try:
                    answers = pipe.execute()
                except (RedisError, OSError) as err:
                    self._away_until = time.monotonic() + 1.0
                    log.warning("cluster: counting connections in Redis failed: %s", err)
                    answers = [0] * len(sent)
            for (key, then), total in zip(sent, answers, strict=True):
                if then is not None:
                    if int(total) > 0:
                        self._counted.add(key)
                    then(str(total))
            if later:
                with self._lock:
                    self._calls[:0] = later
                self._wake.set()
            elif closing:
                return

    def close(self) -> None:
        with self._lock:
            self._closing = True
            thread = self._thread
        self._wake.set()
        if thread is not None:
            thread.join(5.0)


# An attempt is checked and counted in one script (:meth:`SharedAttempts.take`): attempts made
# at the same moment on several nodes cannot all pass the check before any is counted.
_TAKE_ATTEMPT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  local wait = tonumber(oldest[2]) - tonumber(ARGV[1])
  if wait <= 0 then wait = 0.001 end
  return tostring(wait)
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return '0'
"""
_GIVE_BACK_ATTEMPT = """
local one = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1], 'LIMIT', 0, 1)
if one[1] then redis.call('ZREM', KEYS[1], one[1]) end
return 0
"""


class SharedAttempts(Attempts):
    """Sign-in attempts in a sliding window, like :class:`cardroom.web.accounts.Attempts`, kept
    in Redis (a sorted set of times per key) so that every node counts the same; while Redis does
    not answer, this node's own count (``fallback``) holds."""

    def __init__(self, leases: Leases, what: str, fallback: Attempts) -> None:
        super().__init__(fallback.limit, fallback.window)
        self.leases = leases
        self.what = what
        self.fallback = fallback

    def _key(self, key: str) -> str:
        return f"{self.leases.prefix}:attempts:{self.what}:{key}"

    def wait(self, key: str, now: float) -> float:
        # A look apart from the count would read this node's memory, not the shared count:
        # refused loudly rather than answered wrong (the shared count is taken in one step).
        raise TypeError("a shared count of attempts is taken and given back, not read apart")

    def count(self, key: str, now: float) -> None:
        raise TypeError("a shared count of attempts is taken and given back, not counted apart")

    def take(self, key: str, now: float) -> float:
        from redis.exceptions import RedisError

        try:
            wait = float(self.leases.redis.eval(
                _TAKE_ATTEMPT, 1, self._key(key), now - self.window, self.limit, now,
                f"{now:.6f}:{secrets.token_hex(4)}", int(self.window) + 1))
        except RedisError as err:
            log.warning("cluster: counting a sign-in attempt in Redis failed: %s", err)
            return self.fallback.take(key, now)
        if not wait:
            self.fallback.count(key, now)  # kept here too, for while Redis does not answer
        return wait

    def give_back(self, key: str, now: float) -> None:
        from redis.exceptions import RedisError

        self.fallback.give_back(key, now)
        try:
            self.leases.redis.eval(_GIVE_BACK_ATTEMPT, 1, self._key(key), now)
        except RedisError as err:
            log.warning("cluster: giving back a sign-in attempt in Redis failed: %s", err)


class ClusterTables(TableManager):
    """The tables this node owns, in memory; the others are other nodes' (see the module)."""

    def __init__(self, store: Store, data_dir: Path, bot_delay: float, bot_workers: int,
                 leases: Leases) -> None:
        super().__init__(store, data_dir, bot_delay, bot_workers)
        self.leases = leases
        self.address = ""
        """Where the other nodes reach this one (set once it listens)."""
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
        self.quota = SharedQuota(leases)
        """The table quotas, shared by every node."""
        self._loader = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="cardroom-takeover")
        """Where the games of tables taken are read and rebuilt."""

    # -- owning tables -----------------------------------------------------------------

    def load(self) -> None:
        """Nothing at start: the tables are taken as their leases are (:meth:`tick`)."""

    def start(self) -> None:
        import importlib

        import httpx

        super().start()
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
        await super().stop()
        self._loader.shutdown(wait=False, cancel_futures=True)
        if self.http is not None:
            await self.http.aclose()
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.leases.release, list(self.tables))
            await asyncio.to_thread(self.leases.leave)
        self.leases.close()

    def _new_id(self) -> str:
        from redis.exceptions import RedisError

        while True:
            table_id = super()._new_id()
            try:
                claimed = self.leases.claim(table_id)
            except RedisError:
                raise TableError(503, "the servers' Redis does not answer, so no table can be made "
                                      "now; try again shortly", retry_after=1.0) from None
            if claimed:  # held before it is stored: nobody else takes it
                self.metrics.lease("taken")
                return table_id

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
        unfinished = self.store.unfinished()
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
        found = self.store.several(table_ids)
        built: list[tuple[str, TableData | None, LiveTable | None]] = []
        for table_id in table_ids:
            data = found.get(table_id)
            if data is None or data.status == "over":
                built.append((table_id, data, None if data is None else LiveTable(data, None)))
                continue
            try:
                built.append((table_id, data, self._rebuild(data)))
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
        self.tables[table_id] = table
        self.metrics.lease("taken")
        log.info("cluster: took table %s at seq %d", table_id, table.seq)
        self._kick(table)
        return True

    def drop(self, table_id: str, why: str) -> None:
        """Forget a table this node no longer owns: its bot or timer stops, its connections
        close (their clients connect again and reach the owner)."""
        table = self.tables.pop(table_id, None)
        if table is None:
            return
        with contextlib.suppress(Exception):  # still ours (a refused write): whoever takes it next
            self.leases.release([table_id])   # rebuilds it from the database
        self.metrics.lease("lost")
        log.warning("cluster: dropped table %s: %s", table_id, why)
        if table.task is not None and not table.task.done():
            table.task.cancel()
        for conn in list(table.conns):
            conn.push(error("moved", "this table moved to another server; connecting again"))
            conn.close()

    async def _write_lobby(self) -> None:
        now: dict[str, str] = {}
        for table in self.tables.values():
            now[table.id] = json.dumps(self.summary(table), separators=(",", ":"))
        changed = {k: v for k, v in now.items() if self._lobby.get(k) != v}
        away = [k for k in self._lobby if k not in now]
        gone = []
        if away:
            there = await asyncio.to_thread(self.store.existing, away)
            gone = [k for k in away if k not in there]  # closed before it began, or forgotten
        if changed or gone:
            await asyncio.to_thread(self.leases.lobby_write, changed, gone)
        self._lobby = now

    # -- what a lost race looks like ---------------------------------------------------

    def _refused(self, table: LiveTable, what: str, err: Exception) -> None:
        super()._refused(table, what, err)
        if isinstance(err, IntegrityError):
            # the seq is taken in the database: another node played this table meanwhile
            self.drop(table.id, "the database holds a newer action")

    def join(self, table_id: str, name: str, seat: int | None) -> tuple[int, str]:
        try:
            return super().join(table_id, name, seat)
        except SeatTaken:
            self.drop(table_id, "a seat it offered was taken through another server")
            raise TableError(409, f"that seat of table {table_id} was just taken; look again") from None

    def unfinished(self, table_id: str) -> bool:
        """Whether the table's game goes on, wherever it is held (the lobby says for another
        node's)."""
        if table_id in self.tables:
            return super().unfinished(table_id)
        text = self.leases.redis.hget(f"{self.leases.prefix}:lobby", table_id)
        if text is None:  # not listed yet (made a moment ago), or gone: held means made
            return self.leases.owners([table_id])[table_id] is not None
        try:
            return bool(json.loads(str(text)).get("status") != "over")
        except ValueError:
            return False

    def listing(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        """Summaries from the shared lobby (the tables every node holds), newest first (no private table)."""
        if status not in (None, "over"):
            return super().listing(status, limit)
        from redis.exceptions import RedisError

        summaries: dict[str, dict[str, Any]] = {}
        try:
            shared = self.leases.lobby()
        except RedisError:  # Redis away: this server's own tables
            shared = {}
        for table_id, text in shared.items():
            with contextlib.suppress(ValueError):
                summaries[table_id] = json.loads(text)
        for table in self.tables.values():
            summaries[table.id] = self.summary(table)
        chosen = [s for s in summaries.values()
                  if (s.get("status") == "over") == (status == "over") and not s.get("private")]
        chosen.sort(key=lambda s: float(s.get("created", 0)), reverse=True)
        return chosen[:limit]


_TABLE_PATH = re.compile(r"^/(?:table|replay|api/tables|ws/tables)/([^/]+)")
_HOP = {b"connection", b"keep-alive", b"transfer-encoding", b"upgrade", b"te", b"trailer",
        b"proxy-authorization", b"proxy-authenticate", b"content-length", b"host"}


class ClusterRouter:
    """ASGI middleware: a request for a table another node owns goes to that node."""

    def __init__(self, app: ASGIApp, tables: ClusterTables) -> None:
        self.app = app
        self.tables = tables

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = _TABLE_PATH.match(scope.get("path", "")) if scope["type"] in ("http", "websocket") else None
        if found is None:
            await self.app(scope, receive, send)
            return
        from redis.exceptions import RedisError

        forwarded = any(name == FORWARDED.encode() for name, _ in scope.get("headers", []))
        held = _Held(receive)
        # A table whose owner cannot be reached (it died: its lease runs out, then a node takes
        # it) is waited for, up to MOVE_WAIT, rather than its client sent away to come again.
        end = time.monotonic() + MOVE_WAIT
        while True:
            try:
                where = await self.locate(found.group(1))
            except RedisError:  # Redis away: the tables held here are played on, the others wait
                where = ""
            if where is None:
                await self.app(scope, held.receive, send)
                return
            if where and not forwarded:
                forward = self._forward_http if scope["type"] == "http" else self._forward_ws
                if await forward(where, scope, held, send):
                    return
            if forwarded or held.gone or time.monotonic() >= end:
                # forwarded here, but the table moved on; or its owner is not reachable yet
                await self._busy(scope, held.receive, send)
                return
            await asyncio.sleep(MOVE_LOOK)

    async def locate(self, table_id: str) -> str | None:
        """``None``: answer here (held here, taken now, or no such table); else the owner's
        address, or ``""`` when the owner is not reachable yet."""
        tables = self.tables
        if table_id in tables.tables:
            return None
        leases = tables.leases
        owner, address = await asyncio.to_thread(leases.owner_and_address, table_id)
        if owner is None:
            status = await asyncio.to_thread(tables.store.status, table_id)
            if status is None:
                return None  # no such table: answered here (404)
            if status != "over":
                # This look counts as the tick's: the table is taken once its lease has been
                # missing for CONFIRM (its node, alive, takes it back meanwhile), and the request
                # waits for that rather than being sent away to come again.
                now = time.monotonic()
                first = tables._orphans.setdefault(table_id, now)
                if first + CONFIRM > now:
                    await asyncio.sleep(first + CONFIRM - now)
            if await tables.take(table_id) or await tables.settled(table_id):
                return None
            return ""
        if owner == leases.node:
            if await tables.settled(table_id):
                return None
            if table_id not in tables._taking:  # a lease of ours with no table: let it go
                await asyncio.to_thread(leases.release, [table_id])
            return ""
        return address or ""

    async def _busy(self, scope: Scope, receive: Receive, send: Send, connected: bool = False) -> None:
        if scope["type"] == "websocket":
            if not connected:
                await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 1013,
                        "reason": "the table is moving; connect again"})
            return
        body = b'{"detail":"the table is moving to another server; try again in a moment"}'
        await send({"type": "http.response.start", "status": 503, "headers": [
            (b"content-type", b"application/json"), (b"retry-after", b"1"),
            (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    def _headers(self, scope: Scope) -> list[tuple[str, str]]:
        out = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope.get("headers", [])
               if k not in _HOP and k != b"x-forwarded-for" and not k.startswith(b"sec-websocket")]
        client = scope.get("client")
        if client:  # the owner believes it when this node is among its --forwarded-allow-ips
            out.append(("x-forwarded-for", str(client[0])))
        out.append((FORWARDED, self.tables.leases.node))
        return out

    async def _forward_http(self, where: str, scope: Scope, held: _Held, send: Send) -> bool:
        """The request answered by its table's owner at ``where``; ``False`` if the owner could
        not be reached (nothing was answered)."""
        import httpx

        if self.tables.http is None:
            self.tables.http = httpx.AsyncClient(timeout=30.0)
        chunks = await held.body()
        if chunks is None:
            return True  # the client left
        headers = self._headers(scope)
        host = dict(scope.get("headers", [])).get(b"host")
        if host is not None:  # the browser's Host: the owner checks an Origin against it
            headers.append(("host", host.decode("latin-1")))
        url = where + scope.get("raw_path", scope["path"].encode()).decode("latin-1")
        if scope.get("query_string"):
            url += "?" + scope["query_string"].decode("latin-1")
        try:
            answer = await self.tables.http.request(scope["method"], url, headers=headers,
                                                    content=b"".join(chunks))
        except httpx.TransportError:
            return False
        out = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer.headers.multi_items()
               if k.encode("latin-1") not in _HOP and k.lower() != "content-encoding"]
        out.append((b"content-length", str(len(answer.content)).encode()))
        await send({"type": "http.response.start", "status": answer.status_code, "headers": out})
        await send({"type": "http.response.body", "body": answer.content})
        return True

    async def _forward_ws(self, where: str, scope: Scope, held: _Held, send: Send) -> bool:
        """The WebSocket relayed to and from its table's owner at ``where``; ``False`` if the
        owner could not be reached (nothing was answered)."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, WebSocketException

        first = await held.first()
        if first["type"] != "websocket.connect":
            held.gone = True
            return True
        url = "ws" + where.removeprefix("http") + scope["path"]
        # Origin was checked here (the site guard); the owner sees a program's connection.
        headers = [(k, v) for k, v in self._headers(scope) if k.lower() not in ("origin", "cookie")]
        try:
            # the owner's messages as large as it queues for one client (a client's own are
            # bounded where it connected: the site's WebSocket limit)
            upstream = await connect(url, additional_headers=headers, compression=None, open_timeout=2,
                                     max_size=MAX_QUEUED_BYTES, ping_interval=None, proxy=None)
        except (OSError, TimeoutError, WebSocketException):
            return False
        held.replayed = True  # the connect is answered here: what follows is the client's own
        receive = held.receive
        await send({"type": "websocket.accept"})

        async def down() -> None:
            with contextlib.suppress(ConnectionClosed):
                async for message in upstream:
                    if isinstance(message, str):
                        await send({"type": "websocket.send", "text": message})
                    else:
                        await send({"type": "websocket.send", "bytes": message})

        async def up() -> None:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    return
                data = message.get("text")
                if data is None:
                    data = message.get("bytes")
                if data is not None:
                    try:
                        await upstream.send(data)
                    except ConnectionClosed:
                        return

        tasks = {asyncio.create_task(down()), asyncio.create_task(up())}
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
            client_left = upstream.close_code is None
            with contextlib.suppress(Exception):
                await upstream.close()
        if not client_left:
            # the owner closed it (a code of its own), or died (no code): the client connects again
            code = upstream.close_code if upstream.close_code not in (None, 1005, 1006) else 1012
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": code, "reason": upstream.close_reason or ""})
        return True


class _Held:
    """A request's first messages, read once by the router and given again to whoever answers
    (this node's app, after a wait for a table that was moving)."""

    def __init__(self, receive: Receive) -> None:
        self._receive = receive
        self._held: list[Message] = []
        self.replayed = False
        """The held messages were handed on: ``receive`` reads the client's next."""
        self.gone = False
        """The client left before the request could be answered."""

    async def first(self) -> Message:
        if not self._held:
            self._held.append(await self._receive())
        return self._held[0]

    async def body(self) -> list[bytes] | None:
        """An HTTP request's body in chunks (read once); ``None`` if the client left."""
        while not self._held or self._held[-1].get("more_body", False):
            message = await self._receive()
            self._held.append(message)
            if message["type"] != "http.request":
                self.gone = True
                return None
        return [m.get("body", b"") for m in self._held]

    async def receive(self) -> Message:
        if not self.replayed and self._held:
            message = self._held.pop(0)
            self.replayed = not self._held
            return message
        return await self._receive()
