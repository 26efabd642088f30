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

Jobs run through :data:`JOBS`, one entry per kind of job: a function of the decks (one
``Rules`` a version) and the settings that returns a report: ``simulate``, ``compare``,
``restrict`` (restricted play), ``skill`` and ``tune``; each further designer's command is one
more entry.

The bounds (as table creation's, ``guard.TableQuota``): per address, runs waiting or running
(:data:`MAX_RUNS_PER_ADDRESS`) and runs, decks opened and versions saved a minute; per server,
runs waiting or running (:data:`MAX_SERVER_RUNS`), played :data:`RUN_THREADS` at a time off the
event loop; per run, games (:data:`MAX_RUN_GAMES` a deck) and seconds (:data:`MAX_RUN_SECONDS`).
A run can be cancelled by whoever started it (the token its start answered).
"""

from __future__ import annotations

import hashlib
import io
import logging
import re
import secrets
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import JSON, Float, ForeignKey, Integer, String, Text, func, select, update
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker

from cardroom import games
from cardroom.engine import CardroomInputError, Rules
from cardroom.games.contracts import DeckEditing, DeckLimits
from cardroom.web.accounts import Attempts
from cardroom.web.guard import client_address
from cardroom.web.protocol import MAX_DECK_BYTES
from cardroom.web.store import Base, Store

__all__ = [
    "Studio", "StudioError", "JOBS", "Job", "Work", "RunSettings", "DeckForm", "OpenBody", "SaveBody",
    "RunBody", "CancelBody", "MAX_RUN_GAMES", "MAX_RUN_SECONDS", "MAX_RUNS_PER_ADDRESS",
    "MAX_SERVER_RUNS", "RUN_THREADS", "RUNS_PER_MINUTE", "DECKS_PER_MINUTE", "SAVES_PER_MINUTE",
    "MAX_VERSIONS", "STUDIO_AGENTS", "editors",
]

log = logging.getLogger("cardroom.web")

MAX_RUN_GAMES = 2000
"""Games a run may play of each deck version."""
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
MAX_VERSIONS = 500
"""Versions one studio deck may have."""
STUDIO_AGENTS = ("heuristic", "random")
"""Who may play the studio's games: the quick bots (a search bot's games take minutes)."""


class StudioError(Exception):
    """A studio request refused: its HTTP status and the reason in words (``problems``: the
    deck's, each placed at its card and field)."""

    def __init__(self, status: int, message: str, retry_after: float | None = None,
                 problems: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        self.problems = problems


# -- the tables --------------------------------------------------------------------------


class StudioDeckRow(Base):
    """A deck opened in the studio: its versions follow."""

    __tablename__ = "studio_decks"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    """The game whose deck it is (a game of :func:`editors`)."""
    source: Mapped[str] = mapped_column(String(100))
    """Where it came from: a project deck's name, or ``upload``."""
    created: Mapped[float] = mapped_column(Float)


class StudioVersionRow(Base):
    """One saved version of a studio deck: its deck file and what changed from the one before."""

    __tablename__ = "studio_versions"

    deck_id: Mapped[str] = mapped_column(ForeignKey("studio_decks.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    digest: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    changes: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    created: Mapped[float] = mapped_column(Float)


class StudioRunRow(Base):
    """A job played on a studio deck's versions, and its report once finished."""

    __tablename__ = "studio_runs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    deck_id: Mapped[str] = mapped_column(ForeignKey("studio_decks.id", ondelete="CASCADE"), index=True)
    versions: Mapped[list[int]] = mapped_column(JSON)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(10), index=True)
    """``waiting``, ``running``, ``done``, ``failed``, ``cancelled`` or ``stopped``."""
    games: Mapped[int] = mapped_column(Integer)
    """Games the run plays in all (every version's)."""
    played: Mapped[int] = mapped_column(Integer)
    """Games played when it was last stored (a finished run's: all it played)."""
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    report_html: Mapped[str | None] = mapped_column(Text, nullable=True, deferred=True)
    report_text: Mapped[str | None] = mapped_column(Text, nullable=True, deferred=True)
    created: Mapped[float] = mapped_column(Float)
    finished: Mapped[float | None] = mapped_column(Float, nullable=True)


# -- the requests ------------------------------------------------------------------------


def editors() -> dict[str, DeckEditing]:
    """The games the studio edits decks of, by name: each game whose spec has a
    ``deck_editing``, in the registry's order."""
    return {name: games.get(name).load("deck_editing") for name in games.names()
            if games.get(name).deck_editing is not None}


def _widest(found: Sequence[DeckEditing]) -> tuple[DeckLimits, int]:
    """The largest of the games' deck limits, and of their numbers of marks: what a form's
    fields are bounded by before a game's checker (which says its own limits) reads them."""
    limits = [e.limits for e in found]
    widest = DeckLimits(**{name: max((getattr(one, name) for one in limits), default=0)
                           for name in DeckLimits.__dataclass_fields__})
    return widest, max((len(e.marks) for e in found), default=0)


LIMITS, MOST_MARKS = _widest(list(editors().values()))
"""The bounds of the request models (twice each limit for texts: the checker says the limit)."""

TypeName = Annotated[str, Field(max_length=LIMITS.type * 2)]


class StepForm(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    step: str = Field(max_length=40)
    fields: str = Field(default="", max_length=4000)


class ActionForm(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    text: str = Field(default="", max_length=LIMITS.text * 2)
    optional: bool = False
    can_win: bool = True
    on_start: bool = False
    steps: list[StepForm] = Field(default_factory=list, max_length=40)


class CardForm(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    rank: str = Field(max_length=10)
    suit: str = Field(max_length=10)
    name: str = Field(default="", max_length=LIMITS.card_name * 2)
    types: list[TypeName] = Field(default_factory=list, max_length=LIMITS.types)
    marks: list[Annotated[str, Field(max_length=20)]] = Field(default_factory=list, max_length=MOST_MARKS)
    copies: int = 1
    action: ActionForm = Field(default_factory=ActionForm)


class DeckForm(BaseModel):
    """A deck as the studio's form sends it (a :class:`~cardroom.games.contracts.DeckEditing`'s form)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(max_length=LIMITS.name * 2)
    description: str = Field(default="", max_length=LIMITS.description * 2)
    types: list[TypeName] = Field(default_factory=list, max_length=LIMITS.types)
    cards: list[CardForm] = Field(max_length=LIMITS.cards)


class OpenBody(BaseModel):
    """``POST /api/studio/decks``: a project deck by name, or a deck file's text, of a game
    (by default the studio's first)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: str | None = Field(default=None, max_length=40)
    project: str | None = Field(default=None, max_length=100)
    deck_toml: str | None = Field(default=None, max_length=MAX_DECK_BYTES)
    deck_file: str | None = Field(default=None, max_length=100)
    """The uploaded file's name, which its problems are told by."""


class SaveBody(BaseModel):
    """``POST /api/studio/decks/{id}/versions``: the edited form, and the version it was made from."""

    model_config = ConfigDict(extra="forbid", strict=True)
    form: DeckForm
    base: int = Field(ge=1, le=MAX_VERSIONS)


MAX_TUNE_TRIALS = 12
"""The most values a studio ``tune`` run tries."""

TUNE_TOP = 2
"""The best values of a studio ``tune`` run played again on fresh seeds (with the deck's own)."""


class RunSettings(BaseModel):
    """How a run plays: games of each version, players, who plays every seat, the first seed."""

    model_config = ConfigDict(extra="forbid", strict=True)
    games: int = Field(default=100, ge=1, le=MAX_RUN_GAMES)
    players: int = Field(default=4, ge=2, le=10)
    agents: Literal["heuristic", "random"] = "heuristic"
    seed: int = Field(default=1, ge=0, le=2**31 - 1)
    param: str | None = Field(default=None, max_length=100)
    """``tune`` only: the number searched, as ``cardroom tune --param`` takes it (``10C.count=1..6``)."""
    target: str | None = Field(default=None, max_length=100)
    """``tune`` only: the goal, as ``cardroom tune --target`` takes it (``decisions=125``)."""
    trials: int = Field(default=6, ge=1, le=MAX_TUNE_TRIALS)
    """``tune`` only: the values tried (each on ``games`` games), before the best are played again."""


class RunBody(BaseModel):
    """``POST /api/studio/runs``: a job of :data:`JOBS` on versions of a studio deck."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: str = Field(max_length=20)
    deck: str = Field(max_length=32)
    versions: list[int] = Field(min_length=1, max_length=8)
    settings: RunSettings = Field(default_factory=RunSettings)


class CancelBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: str = Field(max_length=100)


# -- the jobs ----------------------------------------------------------------------------


class Stopped(Exception):
    """A run stopped before its end: cancelled, or past its time."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Work:
    """What a job is given: each version's label and rules, the settings, a folder of its own
    (removed after), the processes its games may use, and ``progress(games)`` to call as games
    finish (it raises :class:`Stopped` when the run is cancelled or out of time)."""

    variants: Sequence[tuple[str, Rules]]
    settings: RunSettings
    folder: Path
    workers: int
    progress: Callable[[int], None]


@dataclass(frozen=True)
class Report:
    """A job's answer: the report as an HTML fragment (no script, no style element: the page's
    style sheet draws it) and as text."""

    html: str
    text: str


@dataclass(frozen=True)
class Job:
    """One kind of run: its name, title, how many versions it plays, and the function."""

    kind: str
    title: str
    about: str
    versions: tuple[int, int]
    run: Callable[[Work], Report]
    games: Callable[[Sequence[tuple[str, Rules]], RunSettings], int] | None = None
    """The games the run plays in all (its progress bar's length); ``None``: the settings' games
    for each version."""


_PLOTTING = threading.Lock()
"""matplotlib's pyplot is not thread-safe: one report is drawn at a time."""


def _report(report: Any) -> Report:
    """The analysis report (``cardroom.analysis.report.Report``) as the studio shows it."""
    from rich.console import Console

    from cardroom.analysis.html import render_html
    from cardroom.cli.analyze import print_report

    with _PLOTTING:
        page = render_html(report)
    body = page.split("<body>", 1)[1].rsplit("</body>", 1)[0]
    console = Console(record=True, file=io.StringIO(), width=120, color_system=None)
    print_report(console, report)
    return Report(html=body, text=console.export_text())


def _played(work: Work, index: int) -> Any:
    """Version ``index``'s games, written as results into the job's folder, and read back."""
    from cardroom.analysis.folder import read_results
    from cardroom.sim.results import Backend, simulate_to
    from cardroom.sim.tournament import Lineup

    label, rules = work.variants[index]
    folder = work.folder / f"v{index + 1}"
    lineup = Lineup.parse(work.settings.agents, rules.to_dict()["players"])
    simulate_to(folder, rules, work.settings.games, work.settings.seed, lineup,
                backend=Backend(workers=work.workers), variant=label, progress=work.progress)
    return read_results(folder)


def simulate_job(work: Work) -> Report:
    """``simulate`` then ``analyze``: one version's games and every figure of them."""
    from cardroom.analysis.figures import build_report

    return _report(build_report(_played(work, 0)))


def compare_job(work: Work) -> Report:
    """``compare``: the versions played on the same seeds, each against the first."""
    from cardroom.analysis.compare import compare_runs

    runs = [_played(work, i) for i in range(len(work.variants))]
    # Versions of one deck share its name: that is no warning here.
    return _report(compare_runs(runs, [label for label, _ in work.variants], versions=True))


def _restrictions(rules: Any) -> int:
    """The restricted line-ups of ``cardroom restrict`` on these rules: none, each card, each
    optional action."""
    cards = list(rules.cards)
    return 1 + len(cards) + sum(1 for card in cards if card.optional)


def restrict_job(work: Work) -> Report:
    """``restrict``: every card (and optional action) forbidden to one seat, on the same seeds."""
    from cardroom.analysis.restrict import restricted_report

    _, rules = work.variants[0]
    games = work.settings.games
    return _report(restricted_report(rules, games=games, seed=work.settings.seed,
                                     agents_text=work.settings.agents,
                                     progress=lambda done: work.progress(done * games)))


SKILL_RUNGS = {"base": 25, "doublings": 2}
"""The studio's skill ladder: random, heuristic, ISMCTS at 25, 50 and 100 iterations (and the
registered agents of ``cardroom.sim.skill.EXTRA_RUNGS``), bounded for a run of the server."""


def _skill_rungs() -> list[str]:
    from cardroom.sim.skill import skill_rungs

    return skill_rungs(**SKILL_RUNGS)


def _skill_games(variants: Sequence[tuple[str, Rules]], settings: RunSettings) -> int:
    from cardroom.sim.skill import games_of_skill

    return sum(games_of_skill(rules, _skill_rungs(), settings.games) for _, rules in variants)


def skill_job(work: Work) -> Report:
    """``skill``: each rung of the ladder of budgets against the one below, on duplicate deals
    (the settings' games are deals), for each version."""
    from cardroom.cli.skill import skill_report
    from cardroom.sim.skill import run_skill

    reports = []
    for label, rules in work.variants:
        report = run_skill(rules, _skill_rungs(), work.settings.games, work.settings.seed,
                           workers=work.workers, progress=work.progress)
        report["variant"] = label
        reports.append(report)
    return _report(skill_report(reports))


def _tune_games(variants: Sequence[tuple[str, Rules]], settings: RunSettings) -> int:
    """A tune run's games: each trial's (no more trials than the range has values), then the
    re-test of the best and of the deck's own value (counted when the run ends)."""
    from cardroom.analysis.tune import TuneError, parse_param

    trials = settings.trials
    if settings.param:
        try:
            param = parse_param(variants[0][1].game, settings.param)
            trials = min(trials, param.high - param.low + 1)
        except TuneError:
            pass  # the job refuses it in words
    return (trials + TUNE_TOP + 1) * settings.games


def tune_job(work: Work) -> Report:
    """``tune``: one number of the version searched toward one target (``settings.param`` and
    ``settings.target``, as ``cardroom tune`` reads them), the best re-tested on fresh seeds."""
    from cardroom.analysis.tune import TuneError, parse_goal, parse_param, tune, tune_report

    settings = work.settings
    if not settings.param or not settings.target:
        raise TuneError("tune needs settings.param (a number of the deck, 10C.count=1..6) and "
                        "settings.target (decisions=125, length=3, seats=0.05, spread=2)")
    _, rules = work.variants[0]
    game = rules.game
    param, goal = parse_param(game, settings.param), parse_goal(game, settings.target)
    if not param.deck:
        raise TuneError(f"the studio tunes a number of the deck (CARD.FIELD=LO..HI), not the rules "
                        f"option {param.name!r}; rules options are tuned by cardroom tune")
    made: Any = rules  # a studio version's rules: its deck by digest, its text in deck_files
    text = made.deck_files[0]
    base = {"deck": made.deck, "deck_files": [text], "players": settings.players}
    done = [0]

    def trial_played(trials: int) -> None:
        done[0] += trials * settings.games
        work.progress(trials * settings.games)

    tuned = tune(game, [param], [goal], base=base, deck_text=text, agents=settings.agents,
                 trials=settings.trials, games=settings.games, retest_games=settings.games, top=TUNE_TOP,
                 seed=settings.seed, workers=work.workers, progress=trial_played)
    work.progress(_tune_games(work.variants, settings) - done[0])  # the re-tests
    return _report(tune_report(tuned))


JOBS: dict[str, Job] = {
    job.kind: job
    for job in (
        Job("simulate", "Simulate and analyze",
            "Plays one version's games and reports every figure of them (cardroom simulate --out, "
            "then cardroom analyze).", (1, 1), simulate_job),
        Job("compare", "Compare versions",
            "Plays two or more versions on the same seeds and reports each one's differences from "
            "the first, paired by seed (cardroom compare).", (2, 4), compare_job),
        Job("restrict", "Restricted play",
            "Plays one version with each card (and each optional action) forbidden to one seat, "
            "on the same seeds as free games, and ranks the cards by what they are worth "
            "(cardroom restrict).", (1, 1), restrict_job,
            lambda variants, settings: _restrictions(variants[0][1]) * settings.games),
        Job("skill", "Skill depth",
            "Plays random, heuristic and ISMCTS at 25, 50 and 100 iterations, each rung against "
            "the one below on duplicate deals (the games are deals), and fits the trend: how much "
            "skill matters with each version (cardroom skill).", (1, 4), skill_job, _skill_games),
        Job("tune", "Tune a number",
            "Searches one number of a version (its param, e.g. 10C.count=1..6) toward a target "
            "(e.g. decisions=125), plays the best values again on fresh seeds and gives the change "
            "to make (cardroom tune).", (1, 1), tune_job, _tune_games),
    )
}
"""The studio's jobs by kind. A designer's command joins the studio as one entry: its
``run(work)`` plays ``work.variants`` with ``work.settings``, calls ``work.progress`` as games
finish, and returns a :class:`Report`."""


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
        self.engine = store.engine  # its tables are made by the store's migrations (0004_studio)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        self.workers = workers
        self.pool = ThreadPoolExecutor(RUN_THREADS, thread_name_prefix="studio-run")
        self.lock = threading.Lock()
        self.opened = Attempts(DECKS_PER_MINUTE, 60.0)
        self.saved = Attempts(SAVES_PER_MINUTE, 60.0)
        self.started = Attempts(RUNS_PER_MINUTE, 60.0)
        self.live: dict[str, _Live] = {}
        """The runs waiting or running in this process."""
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

    def problems(self, editing: DeckEditing, err: Exception) -> StudioError:
        """A deck refused by a game's checker: its words, and its problems at their fields."""
        return StudioError(400, str(err), problems=editing.where_problems(err))

    def open(self, body: OpenBody, address: str) -> dict[str, Any]:
        """A new studio deck from a project deck or a deck file, as its version 1."""
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
        try:
            editing.form_of(text, where)
        except editing.error as err:
            raise self.problems(editing, err) from None
        deck_id = secrets.token_urlsafe(9)
        deck = editing.parse(text, where)
        now = time.time()
        with self._session() as s, s.begin():
            s.add(StudioDeckRow(id=deck_id, game=game, source=source, created=now))
            s.flush()
            s.add(StudioVersionRow(deck_id=deck_id, number=1, name=deck.name, digest=deck.digest, text=text,
                                   changes=[], created=now))
        return self.deck(deck_id)

    def check(self, form: DeckForm, game: str | None = None) -> dict[str, Any]:
        """The deck checker's word on a form of ``game``'s (``None``: the studio's first): its
        problems by card and field, else its cards as the table draws them."""
        _, editing = self.editor(game)
        try:
            text = editing.checked(form.model_dump())
        except editing.error as err:
            return {"ok": False, "problems": editing.where_problems(err), "cards": None}
        deck = editing.parse(text, "the deck")
        if len(text.encode()) > MAX_DECK_BYTES:
            return {"ok": False, "cards": None, "problems": [
                {"card": None, "field": None, "step": None,
                 "message": f"the deck file would be {len(text.encode()) // 1024} KiB; at most "
                            f"{MAX_DECK_BYTES // 1024} KiB"}]}
        return {"ok": True, "problems": [], "cards": deck.cards, "digest": deck.digest,
                "size": deck.size}

    def _deck_row(self, deck_id: str) -> StudioDeckRow:
        row = None
        if _DECK_ID.fullmatch(deck_id):
            with self._session() as s:
                row = s.get(StudioDeckRow, deck_id)
        if row is None:
            raise StudioError(404, f"there is no studio deck {deck_id[:40]!r} here")
        return row

    def deck(self, deck_id: str) -> dict[str, Any]:
        """A studio deck: its versions (newest last, each without its file) and the newest's form."""
        row = self._deck_row(deck_id)
        with self._session() as s:
            versions = s.scalars(select(StudioVersionRow).where(StudioVersionRow.deck_id == deck_id)
                                 .order_by(StudioVersionRow.number)).all()
        newest = versions[-1]
        _, editing = self.editor(row.game)
        return {"id": deck_id, "game": row.game, "source": row.source, "url": f"/studio/decks/{deck_id}",
                "versions": [_version_summary(v) for v in versions],
                "version": newest.number, "form": editing.form_of(newest.text, "the deck"),
                "cards": editing.parse(newest.text, "the deck").cards}

    def _version(self, deck_id: str, number: int) -> StudioVersionRow:
        self._deck_row(deck_id)
        with self._session() as s:
            row = s.get(StudioVersionRow, (deck_id, number))
        if row is None:
            raise StudioError(404, f"the studio deck {deck_id} has no version {number}")
        return row

    def version(self, deck_id: str, number: int) -> dict[str, Any]:
        _, editing = self.editor(self._deck_row(deck_id).game)
        row = self._version(deck_id, number)
        return {**_version_summary(row), "form": editing.form_of(row.text, "the deck"),
                "cards": editing.parse(row.text, "the deck").cards}

    def version_text(self, deck_id: str, number: int) -> tuple[str, str]:
        """A version's deck file and a name for it."""
        row = self._version(deck_id, number)
        return row.text, f"studio-{deck_id}-v{number}.toml"

    def save(self, deck_id: str, body: SaveBody, address: str) -> dict[str, Any]:
        """A new version from an edited form, with what changed from the newest; refused, with
        its problems, when the deck checker refuses it."""
        game, editing = self.editor(self._deck_row(deck_id).game)
        with self._session() as s:
            newest = s.scalar(select(func.max(StudioVersionRow.number))
                              .where(StudioVersionRow.deck_id == deck_id)) or 0
        if body.base != newest:
            raise StudioError(409, f"version {newest} was saved since version {body.base} was opened; "
                                   "open the newest version and make the change again")
        if newest >= MAX_VERSIONS:
            raise StudioError(409, f"this deck has {MAX_VERSIONS} versions, the most; open the newest "
                                   "as a deck of its own (download it, then upload it)")
        form = body.form.model_dump()
        answer = self.check(body.form, game)
        if not answer["ok"]:
            words = "; ".join(p["message"] for p in answer["problems"])
            raise StudioError(400, f"the deck is not valid: {words}", problems=answer["problems"])
        text = editing.checked(form)
        before = self._version(deck_id, newest)
        changes = editing.deck_diff(editing.form_of(before.text, "the deck"),
                                    editing.form_of(text, "the deck"))
        if not changes:
            raise StudioError(400, f"nothing changed from version {newest}: edit a card first")
        self._admit(self.saved, client_address(address), "save a version")
        deck = editing.parse(text, "the deck")
        with self._session() as s, s.begin():
            s.add(StudioVersionRow(deck_id=deck_id, number=newest + 1, name=deck.name, digest=deck.digest,
                                   text=text, changes=changes, created=time.time()))
        return self.deck(deck_id)

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
            live = _Live(run_id, address, _hash(token), total)
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

    def _play(self, job: Job, live: _Live, variants: Sequence[tuple[str, Rules]],
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
        try:
            self._set(live.id, status=status, error=error, played=live.played, finished=time.time(),
                      report_html=report.html if report else None,
                      report_text=report.text if report else None)
        finally:
            with self.lock:
                self.live.pop(live.id, None)

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
        """Cancel a waiting or running run (its token, from its start)."""
        self.run(run_id)
        live = self.live.get(run_id)
        if live is None:
            raise StudioError(409, f"the run {run_id} has finished; there is nothing to cancel")
        if not secrets.compare_digest(live.token_hash, _hash(token)):
            raise StudioError(403, "only whoever started a run may cancel it (with the token its start "
                                   "answered)")
        live.stop("cancelled", "cancelled by whoever started it")
        return self.run(run_id)

    def jobs(self) -> dict[str, Any]:
        """The jobs, settings and bounds, for the page."""
        return {
            "jobs": [{"kind": j.kind, "title": j.title, "about": j.about, "versions": list(j.versions)}
                     for j in JOBS.values()],
            "agents": list(STUDIO_AGENTS), "max_games": MAX_RUN_GAMES, "max_seconds": MAX_RUN_SECONDS,
            "games": [{"name": name, "title": games.get(name).title, "renderer": _renderer(name),
                       "steps": list(e.step_kinds), "marks": list(e.marks), "decks": e.project_decks()}
                      for name, e in self.editing.items()],
        }


@dataclass
class _Live:
    """A run waiting or running in this process."""

    id: str
    address: str
    token_hash: str
    games: int
    played: int = 0
    status: str = "waiting"

    def __post_init__(self) -> None:
        self.cancelled = threading.Event()
        self.reason = ("cancelled", "cancelled")

    def stop(self, status: str, why: str) -> None:
        """Ask the run to stop at its next chunk of games: stored as ``status``, ``why`` its error."""
        if not self.cancelled.is_set():
            self.reason = (status, why)
            self.cancelled.set()


def _renderer(game: str) -> str | None:
    """The game's card faces for the page: its web renderer, as the catalog names it."""
    renderer = games.get(game).web_renderer
    return f"/static/{renderer}" if renderer else None


def _version_summary(row: StudioVersionRow) -> dict[str, Any]:
    return {"number": row.number, "name": row.name, "digest": row.digest, "changes": row.changes,
            "created": row.created}


def open_problems(err: StudioError) -> Mapping[str, Any]:
    """A refusal's JSON: the reason, and the deck's problems by card and field when it has them."""
    return {"detail": str(err), **({"problems": err.problems} if err.problems is not None else {})}
