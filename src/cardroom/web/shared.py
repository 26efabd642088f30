"""The bounds per address of a cluster's servers, counted over every node in Redis: the table
quotas (:class:`SharedQuota`), the open connections (:class:`SharedGate`) and the sign-in
limits (:class:`SharedAttempts`). See :mod:`cardroom.web.cluster`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from cardroom.web.accounts import Attempts
from cardroom.web.guard import CREATES_PER_MINUTE, ConnectionGate, TableQuota, client_address
from cardroom.web.leases import Leases

__all__ = ["SharedQuota", "SharedGate", "SharedAttempts"]

log = logging.getLogger("cardroom.web")

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
        except RedisError:  # Redis away: no table can be made anyway (RedisDirectory.claim)
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


