"""``cardroom drama``: decisive moments, measured with a search oracle (TAG's drama metrics).

The games are played by the line-up; at every decision the seat to act has more than one legal
action (a *real* decision), the oracle, an ISMCTS search from that seat's view only
(:meth:`cardroom.agents.ismcts.ISMCTSAgent.action_values`), values each action: its mean
return for the seat (the game's ``returns()`` at the end of the deal: BAEBAE in tens of penalty
points, Baha in moons). From those values, per decision:

- the *range*, best minus worst: how much the choice could cost; it *mattered* when the range
  exceeds the threshold;
- the *gap*, best minus second best: the choice was *decisive* (one good move) when it exceeds
  the threshold;
- the *regret*, best minus the action taken: a *mistake* when it exceeds the threshold.

Per game: decisions, real decisions, the share that mattered, that were decisive, mistakes,
the mean and largest range, and lead changes (after each deal, a new sole leader by running
totals, as ``cardroom analyze`` counts them). An action the search visited once or never has
no value (its mean would be a guess): a decision with fewer than two valued actions is real but
not valued.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardroom.agents.ismcts import ISMCTSAgent
from cardroom.analysis.report import Column, Plot, Report, Section, Table
from cardroom.analysis.stats import mean_t
from cardroom.engine import Rules, State
from cardroom.match import Match
from cardroom.sim.tournament import MAX_ACTIONS, Lineup, result_from_log

__all__ = ["Decision", "GameDrama", "drama_report", "game_drama", "value_decision"]


@dataclass(frozen=True)
class Decision:
    """One real decision valued by the oracle."""

    move: int
    """The decision's place in the game (0: the first action)."""
    seat: int
    deal: int
    legal: int
    values: dict[str, float]
    """Each valued action, by its text, to its mean return for the seat."""
    chosen: str
    best: float
    second: float
    worst: float
    taken: float | None
    """The value of the action the seat took (``None``: the search gave it none)."""

    @property
    def range(self) -> float:
        return self.best - self.worst

    @property
    def gap(self) -> float:
        return self.best - self.second

    @property
    def regret(self) -> float | None:
        return None if self.taken is None else self.best - self.taken


def value_decision(state: State, oracle: ISMCTSAgent, move: int) -> Decision | None:
    """The oracle's values of the decision at ``state`` (``None`` when fewer than two of its
    actions got a value)."""
    seat = state.current_player
    assert seat is not None
    legal = state.legal_actions()
    values = oracle.action_values(state, seat)
    if len(values) < 2:
        return None
    ordered = sorted(values.values(), key=lambda v: -v[1])
    return Decision(
        move=move,
        seat=seat,
        deal=state.deal_number,
        legal=len(legal),
        values={state.action_to_string(a): mean for a, (_, mean) in values.items()},
        chosen="",
        best=ordered[0][1],
        second=ordered[1][1],
        worst=ordered[-1][1],
        taken=None,
    )


@dataclass
class GameDrama:
    """One game's decisions and their summary."""

    seed: int
    decisions: int = 0
    """Every action taken."""
    real: int = 0
    """Decisions with more than one legal action."""
    valued: list[Decision] = field(default_factory=list)
    lead_changes: int = 0

    def summary(self, threshold: float) -> dict[str, Any]:
        ranges = [d.range for d in self.valued]
        regrets = [d.regret for d in self.valued if d.regret is not None]
        n = len(self.valued)
        return {
            "seed": self.seed,
            "decisions": self.decisions,
            "real": self.real,
            "valued": n,
            "mattered": sum(r > threshold for r in ranges),
            "mattered_share": sum(r > threshold for r in ranges) / n if n else None,
            "decisive_share": sum(d.gap > threshold for d in self.valued) / n if n else None,
            "mistakes": sum(r > threshold for r in regrets),
            "mean_range": sum(ranges) / n if n else None,
            "max_range": max(ranges) if ranges else None,
            "lead_changes": self.lead_changes,
        }


def _lead_changes(deal_points: Sequence[Sequence[int]], lower: bool) -> int:
    running = [0] * (len(deal_points[0]) if deal_points else 0)
    last = None
    changes = 0
    for points in deal_points:
        running = [r + p for r, p in zip(running, points, strict=True)]
        best = min(running) if lower else max(running)
        leaders = [s for s, t in enumerate(running) if t == best]
        if len(leaders) != 1:
            continue
        if last is not None and leaders[0] != last:
            changes += 1
        last = leaders[0]
    return changes


def game_drama(
    rules: Rules, seed: int, lineup: Lineup, oracle: ISMCTSAgent, max_actions: int = MAX_ACTIONS
) -> GameDrama:
    """Play one game (seed ``seed``, the agents seeded as ``simulate`` seeds them) and value
    each of its real decisions."""
    state = rules.new_game(seed)
    players = len(state.scores)
    match = Match(state, [lineup.make(s, seed * 1000 + s) for s in range(players)], max_actions=max_actions)
    drama = GameDrama(seed)
    while not state.is_over and match.actions < max_actions:
        legal = state.legal_actions()
        found = value_decision(state, oracle, match.actions) if len(legal) > 1 else None
        before = len(state.history)
        match.step()
        drama.decisions += 1
        if len(legal) > 1:
            drama.real += 1
        if found is not None:
            taken = state.history[before][1] if len(state.history) > before else None
            text = state.action_to_string(taken) if taken is not None else ""
            drama.valued.append(
                Decision(**{**found.__dict__, "chosen": text, "taken": found.values.get(text)})
            )
    result = result_from_log(rules.spec, state.log, 0, seed, state.scores)
    drama.lead_changes = _lead_changes(result.deal_points, rules.spec.lower_wins)
    return drama


def _estimate(values: Sequence[float | None]) -> dict[str, Any]:
    return mean_t([float(v) for v in values if v is not None]).to_dict()


def drama_report(
    rules: Rules,
    lineup: Lineup,
    oracle_spec: str,
    dramas: Sequence[GameDrama],
    threshold: float,
    seeds: Sequence[int],
) -> Report:
    """The games' drama as a report: the summary over games (t intervals), each game, and the
    most decisive moments."""
    from cardroom.analysis.figures import seed_text
    from cardroom.engine import DeckRules
    from cardroom.sim.report import deck_words, rules_shown

    spec = rules.spec
    deck = deck_words(rules.deck_record()) if isinstance(rules, DeckRules) else ""
    shown = rules_shown(rules)
    per_game = [d.summary(threshold) for d in dramas]
    figures = [
        ("real", "real decisions a game (more than one legal action)"),
        ("valued", "decisions the oracle valued a game"),
        ("mattered_share", f"share of decisions that mattered (range > {threshold:g})"),
        ("decisive_share", f"share of decisive decisions (gap > {threshold:g})"),
        ("mistakes", f"mistakes a game (regret > {threshold:g})"),
        ("mean_range", "mean range (best - worst) a decision"),
        ("max_range", "largest range a game"),
        ("lead_changes", "lead changes a game"),
    ]
    summary = Table(
        "summary",
        "Drama over the games (95% t intervals)",
        [Column("figure", "Figure"), Column("value", "Mean a game", 3)],
        [
            {"figure": words, "key": key, "value": _estimate([g[key] for g in per_game])}
            for key, words in figures
        ],
    )
    games_table = Table(
        "games",
        "Each game",
        [
            Column("seed", "Seed"),
            Column("decisions", "Decisions"),
            Column("real", "Real"),
            Column("valued", "Valued", terminal=False),
            Column("mattered", "Mattered"),
            Column("decisive_share", "Decisive", 2, terminal=False),
            Column("mistakes", "Mistakes"),
            Column("mean_range", "Mean range", 3, terminal=False),
            Column("max_range", "Max range", 3),
            Column("lead_changes", "Lead changes"),
        ],
        per_game,
    )
    moments = sorted(((g.seed, d) for g in dramas for d in g.valued), key=lambda m: -m[1].range)[:10]
    top = Table(
        "moments",
        "The most decisive moments (largest range)",
        [
            Column("seed", "Seed"),
            Column("move", "Move"),
            Column("seat", "Seat", terminal=False),
            Column("legal", "Legal", terminal=False),
            Column("best_action", "Best action"),
            Column("best", "Best", 3),
            Column("second", "Second", 3, terminal=False),
            Column("worst", "Worst", 3),
            Column("chosen", "Taken"),
            Column("regret", "Regret", 3),
        ],
        [
            {
                "seed": seed,
                "move": d.move,
                "seat": d.seat,
                "legal": d.legal,
                "best_action": max(d.values, key=lambda a: d.values[a]),
                "best": d.best,
                "second": d.second,
                "worst": d.worst,
                "chosen": d.chosen,
                "regret": d.regret,
            }
            for seed, d in moments
        ],
    )
    ranges = [d.range for g in dramas for d in g.valued]
    plot = Plot(
        "ranges",
        "Range (best - worst) of each valued decision",
        "hist",
        {"values": ranges},
        xlabel="range",
        ylabel="count",
    )
    unit = rules.spec.returns_unit
    about = [
        f"At each real decision the oracle ({oracle_spec}) searched from the acting seat's view and valued "
        f"each action by its mean return to the end of the deal, in {unit}. Range: best minus worst; gap: "
        "best minus second best; regret: best minus the action taken. A decision mattered when its range "
        f"exceeds {threshold:g}, was decisive when its gap does, and was a mistake when its regret does.",
        "An action the search visited at most once has no value; a decision with fewer than two valued "
        "actions is real but not valued. Lead changes: a new sole leader by running totals after a deal.",
    ]
    section = Section(
        "drama",
        "Decisive moments",
        about,
        [summary, games_table, top],
        [plot],
        {row["key"]: row["value"]["value"] for row in summary.rows},
    )
    facts = [
        ("game", spec.title),
        ("rules", ", ".join(f"{k}={deck if k == 'deck' and deck else v}" for k, v in shown.items())),
        ("agents", ", ".join(f"seat {s}: {a}" for s, a in enumerate(lineup.specs))),
        ("oracle", oracle_spec),
        ("threshold", f"{threshold:g} ({unit})"),
        ("games", str(len(dramas))),
        ("seeds", seed_text(seeds)),
    ]
    return Report(f"{spec.title}: drama of {len(dramas)} games", facts, [], [section])


def play_drama(
    rules: Rules,
    games: int,
    seed: int,
    lineup: Lineup,
    oracle: ISMCTSAgent,
    progress: Callable[[int], None] | None = None,
) -> list[GameDrama]:
    """:func:`game_drama` of games ``seed``..``seed + games - 1``."""
    found = []
    for i in range(games):
        found.append(game_drama(rules, seed + i, lineup, oracle))
        if progress:
            progress(1)
    return found
