"""Where the web table's search bots think: a bounded pool of worker processes.

A search bot (ISMCTS) thinks for a second or more per move in pure Python. In a thread of the
server it would hold the interpreter lock and slow every table's updates; in a worker process
it only takes its share of the CPU. The server pickles the position and the bot's spec to a
worker, the worker answers an action, and the server still takes it through its one path
(``TableManager._take``), so a worker can never change a game itself.

Turns wait in one queue: bots at tables where a person is connected now go first, then the
others, first come first served (each table has at most one turn waiting, so this is
round-robin over tables). Who is connected is asked whenever a turn is chosen, so a person who
sits down lifts their table's waiting turn. A turn for people that finds every worker busy
stops a search for a table without people, whose turn goes back to the head of the queue.
Workers run at a lower scheduling priority than the server, so people's tables keep the CPU
they need while the bots search.

Every move is bounded in wall-clock time, whatever the bot's budget says: a search still
running after ``MOVE_SECONDS`` is stopped (its worker is killed and a new one started) and the
turn is a :class:`SearchTimeout`. A search whose turn is given up (the caller is cancelled: the
position moved on, the table closed) is stopped the same way, at once. Workers die with their
server: on Linux the system kills a worker whose server dies (``PR_SET_PDEATHSIG``), and on
every system a worker checks for its server twice a second and ends when it is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from cardroom.agents import make, parse_spec
from cardroom.engine import State
from cardroom.match import choose

__all__ = ["SEARCH_BOTS", "MOVE_SECONDS", "BotPool", "SearchTimeout", "is_search_bot", "die_with"]

log = logging.getLogger("cardroom.web")

SEARCH_BOTS = frozenset({"ismcts"})
"""Bots that think long enough to need a worker process; the others move inline."""
WORKER_NICENESS = 10
"""How much lower a worker's scheduling priority is than the server's."""
MOVE_SECONDS = 10.0
"""The longest a search bot may think on one move, wall clock (twice the ``seconds=5`` a web
table grants: ``iterations`` alone is no time bound, one iteration may take seconds)."""
_WATCH_EVERY = 0.5
"""Seconds between a worker's looks for its server."""
_PR_SET_PDEATHSIG = 1


class SearchTimeout(Exception):
    """A search bot's move ran past ``MOVE_SECONDS`` and was stopped."""


def is_search_bot(spec: str) -> bool:
    return parse_spec(spec)[0] in SEARCH_BOTS


def _think(spec: str, seed: int, state: State, seat: int) -> int:
    """In a worker: the action the bot ``spec`` chooses for ``seat`` (checked: an illegal
    choice is an ``AgentError``, as in every front)."""
    name, options = parse_spec(spec)
    return choose(make(name, seed=seed, **options), state, seat)


def die_with(server: int) -> None:
    """In a worker: end when the server process ``server`` ends, however it ends."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)

    def watch() -> None:  # also where prctl is missing, and for a server gone before it was set
        while os.getppid() == server:
            time.sleep(_WATCH_EVERY)
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()


def _work(jobs: Connection, server: int) -> None:
    """A worker's life: take a job from the server, answer it, until the server goes."""
    die_with(server)
    os.nice(WORKER_NICENESS)
    while True:
        try:
            spec, seed, state, seat = jobs.recv()
        except (EOFError, OSError):  # the server closed its end
            return
        try:
            answer: tuple[str, Any] = ("action", _think(spec, seed, state, seat))
        except Exception as err:  # the server says whose bot failed and plays on
            answer = ("error", err)
        try:
            jobs.send(answer)
        except (EOFError, OSError):
            return
        except Exception as err:  # an exception that cannot be pickled: its words are enough
            jobs.send(("error", RuntimeError(f"{type(err).__name__}: {err}")))


People = Callable[[], bool]
"""Whether a person is connected at the turn's table now (asked whenever turns are chosen)."""
_Job = tuple[asyncio.Future[int], tuple[str, int, State, int], People]


@dataclass
class _Worker:
    process: BaseProcess
    jobs: Connection
    """The server's end of the worker's pipe."""
    waiter: asyncio.Future[int] | None = None
    """The turn it is thinking on (``None``: idle)."""
    job: _Job | None = field(default=None, repr=False)
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)


class BotPool:
    """``workers`` processes shared by every search bot of the server, started on first use."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"bot workers must be 1 or more, not {workers}")
        self.workers = workers
        self._workers: list[_Worker] = []
        self._waiting: deque[_Job] = deque()
        """Turns waiting, first come first; those at tables with a person connected go first."""

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    @property
    def pids(self) -> list[int]:
        """The worker processes alive now."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    async def act(self, spec: str, seed: int, state: State, seat: int, people: bool | People) -> int:
        """The bot's action, once a worker is free and has thought (at most ``MOVE_SECONDS``,
        else :class:`SearchTimeout`). ``people`` says whether a person is connected at the
        table (a function: asked again whenever turns are chosen, so a person who comes while
        the turn waits lifts it). Cancelling the caller gives up its place in the queue, or
        stops its search if a worker has begun it."""
        waiter: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        asks = people if callable(people) else (lambda: people)
        self._waiting.append((waiter, (spec, seed, state, seat), asks))
        self._dispatch()
        try:
            return await waiter
        except asyncio.CancelledError:
            for k, waiting in enumerate(self._waiting):
                if waiting[0] is waiter:
                    del self._waiting[k]
                    break
            for worker in self._workers:
                if worker.waiter is waiter:
                    self._stop(worker)  # nobody waits for this search: stop it now
                    self._dispatch()
                    break
            raise

    def reconsider(self) -> None:
        """Someone came or went: a waiting turn may now be for people, and go first."""
        self._dispatch()

    def close(self) -> None:
        while self._waiting:
            self._waiting.popleft()[0].cancel()
        for worker in list(self._workers):
            self._stop(worker)

    def _next(self) -> _Job | None:
        """The turn to think next: the first at a table with people, else the first."""
        for job in self._waiting:
            if not job[0].done() and job[2]():
                return job
        return next((job for job in self._waiting if not job[0].done()), None)

    def _dispatch(self) -> None:
        while True:
            while self._waiting and self._waiting[0][0].done():
                self._waiting.popleft()
            job = self._next()
            if job is None:
                return
            worker = next((w for w in self._workers if w.waiter is None), None)
            full = worker is None and len(self._workers) >= self.workers
            if full and (not job[2]() or not self._preempt()):
                return
            if worker is None:
                worker = self._start()
            self._waiting.remove(job)
            waiter, args, _people = job
            try:
                worker.jobs.send(args)
            except (OSError, ValueError) as err:  # it died since: the next turn starts another
                self._stop(worker)
                waiter.set_exception(RuntimeError(f"the bot worker could not take the turn: {err}"))
                continue
            worker.waiter, worker.job = waiter, job
            worker.timer = asyncio.get_running_loop().call_later(MOVE_SECONDS, self._too_long, worker)

    def _preempt(self) -> bool:
        """Make room for a turn at a table with people: stop a search for a table without
        (its turn goes back to the head of the queue, to be thought again from the start).
        ``False`` if every worker thinks for people already."""
        worker = next((w for w in self._workers if w.job is not None and not w.job[2]()), None)
        if worker is None or worker.job is None:
            return False
        job = worker.job
        self._stop(worker)
        if not job[0].done():
            self._waiting.appendleft(job)
        return True

    def _start(self) -> _Worker:
        context = multiprocessing.get_context("spawn")
        server_end, worker_end = context.Pipe()
        process = context.Process(target=_work, args=(worker_end, os.getpid()), daemon=True,
                                  name="cardroom-bot")
        process.start()
        worker_end.close()
        worker = _Worker(process, server_end)
        self._workers.append(worker)
        asyncio.get_running_loop().add_reader(server_end.fileno(), self._answered, worker)
        return worker

    def _answered(self, worker: _Worker) -> None:
        """The worker's pipe can be read: its answer, or its end (it died)."""
        try:
            kind, value = worker.jobs.recv()
        except (EOFError, OSError):
            waiter = worker.waiter
            self._stop(worker)
            log.error("a bot worker process died; another starts for the next turn")
            if waiter is not None and not waiter.done():
                waiter.set_exception(RuntimeError("the bot worker died while it thought"))
            self._dispatch()
            return
        waiter = worker.waiter
        worker.waiter = worker.job = None
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None
        if waiter is not None and not waiter.done():
            if kind == "action":
                waiter.set_result(value)
            else:
                waiter.set_exception(value)
        self._dispatch()

    def _too_long(self, worker: _Worker) -> None:
        waiter = worker.waiter
        worker.timer = None
        self._stop(worker)
        if waiter is not None and not waiter.done():
            waiter.set_exception(SearchTimeout(f"the search ran past {MOVE_SECONDS:g} s and was stopped"))
        self._dispatch()

    def _stop(self, worker: _Worker) -> None:
        """End a worker now (SIGKILL: a search does not stop on its own), and forget it."""
        if worker in self._workers:
            self._workers.remove(worker)
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None
        with contextlib.suppress(RuntimeError, ValueError, OSError):  # the loop or pipe is gone
            asyncio.get_running_loop().remove_reader(worker.jobs.fileno())
        with contextlib.suppress(OSError):
            worker.jobs.close()
        with contextlib.suppress(OSError, ValueError, AttributeError):
            worker.process.kill()
            worker.process.join(2.0)
        worker.waiter = worker.job = None

    def __repr__(self) -> str:
        busy = sum(w.waiter is not None for w in self._workers)
        return f"BotPool(workers={self.workers}, busy={busy}, waiting={self.waiting})"
