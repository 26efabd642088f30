"""Costly requests bounded per address and per server: a pace per client address, and a pool
of worker processes for work too large for the event loop.

A :class:`Pace` lets each address ``rate`` requests a second after a burst of ``burst``: a
request past that waits for its turn (without costing the server anything meanwhile) up to
``most_wait`` seconds; one that would wait longer is refused. A refusal is answered after a
pause (:data:`REFUSAL_PAUSE`), so a client that asks again at once, whatever the answer said,
cannot keep the server busy refusing it.

A :class:`WorkerPool` runs module-level functions in ``workers`` processes of their own (started
on first use, at a lower scheduling priority than the server, ending with it), so that parsing a
deck of hundreds of kilobytes holds neither the event loop nor the interpreter lock the tables
need. It holds at most ``workers + waiting`` jobs (past that, refused), and at most
``per_address`` of one address; a job running past ``seconds`` is stopped (its worker killed
and started again).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from cardroom.web.guard import client_address
from cardroom.web.refusal import Refusal

__all__ = ["Refused", "Pace", "WorkerPool", "REFUSAL_PAUSE", "WORKER_NICENESS"]

log = logging.getLogger("cardroom.web")

REFUSAL_PAUSE = 1.0
"""Seconds a request over its address's bounds waits before it is refused."""
WORKER_NICENESS = 10
"""How much lower a worker's scheduling priority is than the server's."""

T = TypeVar("T")


class Refused(Refusal):
    """A request over a bound: its HTTP status, the reason in words, and when to try again."""

    retry_after: float

    def __init__(self, status: int, message: str, retry_after: float) -> None:
        super().__init__(status, message, retry_after)


class Pace:
    """Requests of one kind, per client address: ``rate`` a second after a burst of ``burst``,
    each waiting its turn up to ``most_wait`` seconds (a bucket of tokens that may run into
    debt, so the waiting are served in order)."""

    def __init__(self, what: str, rate: float, burst: int, most_wait: float) -> None:
        self.what = what
        self.rate = rate
        self.burst = burst
        self.most_wait = most_wait
        self._left: dict[str, tuple[float, float]] = {}
        """Per address: tokens left (below zero: owed by requests waiting) and when counted."""

    def _tokens(self, address: str, now: float) -> float:
        left, then = self._left.get(address, (float(self.burst), now))
        return min(float(self.burst), left + (now - then) * self.rate)

    def reserve(self, address: str, now: float) -> float:
        """Take ``address``'s turn: the seconds it waits for it (0: now); :class:`Refused` when
        it would wait longer than ``most_wait``."""
        address = client_address(address)
        left = self._tokens(address, now) - 1.0
        wait = max(0.0, -left / self.rate)
        if wait > self.most_wait:
            again = max(1.0, wait - self.most_wait)
            raise Refused(429, f"this address may {self.what} {self.rate:g} times a second ({self.burst} "
                               f"at once); try again in {again:.0f} s", again)
        self._left[address] = (left, now)
        if len(self._left) > 10_000:  # forget the addresses whose bucket is full again
            for other in [a for a in self._left if self._tokens(a, now) >= self.burst]:
                del self._left[other]
        return wait

    async def take(self, address: str) -> None:
        """Wait for ``address``'s turn; refused (after :data:`REFUSAL_PAUSE`) if it is too far."""
        try:
            wait = self.reserve(address, asyncio.get_running_loop().time())
        except Refused:
            await asyncio.sleep(REFUSAL_PAUSE)
            raise
        if wait > 0:
            await asyncio.sleep(wait)


def _start_worker(server: int) -> None:
    """In a worker: a lower priority than the server's, and an end with it."""
    from cardroom.web.thinking import die_with

    die_with(server)
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)


class WorkerPool:
    """``workers`` processes for work too large for the event loop (see the module)."""

    def __init__(self, what: str, workers: int, waiting: int, per_address: int, seconds: float) -> None:
        if workers < 1:
            raise ValueError(f"a worker pool has 1 worker or more, not {workers}")
        self.what = what
        self.workers = workers
        self.waiting = waiting
        self.per_address = per_address
        self.seconds = seconds
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._jobs = 0
        self._mine: dict[str, int] = {}
        """Jobs waiting or under way, by address."""

    @property
    def jobs(self) -> int:
        """Jobs waiting or under way now."""
        return self._jobs

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker, initargs=(os.getpid(),))
        return self._pool

    async def run(self, address: str, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a worker (``work`` a module-level function, ``args`` picklable);
        :class:`Refused` when the pool or ``address`` holds its most jobs already, or the job
        ran past ``seconds``."""
        address = client_address(address)
        if self._mine.get(address, 0) >= self.per_address:
            await asyncio.sleep(REFUSAL_PAUSE)
            raise Refused(429, f"this address has {self.per_address} {self.what} under way, the most it "
                               "may have; wait for their answers", 1.0)
        if self._jobs >= self.workers + self.waiting:
            await asyncio.sleep(REFUSAL_PAUSE)
            raise Refused(503, f"the server has {self._jobs} {self.what} under way, its most; try again "
                               "in a moment", 2.0)
        self._jobs += 1
        self._mine[address] = self._mine.get(address, 0) + 1
        try:
            pool = self._executor()
            future = asyncio.get_running_loop().run_in_executor(pool, work, *args)
            try:
                return await asyncio.wait_for(future, self.seconds)
            except TimeoutError:
                log.error("%s ran past %g s; its worker is stopped", self.what, self.seconds)
                self._stop(pool)
                raise Refused(503, f"that took longer than {self.seconds:g} s, the most it may take, and "
                                   "was stopped", 1.0) from None
            except BrokenProcessPool:
                self._stop(pool)
                raise Refused(503, "the server's worker stopped while it worked on that; try again",
                              1.0) from None
        finally:
            self._jobs -= 1
            left = self._mine[address] - 1
            if left:
                self._mine[address] = left
            else:
                del self._mine[address]

    def _stop(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        """End ``pool``'s processes now (a job does not stop on its own); the next job starts a
        new pool."""
        if self._pool is pool:
            self._pool = None
        # The executor has no way to stop a job: its processes are killed (a documented attribute
        # would be better; this one has been there since Python 3.2).
        for process in list(getattr(pool, "_processes", {}).values()):
            with contextlib.suppress(OSError, ValueError):
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        if self._pool is not None:
            self._stop(self._pool)
