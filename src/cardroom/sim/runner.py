"""The one pool: chunks of games played in this process, on local processes, or as Ray tasks.

Tournaments (:mod:`~cardroom.sim.tournament`), duplicate deals (:mod:`~cardroom.sim.duplicate`)
and results tables (:mod:`~cardroom.sim.results`) cut their games into chunks and hand them,
with the function that plays a chunk, to :func:`run_chunks`, which gives the chunks' answers
back in the order the chunks were given, whatever the backend: so what a run writes never
depends on where or on how many processes it ran.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["Backend", "chunk_size", "ray_refusal", "run_chunks"]

Job = TypeVar("Job")
Answer = TypeVar("Answer")


@dataclass(frozen=True)
class Backend:
    """Where the games are played: ``local`` processes (``workers``, 0 = one per core) or a Ray
    cluster (``ray``; ``address`` ``None`` for a local one of ``workers`` CPUs)."""

    workers: int = 0
    ray: bool = False
    address: str | None = None


def chunk_size(jobs: int, workers: int, most: int = 50) -> int:
    """Games in a chunk: about four chunks a worker, at most ``most`` (small chunks keep a
    progress bar moving and a stopped run quick to stop).

    >>> chunk_size(1000, 2), chunk_size(10, 4), chunk_size(100, 1, most=20)
    (50, 1, 20)
    """
    return max(1, min(most, jobs // (workers * 4)))


TOKEN_HELP = ("the cluster's token is the one in the head's ~/.ray/auth_token (`ray get-auth-token` "
              "there prints it): give it in RAY_AUTH_TOKEN or in this machine's ~/.ray/auth_token")
"""Where a machine that joins a cluster with Ray's token authentication finds its token."""


def ray_refusal(address: str, wait: float = 15.0) -> str | None:
    """Why the Ray cluster at ``address`` (``HOST:PORT``, its head's ``--port``) would not take
    this process's tasks, in words, or ``None`` when it would (or when Ray cannot tell).

    One request for the cluster's id, as ``ray.init`` begins, with the authentication
    ``ray.init`` would use: ``ray.init`` itself retries a refusal for about 20 s and then
    raises a traceback. At most ``wait`` seconds (a port that answers but is not a Ray head's
    would hold the request for 40 s).
    """
    try:
        from ray._private.authentication.authentication_token_setup import ensure_token_if_auth_enabled
        from ray._raylet import GcsClient  # type: ignore[attr-defined]
        from ray.exceptions import AuthenticationError
    except ImportError:  # Ray's internals moved: ray.init will tell
        return None
    try:  # as ray.init checks first: a request in token mode without a token aborts the process
        ensure_token_if_auth_enabled(None, create_token_if_missing=False)
    except AuthenticationError:
        return f"RAY_AUTH_MODE=token is set but this machine has no Ray token: {TOKEN_HELP}"
    answers: list[BaseException | None] = []

    def ask() -> None:
        try:
            GcsClient(address=address)  # made, it has asked for the cluster's id
            answers.append(None)
        except Exception as err:
            answers.append(err)

    # on a thread of its own (the request lets go of the interpreter lock), so that a port that
    # never answers as Ray does costs ``wait`` seconds, not Ray's 40
    asking = threading.Thread(target=ask, name="ray-address-check", daemon=True)
    asking.start()
    asking.join(wait)
    if not answers:
        return (f"something answers at {address} but not as a Ray cluster's head within {wait:g} s: "
                "give the port of `ray start --head --port=PORT`")
    err = answers[0]
    if err is None:
        return None
    if not isinstance(err, AuthenticationError):
        return f"the Ray cluster at {address} did not answer: {str(err).splitlines()[0]}"
    if os.environ.get("RAY_AUTH_MODE", "").lower() == "token":
        return (f"the Ray cluster at {address} refused this machine's Ray token (not the cluster's): "
                f"{TOKEN_HELP}")
    return (f"the Ray cluster at {address} asks for Ray's token authentication: set RAY_AUTH_MODE=token "
            f"here (Ray sends a token to a given address only then); {TOKEN_HELP}")


def run_chunks(
    play: Callable[[Job], Answer],
    jobs: Iterable[Job],
    workers: int,
    *,
    ray: bool = False,
    address: str | None = None,
    threads: bool = False,
) -> Generator[Answer]:
    """``play(job)`` for every job, the answers in the jobs' order: here when ``workers`` is 1,
    else on ``workers`` processes (threads with ``threads``: for chunks that play without the
    interpreter lock, the native engine's batches, so no process starts and no answer is
    pickled), or as Ray tasks (``ray``; a cluster at ``address``, or a local one of ``workers``
    CPUs). ``play`` must be a module-level function (it is pickled).

    At most two chunks a worker are in flight, so however fast they are played, the answers
    waiting to be taken stay few (memory stays flat). Closing the generator part-way (a run
    stopped, a failure) cancels the chunks not started.
    """
    if ray:
        return _ray(play, jobs, address, workers)
    return _local(play, jobs, workers, threads)


def _local(play: Callable[[Job], Answer], jobs: Iterable[Job], workers: int,
           threads: bool) -> Generator[Answer]:
    if workers == 1:
        yield from map(play, jobs)
        return
    pool: Executor = ThreadPoolExecutor(workers) if threads else ProcessPoolExecutor(max_workers=workers)
    pending: deque[Future[Answer]] = deque()
    try:
        for job in jobs:
            pending.append(pool.submit(play, job))
            if len(pending) >= 2 * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:  # a run stopped part-way does not wait for the chunks not yet played
        pool.shutdown(cancel_futures=True)


def _ray(play: Callable[[Job], Answer], jobs: Iterable[Job], address: str | None,
         workers: int) -> Generator[Answer]:
    """Chunks played as Ray tasks; a Ray this process already joined is used as it is."""
    import ray

    owned = not ray.is_initialized()
    if owned and address is not None:
        ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
    elif owned:
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.WARNING)
    try:
        remote = ray.remote(play)
        cpus = ray.cluster_resources().get("CPU", workers)  # type: ignore[no-untyped-call]
        window = max(2, 2 * int(cpus))
        pending: list[Any] = []
        # a bounded window of chunks in flight, taken in order: memory stays flat
        for job in jobs:
            pending.append(remote.remote(job))
            if len(pending) >= window:
                yield ray.get(pending.pop(0))
        while pending:
            yield ray.get(pending.pop(0))
    finally:
        if owned:
            ray.shutdown()
