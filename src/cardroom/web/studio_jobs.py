"""The studio's jobs (:data:`JOBS`, one entry per kind of run): each a function of the decks
(one ``Rules`` a version) and the settings that returns a report: ``simulate``, ``compare``,
``restrict`` (restricted play), ``skill`` and ``tune``; each further designer's command is one
more entry. They run in the studio's threads (:class:`cardroom.web.studio.Studio`)."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardroom.engine import Rules
from cardroom.web.studio_forms import TUNE_TOP, RunSettings

__all__ = ["JOBS", "Job", "Work", "Report", "Stopped", "LiveRun", "ENDED"]


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


def _report(work: Work, make: Callable[[], Any]) -> Report:
    """The analysis report ``make()`` builds (``cardroom.analysis.report.Report``) as the studio
    shows it; none for a run stopped meanwhile (:class:`Stopped`, before each costly step)."""
    from rich.console import Console

    from cardroom.analysis.html import render_html
    from cardroom.cli.analyze import print_report

    work.progress(0)
    report = make()
    work.progress(0)
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
    lineup = Lineup.parse(work.settings.agents, rules.players)
    simulate_to(folder, rules, work.settings.games, work.settings.seed, lineup,
                backend=Backend(workers=work.workers), variant=label, progress=work.progress)
    return read_results(folder)


def simulate_job(work: Work) -> Report:
    """``simulate`` then ``analyze``: one version's games and every figure of them."""
    from cardroom.analysis.figures import build_report

    played = _played(work, 0)
    return _report(work, lambda: build_report(played))


def compare_job(work: Work) -> Report:
    """``compare``: the versions played on the same seeds, each against the first."""
    from cardroom.analysis.compare import compare_runs

    runs = [_played(work, i) for i in range(len(work.variants))]
    # Versions of one deck share its name: that is no warning here.
    return _report(work, lambda: compare_runs(runs, [label for label, _ in work.variants], versions=True))


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
    return _report(work, lambda: restricted_report(rules, games=games, seed=work.settings.seed,
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
    return _report(work, lambda: skill_report(reports))


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
    return _report(work, lambda: tune_report(tuned))


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


@dataclass
class LiveRun:
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
        self.ending: str | None = None
        """The status the run ends with, once its thread has decided it (under the studio's lock)."""
        self.ended = threading.Event()
        """Set once the run's end is stored."""

    def stop(self, status: str, why: str) -> None:
        """Ask the run to stop at its next chunk of games: stored as ``status``, ``why`` its error."""
        if not self.cancelled.is_set():
            self.reason = (status, why)
            self.cancelled.set()


ENDED = {"done": "its report is kept", "failed": "it failed", "cancelled": "it was cancelled",
          "stopped": "it was stopped"}
"""What became of a run that ended, in words, by its status."""
