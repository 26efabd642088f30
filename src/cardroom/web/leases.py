"""A cluster node's leases in Redis (:class:`Leases`) and the cluster's timings.

How the servers of a cluster share their tables is told in :mod:`cardroom.web.cluster`.
"""

from __future__ import annotations

import secrets
from typing import Any

__all__ = ["Leases", "cluster_database", "LEASE_SECONDS", "BEAT", "TICK", "CONFIRM", "TAKE_WAIT", "MOVE_WAIT",
           "MOVE_LOOK", "LOBBY_EVERY", "REDIS_TIMEOUT", "FORWARDED"]

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


