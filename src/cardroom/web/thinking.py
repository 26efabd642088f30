"""Where the web table's search bots think: a bounded pool of worker processes.

A search bot (ISMCTS) thinks for a second or more per move in pure Python. In a thread of the
server it would hold the interpreter lock and slow every table's updates; in a worker process
it only takes its share of the CPU. The server pickles the position and the bot's spec to a
worker, the worker answers an action, and the server still takes it through its one path
(``TableManager._take``), so a worker can never change a game itself.

Turns wait in two queues: bots at tables with people go first, then bot-only tables, first
come first served (each table has at most one turn waiting, so this is round-robin over
tables). Workers run at a lower scheduling priority than the server, so people's tables keep
the CPU they need while the bots search.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from cardroom.agents import make, parse_spec
from cardroom.engine import State
from cardroom.match import choose

__all__ = ["SEARCH_BOTS", "BotPool", "is_search_bot"]

log = logging.getLogger("cardroom.web")

SEARCH_BOTS = frozenset({"ismcts"})
"""Bots that think long enough to need a worker process; the others move inline."""
WORKER_NICENESS = 10
"""How much lower a worker's scheduling priority is than the server's."""


def is_search_bot(spec: str) -> bool:
    return parse_spec(spec)[0] in SEARCH_BOTS


def _lower_priority() -> None:
    os.nice(WORKER_NICENESS)


def _think(spec: str, seed: int, state: State, seat: int) -> int:
    """In a worker: the action the bot ``spec`` chooses for ``seat`` (checked: an illegal
    choice is an ``AgentError``, as in every front)."""
    name, options = parse_spec(spec)
    return choose(make(name, seed=seed, **options), state, seat)


_Job = tuple[asyncio.Future[int], tuple[str, int, State, int]]


class BotPool:
    """``workers`` processes shared by every search bot of the server, started on first use."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"bot workers must be 1 or more, not {workers}")
        self.workers = workers
        self._busy = 0
        self._executor: ProcessPoolExecutor | None = None
        self._queues: tuple[deque[_Job], deque[_Job]] = (deque(), deque())
        """Turns waiting: at tables with people, then at bot-only tables."""

    @property
    def waiting(self) -> int:
        return sum(len(q) for q in self._queues)

    async def act(self, spec: str, seed: int, state: State, seat: int, people: bool) -> int:
        """The bot's action, once a worker is free and has thought; cancelling the caller
        gives up its place in the queue (a worker already thinking finishes and is ignored)."""
        waiter: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        job: _Job = (waiter, (spec, seed, state, seat))
        queue = self._queues[0 if people else 1]
        queue.append(job)
        self._dispatch()
        try:
            return await waiter
        except asyncio.CancelledError:
            for k, waiting in enumerate(queue):
                if waiting[0] is waiter:
                    del queue[k]
                    break
            raise

    def close(self) -> None:
        for queue in self._queues:
            while queue:
                queue.popleft()[0].cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._busy < self.workers:
            queue = next((q for q in self._queues if q), None)
            if queue is None:
                return
            waiter, args = queue.popleft()
            if waiter.done():
                continue
            if self._executor is None:
                self._executor = ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_lower_priority,
                )
            self._busy += 1
            try:
                done = self._executor.submit(_think, *args)
            except BrokenProcessPool:
                self._busy -= 1
                self._executor = None  # a worker died: the next turn starts a new pool
                waiter.set_exception(RuntimeError("the bot worker pool broke; it starts again"))
                continue
            done.add_done_callback(self._on_done(loop, waiter, self._executor))

    def _on_done(
        self, loop: asyncio.AbstractEventLoop, waiter: asyncio.Future[int], executor: ProcessPoolExecutor
    ) -> Callable[[Future[int]], None]:
        """A worker's answer is taken on the event loop (the executor calls back from a thread)."""

        def back(done: Future[int]) -> None:
            with contextlib.suppress(RuntimeError):  # the server stopped: nobody waits
                loop.call_soon_threadsafe(self._finished, done, waiter, executor)

        return back

    def _finished(
        self, done: Future[int], waiter: asyncio.Future[int], executor: ProcessPoolExecutor
    ) -> None:
        self._busy -= 1
        error = None if done.cancelled() else done.exception()
        if isinstance(error, BrokenProcessPool) and self._executor is executor:
            log.error("a bot worker process died; the pool starts again")
            executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        if not waiter.done():
            if done.cancelled():
                waiter.cancel()
            elif error is not None:
                waiter.set_exception(error)
            else:
                waiter.set_result(done.result())
        self._dispatch()

    def __repr__(self) -> str:
        return f"BotPool(workers={self.workers}, busy={self._busy}, waiting={self.waiting})"
