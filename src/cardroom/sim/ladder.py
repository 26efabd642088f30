"""One scale for every agent: a round robin on duplicate deals, rated with openskill.

Every pair of the agents is played on the same duplicate deals
(:func:`cardroom.sim.evaluate.evaluate`: ``a, b, a, b`` rotated round the table). Each deal of a
pair is one match between the two agents, won by the one with fewer points on those cards (a
tie is a draw), and the matches are rated with openskill's Plackett-Luce model from its usual
start (mu 25, sigma 25/3), deal by deal in the order played: the same model and start as the
web table's ratings of accounts (:mod:`cardroom.web.accounts`). The interval of each agent's
mu is a percentile bootstrap over deals: the deals drawn again with replacement, every pair
keeping its deal, and the ratings fitted again.

Beside the ratings, each agent and the one below it on the ladder are compared directly: the
paired difference of their points, the share of deals the upper one did better on and that
share as an Elo difference, each with its interval (:class:`cardroom.sim.evaluate.Pairing`).
"""

from __future__ import annotations

import datetime
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardroom.engine import Rules
from cardroom.sim.evaluate import Evaluation, Pairing, evaluate, quantile
from cardroom.text import plural

__all__ = [
    "Ladder",
    "Rung",
    "run_ladder",
    "fit",
    "LADDER_BOOTSTRAP",
    "ladder_markdown",
    "save_ladder",
    "put_in_doc",
]

LADDER_BOOTSTRAP = 200
"""Bootstrap refits behind each agent's interval, unless told otherwise."""
FORMAT = 1
"""The ladder file's format (``save_ladder``)."""


@dataclass(frozen=True)
class Rung:
    """One agent's place: openskill's mu and sigma over every match, mu's bootstrap interval,
    and the ordinal mu - 3 sigma."""

    agent: str
    mu: float
    sigma: float
    low: float
    high: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "ordinal": round(self.ordinal, 3),
            "mu_interval": [None if math.isnan(x) else round(x, 3) for x in (self.low, self.high)],
        }


@dataclass(frozen=True)
class Ladder:
    """The agents best first, each with the pairing against the one below it."""

    rungs: list[Rung]
    neighbours: list[Pairing]
    """``neighbours[k]``: ``rungs[k]`` against ``rungs[k + 1]``."""
    evaluation: Evaluation
    bootstrap: int

    def to_dict(self) -> dict[str, Any]:
        e = self.evaluation
        return {
            "game": e.game,
            "rules": e.rules,
            "deals": e.deals,
            "seed": e.seed,
            "unit": e.unit,
            "games": sum(p.games for p in e.pairings),
            "seconds": round(e.seconds, 3),
            "cpu_seconds": None if math.isnan(e.cpu_seconds) else round(e.cpu_seconds, 3),
            "bootstrap": self.bootstrap,
            "model": "openskill PlackettLuce (mu 25, sigma 25/3 at the start), one match a deal of a pair",
            "rungs": [r.to_dict() for r in self.rungs],
            "neighbours": [p.to_dict() for p in self.neighbours],
            "pairings": [p.to_dict() for p in e.pairings],
        }


def fit(
    agents: Sequence[str], pairings: Sequence[Pairing], deals: Sequence[int]
) -> dict[str, tuple[float, float]]:
    """Openskill's (mu, sigma) of each agent after the matches of ``deals`` (indexes, in that
    order; one may come more than once), every pairing's match of a deal in turn."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {a: model.rating(name=a) for a in agents}
    for d in deals:
        for p in pairings:
            outcome = p.outcomes[d]
            ranks = [0.0, 0.0] if outcome == 0.5 else [0.0, 1.0] if outcome == 1 else [1.0, 0.0]
            [[ra], [rb]] = model.rate([[ratings[p.agent]], [ratings[p.versus]]], ranks=ranks)
            ratings[p.agent], ratings[p.versus] = ra, rb
    return {a: (r.mu, r.sigma) for a, r in ratings.items()}


def run_ladder(
    rules: Rules,
    agents: Sequence[str],
    deals: int,
    seed: int,
    *,
    workers: int = 1,
    bootstrap: int = LADDER_BOOTSTRAP,
    progress: Callable[[int], None] | None = None,
) -> Ladder:
    """Play every pair of ``agents`` (two or more, all different) on ``deals`` duplicate deals
    from ``seed`` and rate them (see the module)."""
    agents = list(agents)
    if len(agents) < 2:
        raise ValueError(f"a ladder needs two agents or more, not {len(agents)}")
    if len(set(agents)) != len(agents):
        twice = next(a for a in agents if agents.count(a) > 1)
        raise ValueError(f"{twice} is given twice: a ladder's agents must all be different")
    evaluation = evaluate(rules, agents, agents, deals, seed, workers=workers, progress=progress)
    return rate(agents, evaluation, bootstrap)


def rate(agents: Sequence[str], evaluation: Evaluation, bootstrap: int = LADDER_BOOTSTRAP) -> Ladder:
    """The ladder of ``agents`` from an evaluation of every pair of them."""
    n = evaluation.deals
    full = fit(agents, evaluation.pairings, range(n))
    rng = random.Random(evaluation.seed)
    draws: dict[str, list[float]] = {a: [] for a in agents}
    for _ in range(bootstrap):
        refit = fit(agents, evaluation.pairings, [rng.randrange(n) for _ in range(n)])
        for a in agents:
            draws[a].append(refit[a][0])
    rungs = []
    for a in agents:
        ordered = sorted(draws[a])
        low, high = (
            (quantile(ordered, 0.025), quantile(ordered, 0.975)) if ordered else (math.nan, math.nan)
        )
        rungs.append(Rung(a, full[a][0], full[a][1], low, high))
    rungs.sort(key=lambda r: (-r.mu, r.agent))
    below = zip(rungs, rungs[1:], strict=False)
    neighbours = [evaluation.pairing(upper.agent, lower.agent) for upper, lower in below]
    return Ladder(rungs, neighbours, evaluation, bootstrap)


def number(x: float, digits: int) -> str:
    """``x`` to ``digits`` decimals, never ``-0``.

    >>> number(-0.2, 0), number(-1.5, 1)
    ('0', '-1.5')
    """
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def interval(e: dict[str, Any], digits: int = 2) -> str:
    """An estimate (``value``, ``low``, ``high``) as ``v [low, high]``; ``-`` if it has no value."""
    value, low, high = e["value"], e["low"], e["high"]
    if value is None:
        return "-"
    if low is None:
        return number(value, digits)
    return f"{number(value, digits)} [{number(low, digits)}, {number(high, digits)}]"


def ladder_markdown(ladder: dict[str, Any], command: str | None = None) -> str:
    """The ladder (as ``Ladder.to_dict`` gives it) as Markdown: the ratings, then each agent
    against the one below it."""
    unit = ladder["unit"]
    cpu = "" if ladder.get("cpu_seconds") is None else f", {ladder['cpu_seconds']:.0f} s of CPU"
    lines = []
    if command:
        lines += ["```", command, "```", ""]
    lines.append(
        f"{plural(ladder['deals'], 'deal')} from seed {ladder['seed']}, every pair of agents on "
        f"the same deals ({plural(ladder['games'], 'game')} in all; {ladder['seconds']:.0f} s of wall-clock "
        f"time{cpu}); "
        f"rules: " + ", ".join(f"{k}={v}" for k, v in ladder["rules"].items() if k != "deck_files") + "."
    )
    lines += [
        "",
        "| place | agent | mu [95% bootstrap] | sigma | ordinal (mu - 3 sigma) |",
        "| ---: | --- | ---: | ---: | ---: |",
    ]
    for place, r in enumerate(ladder["rungs"], start=1):
        low, high = r["mu_interval"]
        shown = f"{r['mu']:.2f}" if low is None else f"{r['mu']:.2f} [{low:.2f}, {high:.2f}]"
        lines.append(f"| {place} | `{r['agent']}` | {shown} | {r['sigma']:.2f} | {r['ordinal']:.2f} |")
    lines += [
        "",
        f"| agent | against the one below | {unit}, difference [95%] | deals better "
        "[95% bootstrap] | Elo [95% bootstrap] |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for p in ladder["neighbours"]:
        lines.append(
            f"| `{p['agent']}` | `{p['versus']}` | {interval(p['difference'])} | "
            f"{interval(p['score'], 3)} | {interval(p['elo'], 0)} |"
        )
    return "\n".join(lines) + "\n"


def save_ladder(path: Path, ladder: dict[str, Any], command: str) -> None:
    """Put ``ladder`` as its game's entry into the ladder file ``path`` (made if missing; the
    other games' entries kept), with the command that made it and the day."""
    data: dict[str, Any] = {"format": FORMAT, "games": {}}
    if path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise ValueError(f"{path} is not a ladder file of format {FORMAT}")
    entry = {k: v for k, v in ladder.items() if k != "pairings"}
    entry["command"] = command
    entry["made"] = datetime.date.today().isoformat()
    data["games"][ladder["game"]] = entry
    path.write_text(json.dumps(data, indent=1, allow_nan=False) + "\n", encoding="utf-8")


def put_in_doc(path: Path, game: str, text: str) -> None:
    """Replace what stands between ``<!-- ladder GAME -->`` and ``<!-- /ladder GAME -->`` in the
    Markdown file ``path`` by ``text``."""
    begin, end = f"<!-- ladder {game} -->", f"<!-- /ladder {game} -->"
    doc = path.read_text(encoding="utf-8")
    if doc.count(begin) != 1 or doc.count(end) != 1 or doc.index(begin) > doc.index(end):
        raise ValueError(
            f"{path} needs the lines {begin} and {end} once each, in that order, "
            "around the place of the ladder"
        )
    head, rest = doc.split(begin)
    _, tail = rest.split(end)
    path.write_text(f"{head}{begin}\n{text}{end}{tail}", encoding="utf-8")
