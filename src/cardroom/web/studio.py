"""The designer's studio of the web table: decks opened, edited in forms, saved as versions
with their changes in words, and played on the server (simulate, compare), each run's report
kept at a stable address.

The studio offers every game whose spec has a ``deck_editing``
(:class:`~cardroom.games.contracts.DeckEditing`, loaded through the registry: BAEBAE's today),
and reaches each game through it only: the forms, the checker, the marks and kinds of step,
the project's decks.

What is kept (the store's database, revision 0004): a studio deck (``studio_decks``: an id,
which is its address and the key to save to it, and its game), its versions (``studio_versions``: the deck
file of each, its digest and what changed from the one before) and the runs
(``studio_runs``: the job, the versions and settings it played, its status, and its report as
HTML and text once finished). A run still waiting or running when the server stops is marked
stopped when it starts again: a shared link to a finished run survives restarts.

Jobs run through :data:`JOBS` (:mod:`cardroom.web.studio_jobs`), one entry per kind of job: a
function of the decks (one ``Rules`` a version) and the settings that returns a report:
``simulate``, ``compare``, ``restrict`` (restricted play), ``skill`` and ``tune``; each further
designer's command is one more entry. The requests' models are :mod:`cardroom.web.studio_forms`;
the deck work done in worker processes :mod:`cardroom.web.studio_work`.

The bounds (as table creation's, ``guard.TableQuota``): per address, runs waiting or running
(:data:`MAX_RUNS_PER_ADDRESS`) and runs, decks opened and versions saved a minute; per server,
runs waiting or running (:data:`MAX_SERVER_RUNS`), played :data:`RUN_THREADS` at a time off the
event loop; per run, games (:data:`MAX_RUN_GAMES` a deck) and seconds (:data:`MAX_RUN_SECONDS`).
A run can be cancelled by whoever started it (the token its start answered).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import secrets
import shutil
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import defer, sessionmaker

from cardroom import games
from cardroom.engine import CardroomInputError, Rules
from cardroom.games import GameSpec
from cardroom.games.contracts import DeckEditing
from cardroom.web.accounts import Attempts
from cardroom.web.bounded import Pace, WorkerPool
from cardroom.web.guard import client_address
from cardroom.web.refusal import Refusal
from cardroom.web.schema import StudioDeckRow, StudioRunRow, StudioVersionRow
from cardroom.web.store import Store
from cardroom.web.studio_forms import (
    MAX_RUN_GAMES,
    MAX_VERSIONS,
    CancelBody,
    DeckForm,
    FormInvalid,
    OpenBody,
    RunBody,
    RunSettings,
    SaveBody,
    editors,
)
from cardroom.web.studio_jobs import ENDED, JOBS, Job, LiveRun, Report, Stopped, Work
from cardroom.web.studio_work import check_work, joined, open_work, save_work, view_work

__all__ = [
    "Studio", "StudioError", "JOBS", "Job", "Work", "Report", "RunSettings", "DeckForm", "OpenBody",
    "SaveBody", "RunBody", "CancelBody", "MAX_RUN_GAMES", "MAX_RUN_SECONDS", "MAX_RUNS_PER_ADDRESS",
    "MAX_SERVER_RUNS", "RUN_THREADS", "RUNS_PER_MINUTE", "DECKS_PER_MINUTE", "SAVES_PER_MINUTE",
    "MAX_VERSIONS", "STUDIO_AGENTS", "editors", "FormInvalid", "check_work", "view_work", "open_work",
    "save_work", "DECK_PACE", "DECK_WORKERS", "DECK_JOBS_WAITING", "DECK_JOBS_PER_ADDRESS", "DECK_SECONDS",
    "MAX_KEPT_PER_ADDRESS", "MAX_KEPT_PER_ACCOUNT",
]

log = logging.getLogger("cardroom.web")

MAX_RUN_SECONDS = 120.0
"""Seconds a run may play; past them it stops, and says so."""
MAX_RUNS_PER_ADDRESS = 2
"""Runs one address may have waiting or running."""
RUNS_PER_MINUTE = 10
"""Runs one address may start a minute."""
MAX_SERVER_RUNS = 6
"""Runs the server holds waiting or running, from every address."""
RUN_THREADS = 2
"""Runs played at once (each in a thread of its own, its games in ``workers`` processes)."""
DECKS_PER_MINUTE = 20
"""Decks one address may open or upload a minute."""
SAVES_PER_MINUTE = 60
"""Versions one address may save a minute."""
DECK_PACE = (2.0, 20, 5.0)
"""Deck-sized requests (check, a deck's or a version's form) one address may make: 2 a second
after 20 at once, each waiting its turn up to 5 s (:class:`cardroom.web.bounded.Pace`)."""
DECK_WORKERS = 1
"""Processes the decks are parsed and checked in (off the event loop and the server's lock)."""
DECK_JOBS_WAITING = 8
"""Deck jobs the server holds waiting for a worker, from every address (past them: 503)."""
DECK_JOBS_PER_ADDRESS = 2
"""Deck jobs one address may have waiting or under way (past them: 429)."""
DECK_SECONDS = 30.0
"""The longest one deck job may take (its worker is stopped after)."""
VIEWS_KEPT_BYTES = 32 * 1024 * 1024
"""Bytes of versions' forms and cards kept worked out (a version never changes)."""
MAX_KEPT_PER_ADDRESS = 64 * 1024 * 1024
"""Bytes of deck files (every version) the studio keeps from one client address."""
MAX_KEPT_PER_ACCOUNT = 64 * 1024 * 1024
"""Bytes of deck files (every version) the studio keeps from one account."""
CANCEL_WAIT = 5.0
"""Seconds a cancel waits for its run's thread to stop, to answer the run as it is kept."""
STUDIO_AGENTS = ("heuristic", "random")
"""Who may play the studio's games: the quick bots (a search bot's games take minutes)."""




class StudioError(Refusal):
    """A studio request refused: its HTTP status and the reason in words (``problems``: the
    deck's, each placed at its card and field)."""



def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"


def _kib(size: int) -> str:
    return f"{max(1, size // 1024)} KiB"


# -- the studio --------------------------------------------------------------------------


_DECK_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Studio:
    """The studio of one server: its decks, versions and runs over the store's database, and
    the threads its runs play in."""

    def __init__(self, store: Store, workers: int = 1, shared: bool = False,
                 editing: Mapping[str, DeckEditing] | None = None) -> None:
        """``shared``: the database is a cluster's (``cardroom.web.cluster``), whose other
        servers may be playing runs of their own now: none is marked stopped at start.
        ``editing``: the games whose decks it edits (by default :func:`editors`)."""
        self.editing = dict(editors() if editing is None else editing)
        self.specs = {name: games.get(name) for name in self.editing}  # each asked for once, here
        self.engine = store.engine  # its tables are made by the store's migrations (0004_studio)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        self.workers = workers
        self.pool = ThreadPoolExecutor(RUN_THREADS, thread_name_prefix="studio-run")
        self.lock = threading.Lock()
        self.opened = Attempts(DECKS_PER_MINUTE, 60.0)
        self.saved = Attempts(SAVES_PER_MINUTE, 60.0)
        self.started = Attempts(RUNS_PER_MINUTE, 60.0)
        self.live: dict[str, LiveRun] = {}
        """The runs waiting or running in this process."""
        self.pace = Pace("check a deck or read its form", *DECK_PACE)
        self.work = WorkerPool("deck jobs", DECK_WORKERS, DECK_JOBS_WAITING, DECK_JOBS_PER_ADDRESS,
                               DECK_SECONDS)
        """Where decks are parsed and checked: processes of their own."""
        self._views: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._views_bytes = 0
        if not shared:
            self._stopped_before()

    def _stopped_before(self) -> None:
        """What a server stopped (or killed) left waiting or running stopped with it."""
        with self._session() as s, s.begin():
            s.execute(update(StudioRunRow).where(StudioRunRow.status.in_(("waiting", "running")))
                      .values(status="stopped", finished=time.time(),
                              error="the server stopped before the run finished; start it again"))

    def close(self) -> None:
        """Stop every run (each stops within a chunk of games, and is stored as stopped), then
        let the threads go."""
        with self.lock:
            for live in self.live.values():
                live.stop("stopped", "the server stopped before the run finished; start it again")
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.work.close()

    # -- decks and versions -------------------------------------------------------------

    def _admit(self, attempts: Attempts, address: str, what: str) -> None:
        now = time.time()
        with self.lock:
            wait = attempts.wait(address, now)
            if wait:
                raise StudioError(429, f"this address may {what} {attempts.limit} times a minute; try again "
                                       f"in {int(wait) + 1} s", wait)
            attempts.count(address, now)

    def editor(self, game: str | None) -> tuple[str, DeckEditing]:
        """The game named (``None``: the studio's first) and its deck editing; a game the
        studio does not edit is refused, in words."""
        if not self.editing:
            raise StudioError(404, "no game of this server has decks to edit")
        name = next(iter(self.editing)) if game is None else game
        found = self.editing.get(name)
        if found is None:
            raise StudioError(400, f"the studio does not edit decks of {name!r:.40}; it edits decks of "
                                   f"{', '.join(self.editing)}")
        return name, found

    async def open(self, body: OpenBody, address: str, account: int | None = None) -> bytes:
        """A new studio deck from a project deck or a deck file, as its version 1 (the answer
        of :meth:`deck`, as JSON)."""
        game, editing = self.editor(body.game)
        decks = editing.project_decks()
        listed = ", ".join(decks) or "none"
        if (body.project is None) == (body.deck_toml is None):
            raise StudioError(400, "give one deck: \"project\" (a project deck's name: "
                                   f"{listed}) or \"deck_toml\" (a deck file's text)")
        if body.project is not None:
            if body.project not in decks:
                raise StudioError(400, f"unknown deck {body.project!r:.40}; the project's decks are "
                                       f"{listed} (or upload one as deck_toml)")
            text, source = editing.project_text(body.project), body.project
        else:
            text, source = body.deck_toml or "", "upload"
        where = Path((body.deck_file or "").replace("\\", "/")).name or "deck_toml"
        self._admit(self.opened, client_address(address), "open a deck")
        size = len(text.encode())
        await asyncio.to_thread(self._room, address, account, size)
        kind, found = await self.work.run(address, open_work, game, text, where)
        if kind == "problems":
            words, problems = found
            raise StudioError(400, words, problems=problems)
        name, digest, view = found
        deck_id = secrets.token_urlsafe(9)
        now = time.time()

        def store() -> None:
            with self._session() as s, s.begin():
                s.add(StudioDeckRow(id=deck_id, game=game, source=source, created=now))
                s.flush()
                s.add(StudioVersionRow(deck_id=deck_id, number=1, name=name, digest=digest, text=text,
                                       changes=[], created=now, size=size, address=client_address(address),
                                       account=account))

        await asyncio.to_thread(store)
        self._keep_view((deck_id, 1), view)
        return await self._deck_answer(deck_id, address)

    async def check(self, body: bytes, game: str | None, address: str) -> bytes:
        """The deck checker's word on a form of ``game``'s (``None``: the studio's first) sent
        as JSON (:class:`DeckForm`): its problems by card and field, else its cards as the table
        draws them; as JSON. Paced per address, worked out in the deck workers."""
        name, _ = self.editor(game)
        await self.pace.take(address)
        errors, answer = await self.work.run(address, check_work, name, body)
        if errors is not None:
            raise FormInvalid(errors)
        return answer

    def _deck_row(self, deck_id: str) -> StudioDeckRow:
        row = None
        if _DECK_ID.fullmatch(deck_id):
            with self._session() as s:
                row = s.get(StudioDeckRow, deck_id)
        if row is None:
            raise StudioError(404, f"there is no studio deck {deck_id[:40]!r} here")
        return row

    def exists(self, deck_id: str) -> None:
        """Nothing if the studio deck ``deck_id`` is kept here; a 404 in words if not."""
        self._deck_row(deck_id)

    def _versions(self, deck_id: str) -> tuple[StudioDeckRow, list[StudioVersionRow]]:
        """A deck and its versions, oldest first, each without its deck file."""
        row = self._deck_row(deck_id)
        with self._session() as s:
            versions = s.scalars(select(StudioVersionRow).options(defer(StudioVersionRow.text))
                                 .where(StudioVersionRow.deck_id == deck_id)
                                 .order_by(StudioVersionRow.number)).all()
        return row, list(versions)

    async def deck(self, deck_id: str, address: str) -> bytes:
        """A studio deck, as JSON: its versions (newest last, each without its file) and the
        newest's form and cards. Paced per address; the form is worked out in the deck workers
        (once a version: kept after)."""
        await self.pace.take(address)
        return await self._deck_answer(deck_id, address)

    async def _deck_answer(self, deck_id: str, address: str) -> bytes:
        row, versions = await asyncio.to_thread(self._versions, deck_id)
        newest = versions[-1]
        view = await self._view(address, row.game, deck_id, newest.number)
        head = {"id": deck_id, "game": row.game, "source": row.source, "url": f"/studio/decks/{deck_id}",
                "versions": [_version_summary(v) for v in versions], "version": newest.number}
        return joined(head, view)

    async def _view(self, address: str, game: str, deck_id: str, number: int) -> bytes:
        """The form and cards of version ``number`` (JSON members), kept once worked out: a
        version never changes."""
        key = (deck_id, number)
        view = self._views.get(key)
        if view is not None:
            self._views.move_to_end(key)
            return view
        text = (await asyncio.to_thread(self._version, deck_id, number)).text
        view = await self.work.run(address, view_work, game, text)
        self._keep_view(key, view)
        return view

    def _keep_view(self, key: tuple[str, int], view: bytes) -> None:
        self._views[key] = view
        self._views_bytes += len(view)
        while self._views_bytes > VIEWS_KEPT_BYTES and self._views:
            _, old = self._views.popitem(last=False)
            self._views_bytes -= len(old)

    def _version(self, deck_id: str, number: int) -> StudioVersionRow:
        self._deck_row(deck_id)
        with self._session() as s:
            row = s.get(StudioVersionRow, (deck_id, number))
        if row is None:
            raise StudioError(404, f"the studio deck {deck_id} has no version {number}")
        return row

    async def version(self, deck_id: str, number: int, address: str) -> bytes:
        """One version, as JSON: its summary, form and cards (paced, as :meth:`deck`)."""
        await self.pace.take(address)
        game = (await asyncio.to_thread(self._deck_row, deck_id)).game

        def summary() -> dict[str, Any]:
            with self._session() as s:
                row = s.scalars(select(StudioVersionRow).options(defer(StudioVersionRow.text))
                                .where(StudioVersionRow.deck_id == deck_id,
                                       StudioVersionRow.number == number)).first()
            if row is None:
                raise StudioError(404, f"the studio deck {deck_id} has no version {number}")
            return _version_summary(row)

        head = await asyncio.to_thread(summary)
        return joined(head, await self._view(address, game, deck_id, number))

    def version_text(self, deck_id: str, number: int) -> tuple[str, str]:
        """A version's deck file and a name for it."""
        row = self._version(deck_id, number)
        return row.text, f"studio-{deck_id}-v{number}.toml"

    def _room(self, address: str, account: int | None, size: int) -> None:
        """Refused (in words) when ``size`` more bytes of deck files would take ``address`` or
        ``account`` past what it may keep in the studio."""
        address = client_address(address)
        with self._session() as s:
            kept = s.scalar(select(func.coalesce(func.sum(StudioVersionRow.size), 0))
                            .where(StudioVersionRow.address == address)) or 0
            mine = 0 if account is None else s.scalar(
                select(func.coalesce(func.sum(StudioVersionRow.size), 0))
                .where(StudioVersionRow.account == account)) or 0
        for who, most, held in (("this address", MAX_KEPT_PER_ADDRESS, kept),
                                ("this account", MAX_KEPT_PER_ACCOUNT, mine)):
            if held + size > most:
                raise StudioError(409, f"{who} keeps {_mib(held)} of studio decks and may keep {_mib(most)}: "
                                       f"this {_kib(size)} would go past it. Work on in the decks and "
                                       "versions it has (a deck file can be downloaded and opened "
                                       "elsewhere)")

    async def save(self, deck_id: str, body: bytes, address: str, account: int | None = None) -> bytes:
        """A new version from an edited form (:class:`SaveBody`, as JSON), with what changed
        from the newest; refused, with its problems, when the deck checker refuses it. The
        answer is :meth:`deck`'s."""
        row = await asyncio.to_thread(self._deck_row, deck_id)
        game, _ = self.editor(row.game)

        def newest() -> StudioVersionRow:
            with self._session() as s:
                number = s.scalar(select(func.max(StudioVersionRow.number))
                                  .where(StudioVersionRow.deck_id == deck_id)) or 0
            return self._version(deck_id, number)

        before = await asyncio.to_thread(newest)
        kind, found = await self.work.run(address, save_work, game, body, before.text)
        if kind == "invalid":
            raise FormInvalid(found)
        base = found[0]
        if base != before.number:
            raise StudioError(409, f"version {before.number} was saved since version {base} was opened; "
                                   "open the newest version and make the change again")
        if before.number >= MAX_VERSIONS:
            raise StudioError(409, f"this deck has {MAX_VERSIONS} versions, the most; open the newest "
                                   "as a deck of its own (download it, then upload it)")
        if kind == "problems":
            words, problems = found[1:]
            raise StudioError(400, f"the deck is not valid: {words}", problems=problems)
        _, text, name, digest, changes, view = found
        if not changes:
            raise StudioError(400, f"nothing changed from version {before.number}: edit a card first")
        self._admit(self.saved, client_address(address), "save a version")
        size = len(text.encode())
        number = before.number + 1

        def store() -> None:
            self._room(address, account, size)
            with self._session() as s, s.begin():
                s.add(StudioVersionRow(deck_id=deck_id, number=number, name=name, digest=digest, text=text,
                                       changes=changes, created=time.time(), size=size,
                                       address=client_address(address), account=account))

        await asyncio.to_thread(store)
        self._keep_view((deck_id, number), view)
        return await self._deck_answer(deck_id, address)

    # -- runs ---------------------------------------------------------------------------

    def start(self, body: RunBody, address: str) -> dict[str, Any]:
        """A run of a job on versions of a deck, waiting for a thread; its id, address and the
        token that cancels it."""
        job = JOBS.get(body.kind)
        if job is None:
            raise StudioError(400, f"unknown job {body.kind!r:.20}; the jobs are {', '.join(JOBS)}")
        fewest, most = job.versions
        if not fewest <= len(body.versions) <= most:
            count = str(fewest) if fewest == most else f"{fewest} to {most}"
            raise StudioError(400, f"{body.kind} plays {count} versions of the deck, "
                                   f"not {len(body.versions)}")
        if len(set(body.versions)) < len(body.versions):
            raise StudioError(400, f"{body.kind}: give different versions, not {body.versions}")
        game = self._deck_row(body.deck).game
        variants = []
        for number in body.versions:
            row = self._version(body.deck, number)
            try:
                rules = games.make_rules(game, {"deck": row.digest, "deck_files": [row.text],
                                                "players": body.settings.players})
            except CardroomInputError as err:
                raise StudioError(400, f"version {number}: {err}") from None
            variants.append((f"v{number} {row.name}", rules))
        address = client_address(address)
        now = time.time()
        with self.lock:
            mine = [r for r in self.live.values() if r.address == address]
            if len(mine) >= MAX_RUNS_PER_ADDRESS:
                raise StudioError(429, f"this address has {len(mine)} runs waiting or running, the most "
                                       "it may have; wait for one or cancel it", 30.0)
            if len(self.live) >= MAX_SERVER_RUNS:
                raise StudioError(503, f"the server is playing {len(self.live)} runs, its most; try again "
                                       "in a minute", 60.0)
            wait = self.started.wait(address, now)
            if wait:
                raise StudioError(429, f"this address may start {RUNS_PER_MINUTE} runs a minute; try "
                                       f"again in {int(wait) + 1} s", wait)
            self.started.count(address, now)
            run_id = secrets.token_urlsafe(9)
            token = secrets.token_urlsafe(16)
            total = (job.games(variants, body.settings) if job.games is not None
                     else body.settings.games * len(variants))
            live = LiveRun(run_id, address, _hash(token), total)
            self.live[run_id] = live
        try:
            with self._session() as s, s.begin():
                s.add(StudioRunRow(id=run_id, kind=job.kind, deck_id=body.deck, versions=list(body.versions),
                                   settings=body.settings.model_dump(), status="waiting", games=total,
                                   played=0, created=now))
            self.pool.submit(self._play, job, live, variants, body.settings)
        except BaseException:
            with self.lock:
                self.live.pop(run_id, None)
            raise
        return {**self.run(run_id), "token": token}

    def _play(self, job: Job, live: LiveRun, variants: Sequence[tuple[str, Rules]],
              settings: RunSettings) -> None:
        """The run, in a thread of the pool: its report stored, or why it stopped."""
        deadline = time.monotonic() + MAX_RUN_SECONDS

        def progress(games: int) -> None:
            live.played += games
            if live.cancelled.is_set():
                raise Stopped(*live.reason)
            if time.monotonic() > deadline:
                raise Stopped("stopped", f"stopped after {MAX_RUN_SECONDS:.0f} s, the most a run may take; "
                                         "play fewer games")

        folder = Path(tempfile.mkdtemp(prefix="cardroom-studio-"))
        status, error, report = "done", None, None
        try:
            if live.cancelled.is_set():
                raise Stopped(*live.reason)
            self._set(live.id, status="running")
            live.status = "running"
            report = job.run(Work(variants, settings, folder, self.workers, progress))
        except Stopped as err:
            status, error = err.status, str(err)
        except Exception as err:  # a job's failure is the run's, told in words; the server goes on
            log.exception("studio run %s (%s) failed", live.id, job.kind)
            said = str(err).splitlines()[0][:300] if str(err) else type(err).__name__
            status, error = "failed", f"the run failed: {said}"
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        with self.lock:
            # A stop asked before the run ended is what became of it, whatever the job did after
            # (its last games or its report): the cancel's answer said so.
            if live.cancelled.is_set():
                status, error = live.reason
                report = None
            live.ending = status
        try:
            self._set(live.id, status=status, error=error, played=live.played, finished=time.time(),
                      report_html=report.html if report else None,
                      report_text=report.text if report else None)
        finally:
            with self.lock:
                self.live.pop(live.id, None)
            live.ended.set()

    def _set(self, run_id: str, **values: Any) -> None:
        with self._session() as s, s.begin():
            s.execute(update(StudioRunRow).where(StudioRunRow.id == run_id).values(**values))

    def run(self, run_id: str, report: bool = False) -> dict[str, Any]:
        """A run: its job, deck, versions, settings, status and progress; with ``report``, the
        report (HTML and text) once done."""
        row = None
        if _DECK_ID.fullmatch(run_id):
            with self._session() as s:
                row = s.get(StudioRunRow, run_id)
                if row is not None and report:
                    html, text = row.report_html, row.report_text
        if row is None:
            raise StudioError(404, f"there is no studio run {run_id[:40]!r} here")
        live = self.live.get(run_id)
        status = live.status if live is not None else row.status
        played = live.played if live is not None else row.played
        title = JOBS[row.kind].title if row.kind in JOBS else row.kind
        answer = {"id": row.id, "kind": row.kind, "title": title,
                  "deck": row.deck_id, "versions": row.versions, "settings": row.settings, "status": status,
                  "games": row.games, "played": min(played, row.games), "error": row.error,
                  "created": row.created, "finished": row.finished, "url": f"/studio/runs/{row.id}",
                  "deck_url": f"/studio/decks/{row.deck_id}"}
        if report:
            answer["report_html"] = html
            answer["report_text"] = text
        return answer

    def cancel(self, run_id: str, token: str) -> dict[str, Any]:
        """Cancel a waiting or running run (its token, from its start): the run as it ended,
        ``cancelled``; a run that had ended already is refused (409) with what became of it."""
        found = self.run(run_id)
        with self.lock:
            live = self.live.get(run_id)
            if live is not None and not secrets.compare_digest(live.token_hash, _hash(token)):
                raise StudioError(403, "only whoever started a run may cancel it (with the token its "
                                       "start answered)")
            ending = None if live is None else live.ending
            if live is not None and ending is None:
                live.stop("cancelled", "cancelled by whoever started it")
        if live is None or ending is not None:
            status = ending or found["status"]
            raise StudioError(409, f"the run {run_id} had already ended ({status}: "
                                   f"{ENDED.get(status, status)}); there is nothing to cancel")
        # The run is cancelled now, whatever it does next; its thread stops at its next chunk of
        # games. Wait a little for it, so that the answer is the run as it is kept.
        live.ended.wait(CANCEL_WAIT)
        answer = self.run(run_id)
        answer["status"] = "cancelled"
        return answer

    def jobs(self) -> dict[str, Any]:
        """The jobs, settings and bounds, for the page."""
        return {
            "jobs": [{"kind": j.kind, "title": j.title, "about": j.about, "versions": list(j.versions)}
                     for j in JOBS.values()],
            "agents": list(STUDIO_AGENTS), "max_games": MAX_RUN_GAMES, "max_seconds": MAX_RUN_SECONDS,
            "games": [{"name": name, "title": self.specs[name].title, "renderer": _renderer(self.specs[name]),
                       "steps": list(e.step_kinds), "marks": list(e.marks), "decks": e.project_decks()}
                      for name, e in self.editing.items()],
        }


def _renderer(spec: GameSpec) -> str | None:
    """The game's card faces for the page: its web renderer, as the catalog names it."""
    renderer = spec.web_renderer
    return f"/static/{renderer}" if renderer else None


def _version_summary(row: StudioVersionRow) -> dict[str, Any]:
    return {"number": row.number, "name": row.name, "digest": row.digest, "changes": row.changes,
            "created": row.created}


def open_problems(err: StudioError) -> Mapping[str, Any]:
    """A refusal's JSON: the reason, and the deck's problems by card and field when it has them."""
    return {"detail": str(err), **({"problems": err.problems} if err.problems is not None else {})}
