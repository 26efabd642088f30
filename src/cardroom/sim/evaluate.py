"""The evaluation helper: agents against agents on paired duplicate deals, with intervals.

For each pairing of an agent ``a`` with an opponent ``b`` the table is seated ``a, b, a, b, ...``
(a two-player game: ``a, b``) and every deal is played once per rotation of that line-up
(:func:`cardroom.sim.duplicate.run_duplicate`), so each of them plays every seat of every deal.
Every pairing plays the same deals (deal ``i`` has seed ``seed + i`` in all of them), so two
pairings are paired too. Where every agent of a pairing is one the native batch engine plays
(``random``, ``heuristic``), the deals are played natively.

A deal's figure for an agent is its mean points per deal unit (a Baha hand, a BAEBAE round)
over its seats and rotations (lower is better in both games: the spec's ``lower_wins``). For each pairing:

- ``difference``: the mean over deals of ``a``'s figure minus ``b``'s (negative: ``a`` took
  fewer points), with a normal 95% interval and a percentile bootstrap one over deals;
- ``score``: the share of deals ``a`` did better on (a tie counts one half), the figure an
  Elo difference is made from (``elo``: ``400 log10(score / (1 - score))``), both with
  bootstrap intervals over deals;
- ``win_rate``: the share of ``a``'s seat-games it won outright (first place shared counts
  ``1/k``), with a Wilson interval.

>>> from cardroom.games import baha
>>> result = evaluate(baha.Rules(target=1), ["heuristic"], ["random"], deals=4, seed=1, bootstrap=50)
>>> pairing = result.pairings[0]
>>> (pairing.agent, pairing.versus, pairing.deals)
('heuristic', 'random', 4)
>>> pairing.difference.value < 0  # the heuristic takes fewer horns
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardroom.engine import Rules
from cardroom.native import Engine
from cardroom.sim.duplicate import rotations, run_duplicate
from cardroom.sim.report import units
from cardroom.sim.stats import Estimate, mean_ci, wilson
from cardroom.sim.tournament import GameResult, Lineup

__all__ = [
    "Evaluation", "Pairing", "evaluate", "evaluate_pairs", "games_of", "seating", "bootstrap_mean", "elo_of",
    "quantile", "turned", "cpu_time", "BOOTSTRAP",
]

BOOTSTRAP = 1000
"""Bootstrap resamples over deals behind every bootstrap interval, unless told otherwise."""
ELO_BOUND = 800.0
"""The largest Elo difference given: a score of 0 or 1 over a few deals says "far apart", not
"infinitely"; it is shown as this bound."""


@dataclass(frozen=True)
class Pairing:
    """One agent against one opponent over the same duplicate deals (see the module)."""

    agent: str
    versus: str
    deals: int
    agent_points: Estimate
    versus_points: Estimate
    difference: Estimate
    """``agent`` minus ``versus``, points per deal unit, normal 95% interval over deals."""
    difference_bootstrap: Estimate
    """The same mean with a percentile bootstrap 95% interval over deals."""
    score: Estimate
    """The share of deals ``agent`` did better on (ties one half), bootstrap interval."""
    elo: Estimate
    """``score`` as an Elo difference (``agent`` above ``versus``), bootstrap interval."""
    win_rate: Estimate
    versus_win_rate: Estimate
    outcomes: tuple[float, ...] = field(repr=False)
    """Per deal: 1 ``agent`` did better, 0 worse, 0.5 a tie."""
    differences: tuple[float, ...] = field(repr=False)
    """Per deal: ``agent``'s points minus ``versus``'s."""
    games: int = 0
    """Games played: every deal once per rotation."""
    seconds: float = 0.0
    guard_stopped: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "versus": self.versus,
            "deals": self.deals,
            "agent_points": self.agent_points.to_dict(),
            "versus_points": self.versus_points.to_dict(),
            "difference": self.difference.to_dict(),
            "difference_bootstrap": self.difference_bootstrap.to_dict(),
            "score": self.score.to_dict(),
            "elo": self.elo.to_dict(),
            "win_rate": self.win_rate.to_dict(),
            "versus_win_rate": self.versus_win_rate.to_dict(),
            "games": self.games,
            "seconds": round(self.seconds, 3),
            "guard_stopped": self.guard_stopped,
        }


@dataclass(frozen=True)
class Evaluation:
    """Every pairing of one run: the same deals (seeds ``seed .. seed + deals - 1``) for all."""

    game: str
    rules: dict[str, Any]
    deals: int
    seed: int
    unit: str
    pairings: list[Pairing]
    seconds: float
    """Wall-clock time of the whole evaluation."""
    cpu_seconds: float = math.nan
    """CPU time of this process and of the worker processes it waited for (``nan`` where the
    system does not say)."""

    def pairing(self, agent: str, versus: str) -> Pairing:
        """The pairing of ``agent`` against ``versus``; played the other way round, it is
        turned (signs and shares swapped)."""
        for p in self.pairings:
            if (p.agent, p.versus) == (agent, versus):
                return p
            if (p.agent, p.versus) == (versus, agent):
                return turned(p)
        raise KeyError(f"{agent} was not played against {versus}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rules": self.rules,
            "deals": self.deals,
            "seed": self.seed,
            "unit": self.unit,
            "seconds": round(self.seconds, 3),
            "cpu_seconds": None if math.isnan(self.cpu_seconds) else round(self.cpu_seconds, 3),
            "pairings": [p.to_dict() for p in self.pairings],
        }


def seating(agent: str, versus: str, players: int) -> Lineup:
    """The line-up of a pairing: ``agent`` in the even seats, ``versus`` in the odd ones.

    >>> seating("a", "b", 4).specs
    ('a', 'b', 'a', 'b')
    """
    return Lineup(tuple(agent if seat % 2 == 0 else versus for seat in range(players)))


def evaluate(
    rules: Rules,
    agents: Sequence[str],
    against: Sequence[str],
    deals: int,
    seed: int,
    *,
    workers: int = 1,
    bootstrap: int = BOOTSTRAP,
    bootstrap_seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> Evaluation:
    """Every agent of ``agents`` against every one of ``against`` (an agent never against
    itself; a pair met twice is played once) on ``deals`` duplicate deals from ``seed``."""
    pairs: list[tuple[str, str]] = []
    for a in agents:
        for b in against:
            if a != b and (a, b) not in pairs and (b, a) not in pairs:
                pairs.append((a, b))
    return evaluate_pairs(
        rules,
        pairs,
        deals,
        seed,
        workers=workers,
        bootstrap=bootstrap,
        bootstrap_seed=bootstrap_seed,
        progress=progress,
    )


def games_of(rules: Rules, pairs: Sequence[tuple[str, str]], deals: int) -> int:
    """How many games :func:`evaluate_pairs` plays (for a progress bar)."""
    players = rules.players
    return deals * sum(len(rotations(seating(a, b, players))) for a, b in pairs)


def evaluate_pairs(
    rules: Rules,
    pairs: Sequence[tuple[str, str]],
    deals: int,
    seed: int,
    *,
    workers: int = 1,
    bootstrap: int = BOOTSTRAP,
    bootstrap_seed: int = 0,
    progress: Callable[[int], None] | None = None,
    engine: Engine | None = None,
) -> Evaluation:
    """The pairings ``pairs`` (agent, opponent), each on the same ``deals`` duplicate deals, on
    ``engine`` (by default the one chosen now, read once for every pairing)."""
    if deals < 1:
        raise ValueError(f"an evaluation needs 1 deal or more, not {deals}")
    if bootstrap < 0:
        raise ValueError(f"bootstrap resamples must be 0 or more, not {bootstrap}")
    for a, b in pairs:
        if a == b:
            raise ValueError(f"{a} is paired with itself: a pairing needs two different agents")
    players = rules.players
    lower = rules.spec.lower_wins
    engine = engine or Engine.chosen()
    started, cpu = time.perf_counter(), cpu_time()
    pairings = []
    for k, (a, b) in enumerate(pairs):
        lineup = seating(a, b, players)
        for seat in range(players):
            lineup.make(seat, 0)  # a bad spec fails now, with the agent's own message
        pair_started = time.perf_counter()
        lineups, rows = run_duplicate(rules, deals, seed, lineup, workers=workers, progress=progress,
                                     engine=engine)
        pairings.append(
            _pairing(
                a, b, lineups, rows, bootstrap, bootstrap_seed + k, time.perf_counter() - pair_started, lower
            )
        )
    return Evaluation(
        game=rules.game,
        rules=rules.to_dict(),
        deals=deals,
        seed=seed,
        unit=units(rules.spec)[1],
        pairings=pairings,
        seconds=time.perf_counter() - started,
        cpu_seconds=cpu_time() - cpu,
    )


def cpu_time() -> float:
    """CPU seconds so far of this process and of its children it waited for (the workers);
    ``nan`` where the system does not say (no ``resource`` module)."""
    try:
        import resource
    except ImportError:  # not a Unix
        return math.nan
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _pairing(
    a: str,
    b: str,
    lineups: Sequence[Lineup],
    rows: Sequence[Sequence[GameResult]],
    bootstrap: int,
    bootstrap_seed: int,
    seconds: float,
    lower_wins: bool,
) -> Pairing:
    points: dict[str, list[float]] = {a: [], b: []}
    wins = {a: 0.0, b: 0.0}
    seat_games = {a: 0, b: 0}
    guard = 0
    for row in rows:
        sums = {a: 0.0, b: 0.0}
        counts = {a: 0, b: 0}
        for rot, result in enumerate(row):
            specs = lineups[rot].specs
            guard += result.guard_stopped
            for deal_points in result.deal_points:
                for seat, spec in enumerate(specs):
                    sums[spec] += deal_points[seat]
                    counts[spec] += 1
            for seat, spec in enumerate(specs):
                seat_games[spec] += 1
                if seat in result.winners:
                    wins[spec] += 1 / len(result.winners)
        for agent in (a, b):
            points[agent].append(sums[agent] / counts[agent] if counts[agent] else math.nan)
    differences = [x - y for x, y in zip(points[a], points[b], strict=True)]
    outcomes = [0.5 if d == 0 else 1.0 if (d < 0) == lower_wins else 0.0 for d in differences]
    rng = random.Random(bootstrap_seed)
    resamples = _resamples(len(differences), bootstrap, rng)
    score = bootstrap_mean(outcomes, resamples)
    return Pairing(
        agent=a,
        versus=b,
        deals=len(rows),
        agent_points=mean_ci(points[a]),
        versus_points=mean_ci(points[b]),
        difference=mean_ci(differences),
        difference_bootstrap=bootstrap_mean(differences, resamples),
        score=score,
        elo=Estimate(elo_of(score.value), elo_of(score.low), elo_of(score.high), score.n),
        win_rate=wilson(wins[a], seat_games[a]),
        versus_win_rate=wilson(wins[b], seat_games[b]),
        outcomes=tuple(outcomes),
        differences=tuple(differences),
        games=sum(len(row) for row in rows),
        seconds=seconds,
        guard_stopped=guard,
    )


def _resamples(n: int, count: int, rng: random.Random) -> list[list[int]]:
    return [[rng.randrange(n) for _ in range(n)] for _ in range(count)]


def bootstrap_mean(samples: Sequence[float], resamples: Iterable[Sequence[int]]) -> Estimate:
    """The mean of ``samples`` with the 2.5th and 97.5th percentiles of its mean over
    ``resamples`` (lists of indexes drawn with replacement); ``nan`` bounds without any.

    >>> bootstrap_mean([1.0, 3.0], [[0, 0], [1, 1], [0, 1]]).value
    2.0
    """
    n = len(samples)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = sum(samples) / n
    means = sorted(sum(samples[i] for i in pick) / len(pick) for pick in resamples)
    if not means:
        return Estimate(mean, math.nan, math.nan, n)
    return Estimate(mean, quantile(means, 0.025), quantile(means, 0.975), n)


def quantile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values, interpolated between neighbours.

    >>> quantile([0.0, 10.0], 0.25)
    2.5
    """
    at = q * (len(ordered) - 1)
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def elo_of(score: float) -> float:
    """An expected score as an Elo difference, bounded by ``ELO_BOUND`` either way.

    >>> elo_of(0.5)
    0.0
    >>> round(elo_of(0.76))
    200
    """
    if math.isnan(score):
        return math.nan
    if score <= 0:
        return -ELO_BOUND
    if score >= 1:
        return ELO_BOUND
    return max(-ELO_BOUND, min(ELO_BOUND, 400 * math.log10(score / (1 - score))))


def turned(p: Pairing) -> Pairing:
    """The pairing seen from the other side: ``versus`` against ``agent``."""

    def minus(e: Estimate) -> Estimate:
        return Estimate(-e.value, -e.high, -e.low, e.n)

    def share(e: Estimate) -> Estimate:
        return Estimate(1 - e.value, 1 - e.high, 1 - e.low, e.n)

    return Pairing(
        agent=p.versus,
        versus=p.agent,
        deals=p.deals,
        agent_points=p.versus_points,
        versus_points=p.agent_points,
        difference=minus(p.difference),
        difference_bootstrap=minus(p.difference_bootstrap),
        score=share(p.score),
        elo=minus(p.elo),
        win_rate=p.versus_win_rate,
        versus_win_rate=p.win_rate,
        outcomes=tuple(1 - o for o in p.outcomes),
        differences=tuple(-d for d in p.differences),
        games=p.games,
        seconds=p.seconds,
        guard_stopped=p.guard_stopped,
    )
