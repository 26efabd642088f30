"""``cardroom tune``: search a game's numbers (a deck card's numbers, numeric rule options)
toward the designer's targets, and report the best variants with their evidence.

A *parameter* is ``NAME=LO..HI``: a rules option (``target=50..150``) or a deck's number
(``10C.count=1..4``, see the game's deck support). A *target* is ``NAME=GOAL`` from
:data:`TARGETS` (a registry: :func:`register_target` adds one, e.g. a skill-depth target): each
measures a figure of a trial's games and scores how far it is from its goal (0: met).

Noise: every trial plays the same seeds (common random numbers: two variants differ by their
numbers, not by their deals), several games a trial; optuna's TPE sampler proposes the
values; a variant proposed again is not played again. The best variants are then played again
on fresh seeds, and ranked by that re-test: the figures reported (with 95% intervals) are
the re-test's, never the search's, which favours whatever was lucky on its seeds.
"""

from __future__ import annotations

import math
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardroom import games as game_registry
from cardroom.analysis.report import Column, Report, Section, Table
from cardroom.analysis.stats import mean_t, seat_advantage
from cardroom.engine import CardroomInputError, Rules, RulesError
from cardroom.games import GameSpec
from cardroom.games.contracts import DeckNumbers
from cardroom.native import Engine
from cardroom.sim.tournament import GameResult, Lineup, run_games

__all__ = [
    "TARGETS",
    "Goal",
    "Param",
    "Target",
    "TuneError",
    "Variant",
    "parse_goal",
    "parse_param",
    "register_target",
    "tune",
    "tune_report",
]


class TuneError(CardroomInputError):
    """A parameter, target or setting ``tune`` cannot use; the message says what is allowed."""


# -- parameters -----------------------------------------------------------------------------

_RANGE = re.compile(r"^\s*([A-Za-z0-9_#.]+)\s*=\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")


@dataclass(frozen=True)
class Param:
    """A number searched: a rules option or a deck's number (``deck``), from ``low`` to
    ``high`` (whole numbers, both included)."""

    name: str
    low: int
    high: int
    deck: bool


def parse_param(game: GameSpec | str, text: str) -> Param:
    """``NAME=LO..HI``: a deck's number when NAME has a dot (``10C.count``), else a rules option
    of ``game`` whose values are whole numbers."""
    found = _RANGE.match(text)
    if not found:
        raise TuneError(
            f"--param {text!r}: give NAME=LO..HI with whole numbers, e.g. --param target=50..150 "
            "or --param 10C.count=1..4"
        )
    name, low, high = found.group(1), int(found.group(2)), int(found.group(3))
    if low >= high:
        raise TuneError(f"--param {text!r}: the range's low end must be below its high end")
    spec = _spec(game)
    if "." in name:
        if spec.decks is None or not isinstance(spec.decks, DeckNumbers):
            raise TuneError(
                f"--param {name}: {spec.title} has no deck numbers to tune; its numeric options "
                f"are {', '.join(_numeric_options(spec)) or 'none'}"
            )
        return Param(name.upper().split(".", 1)[0] + "." + name.split(".", 1)[1], low, high, True)
    options = _numeric_options(spec)
    if name not in options:
        raise TuneError(
            f"--param {name}: not a numeric option of {spec.title}; they are "
            f"{', '.join(options) or 'none'} (or a deck's number, CARD.FIELD)"
        )
    option = next(o for o in spec.options if o.name == name)
    if (option.minimum is not None and low < option.minimum) or (
        option.maximum is not None and high > option.maximum
    ):
        raise TuneError(f"--param {text}: {name} takes {option.minimum}..{option.maximum}")
    return Param(name, low, high, False)


def _numeric_options(spec: GameSpec) -> list[str]:
    return [o.name for o in spec.options if o.kind == "int" and o.name != "players"]


def _spec(game: GameSpec | str) -> GameSpec:
    """The game's spec as given, or looked up by the name a caller holds (the web's studio)."""
    return game if isinstance(game, GameSpec) else game_registry.get(game)


# -- targets --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trial:
    """What a trial's games gave: the games' results, and the rules they were played with
    (a target that needs tables plays them again, see :attr:`Target.measure`)."""

    results: list[GameResult]
    rules: Rules
    lineup: Lineup
    seed: int


@dataclass(frozen=True)
class Target:
    """A figure of a trial and how far a value is from a goal.

    ``measure`` gives the figure (with a 95% interval as ``low``, ``high``: ``nan`` when none);
    ``miss`` is 0 when the goal is met and grows with the distance (a share of the goal, so
    that several targets weigh alike)."""

    name: str
    words: str
    measure: Callable[[Trial], tuple[float, float, float]]
    miss: Callable[[float, float], float]
    example: str
    needs_decks: bool = False
    """Whether it applies only to games played with decks of designed cards (their per-card
    figures), else to every game."""
    bound: bool = False
    """Whether the goal is a bound (met at or below it), else a point (met when the figure's
    95% interval holds it)."""

    def met(self, figure: tuple[float, float, float], goal: float) -> bool:
        value, low, high = figure
        if math.isnan(value):
            return False
        if self.bound:
            return value <= goal
        return value == goal if math.isnan(low) else low <= goal <= high


TARGETS: dict[str, Target] = {}
"""The targets ``tune`` knows, by name."""


def register_target(target: Target) -> None:
    """Add a target to :data:`TARGETS` (its name must be new)."""
    if target.name in TARGETS:
        raise TuneError(f"a target named {target.name} is registered already")
    TARGETS[target.name] = target


def _relative(value: float, goal: float) -> float:
    return abs(value - goal) / max(abs(goal), 1e-9)


def _mean(values: Sequence[float]) -> tuple[float, float, float]:
    estimate = mean_t(values)
    return estimate.value, estimate.low, estimate.high


def _length(trial: Trial) -> tuple[float, float, float]:
    return _mean([float(r.deals) for r in trial.results])


def _decisions(trial: Trial) -> tuple[float, float, float]:
    return _mean([float(r.actions) for r in trial.results])


def _seat_advantage(trial: Trial) -> tuple[float, float, float]:
    """The largest distance of a seat's win rate from the fair share (and the Wilson bounds of
    that seat's rate, shifted alike)."""
    shares = [0.0] * len(trial.results[0].totals)
    for r in trial.results:
        for seat in r.winners:
            shares[seat] += 1 / len(r.winners)
    _seat, distance = seat_advantage(shares, len(trial.results))
    return distance.value, distance.low, distance.high


def _card_spread(trial: Trial) -> tuple[float, float, float]:
    """The standard deviation over the deck's designs of the win-share difference between the
    seats that played a design in a round and those that did not (analyze's per-card impact,
    played): 0 when every card is worth the same."""
    from cardroom.analysis.figures import build_report
    from cardroom.analysis.folder import open_folder
    from cardroom.sim.results import simulate_to

    folder = Path(tempfile.mkdtemp(prefix="cardroom-tune-"))
    try:
        simulate_to(folder / "run", trial.rules, len(trial.results), trial.seed, trial.lineup)
        report = build_report(open_folder(folder / "run"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    rows = next((t.rows for s in report.sections for t in s.tables if t.key == "designs"), [])
    values = [
        r["played_win"]["value"] for r in rows if r.get("played_win") and r["played_win"]["value"] is not None
    ]
    if len(values) < 2:
        return math.nan, math.nan, math.nan
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)), math.nan, math.nan


register_target(Target("length", "deals a game (rounds, hands)", _length, _relative, "length=4"))
register_target(Target("decisions", "decisions a game", _decisions, _relative, "decisions=120"))
register_target(
    Target(
        "seats",
        "the largest seat's distance from the fair win share (goal: a bound)",
        _seat_advantage,
        lambda value, bound: max(0.0, value - bound) / max(bound, 1e-9),
        "seats=0.03",
        bound=True,
    )
)
register_target(
    Target(
        "spread",
        "the spread (SD) of the cards' win-share impact, played (goal: a bound)",
        _card_spread,
        lambda value, goal: math.inf if math.isnan(value) else max(0.0, value - goal) / max(goal, 0.01),
        "spread=0.02",
        needs_decks=True,
        bound=True,
    )
)


@dataclass(frozen=True)
class Goal:
    target: Target
    value: float


def parse_goal(game: GameSpec | str, text: str) -> Goal:
    """``NAME=GOAL``, a target of :data:`TARGETS` and its goal (a number)."""
    name, eq, value = text.partition("=")
    target = TARGETS.get(name.strip())
    decks = _spec(game).decks is not None
    known = ", ".join(f"{t.example} ({t.words})" for t in TARGETS.values() if decks or not t.needs_decks)
    if not eq or target is None:
        raise TuneError(f"--target {text!r}: give NAME=GOAL; the targets are {known}")
    if target.needs_decks and not decks:
        raise TuneError(
            f"--target {target.name} is for games played with decks; the targets of {game} are {known}"
        )
    try:
        goal = float(value)
    except ValueError:
        raise TuneError(f"--target {text!r}: the goal must be a number, e.g. {target.example}") from None
    if not math.isfinite(goal) or goal < 0:
        raise TuneError(f"--target {text!r}: the goal must be a number of 0 or more")
    return Goal(target, goal)


# -- the search -----------------------------------------------------------------------------


@dataclass
class Variant:
    """One set of values, its rules, and what its games gave."""

    values: dict[str, int]
    rules: Rules
    deck_text: str | None
    figures: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    miss: float = math.inf
    retest: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    retest_miss: float = math.inf


@dataclass
class Tuned:
    """The search's outcome: the starting variant (re-tested too), the re-tested best ones
    (best first), the trials played, the settings."""

    game: str
    params: list[Param]
    goals: list[Goal]
    start: Variant
    best: list[Variant]
    trials: int
    games: int
    retest_games: int
    seed: int
    agents: str

    @property
    def start_meets(self) -> bool:
        """Whether the start already meets every goal on the re-test's fresh seeds (a point goal
        inside its figure's 95% interval, a bound kept): then it is kept, unchanged."""
        return bool(self.start.retest) and all(
            g.target.met(self.start.retest[g.target.name], g.value) for g in self.goals
        )

    @property
    def chosen(self) -> Variant | None:
        """The variant to play: the start when it meets the goals, else the best re-tested."""
        if self.start_meets:
            return self.start
        return self.best[0] if self.best else None


def _variant(
    spec: GameSpec,
    base: Mapping[str, Any],
    deck_text: str | None,
    values: Mapping[str, int],
    params: Sequence[Param],
) -> Variant:
    options = dict(base)
    text = deck_text
    for param in params:
        if param.deck:
            assert text is not None and isinstance(spec.decks, DeckNumbers)
            text = spec.decks.with_number(text, param.name, values[param.name])
        else:
            options[param.name] = values[param.name]
    if text is not None and text != deck_text:
        checked = spec.decks.parse(text, "the tuned deck") if spec.decks is not None else None
        options["deck"] = checked.digest if checked is not None else options.get("deck")
        options["deck_files"] = [text]
    try:
        rules = spec.make_rules(options)
    except (RulesError, ValueError) as err:
        raise TuneError(f"{', '.join(f'{k}={v}' for k, v in values.items())}: {err}") from None
    return Variant(dict(values), rules, text)


def _measure(
    variant: Variant, goals: Sequence[Goal], games: int, seed: int, lineup: Lineup, workers: int,
    engine: Engine,
) -> tuple[dict[str, tuple[float, float, float]], float]:
    results = run_games(variant.rules, games, seed, lineup, workers=workers, engine=engine)
    trial = Trial([r for r in results if not r.guard_stopped] or results, variant.rules, lineup, seed)
    figures = {}
    miss = 0.0
    for goal in goals:
        figures[goal.target.name] = goal.target.measure(trial)
        miss += goal.target.miss(figures[goal.target.name][0], goal.value)
    return figures, miss


def tune(
    game: GameSpec | str,
    params: Sequence[Param],
    goals: Sequence[Goal],
    *,
    base: Mapping[str, Any],
    deck_text: str | None,
    agents: str,
    trials: int,
    games: int,
    retest_games: int,
    top: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Tuned:
    """Search ``params`` toward ``goals`` (see the module's documentation). ``base``: the
    fixed rules options; ``deck_text``: the deck whose numbers are searched (when any is)."""
    import optuna

    if not params or not goals:
        raise TuneError("tune needs at least one --param NAME=LO..HI and one --target NAME=GOAL")
    if any(p.deck for p in params) and deck_text is None:
        raise TuneError(
            "a deck's numbers are searched in one deck: give one --deck (a project deck or a file)"
        )
    spec = _spec(game)
    engine = Engine.chosen()  # every trial of the search plays on the one engine read here
    start_values: dict[str, int] = {}
    for param in params:
        if param.deck:
            assert isinstance(spec.decks, DeckNumbers) and deck_text is not None
            try:
                start_values[param.name] = spec.decks.number(deck_text, param.name)
            except ValueError as err:  # the deck's error (a ValueError) names what is wrong
                raise TuneError(f"--param {err}") from None
    for param in params:  # every end of every range must make valid rules before a game is played
        for end in (param.low, param.high):
            _variant(spec, base, deck_text, {**{p.name: p.low for p in params}, param.name: end}, params)
    start_rules = _variant(spec, base, deck_text, start_values, [p for p in params if p.deck]).rules
    for param in params:
        if not param.deck:
            start_values[param.name] = int(start_rules.to_dict()[param.name])
    players = start_rules.players
    lineup = Lineup.parse(agents, players)

    seen: dict[tuple[int, ...], Variant] = {}

    def objective(trial: optuna.Trial) -> float:
        values = {p.name: trial.suggest_int(p.name, p.low, p.high) for p in params}
        key = tuple(values[p.name] for p in params)
        if key not in seen:
            variant = _variant(spec, base, deck_text, values, params)
            variant.figures, variant.miss = _measure(variant, goals, games, seed, lineup, workers, engine)
            seen[key] = variant
        if progress:
            progress(1)
        return seen[key].miss

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    grid = math.prod(p.high - p.low + 1 for p in params)
    sampler: optuna.samplers.BaseSampler
    if grid <= trials:  # every variant fits in the trials: try each once rather than sample
        sampler = optuna.samplers.GridSampler(
            {p.name: list(range(p.low, p.high + 1)) for p in params}, seed=seed
        )
        trials = grid
    else:
        sampler = optuna.samplers.TPESampler(seed=seed)
    study = optuna.create_study(direction="minimize", sampler=sampler)
    study.optimize(objective, n_trials=trials)

    fresh = seed + games  # seeds no trial played
    best = sorted(seen.values(), key=lambda v: v.miss)[:top]
    start = _variant(spec, base, deck_text, start_values, params)
    for variant in [start, *best]:
        variant.retest, variant.retest_miss = _measure(variant, goals, retest_games, fresh, lineup, workers,
                                                       engine)
    best.sort(key=lambda v: v.retest_miss)
    return Tuned(
        spec.name, list(params), list(goals), start, best, len(study.trials), games, retest_games, seed,
        agents
    )


# -- the report -----------------------------------------------------------------------------


def _figure(found: tuple[float, float, float]) -> dict[str, Any]:
    value, low, high = found
    clean = [None if math.isnan(x) else x for x in (value, low, high)]
    return {"value": clean[0], "low": clean[1], "high": clean[2]}


def deck_changes(tuned: Tuned, variant: Variant) -> list[dict[str, Any]]:
    """What to change to play ``variant``: per parameter, its starting and tuned value."""
    spec = tuned.start.rules.spec
    rows = []
    for param in tuned.params:
        before, after = tuned.start.values[param.name], variant.values[param.name]
        where = "rules option"
        if param.deck and isinstance(spec.decks, DeckNumbers) and tuned.start.deck_text is not None:
            where = spec.decks.number_card(tuned.start.deck_text, param.name)
        rows.append(
            {
                "parameter": param.name,
                "where": where,
                "from": before,
                "to": after,
                "change": f"{param.name}: {before} -> {after}" if before != after else "unchanged",
            }
        )
    return rows


def tune_report(tuned: Tuned) -> Report:
    """The best variants as a report: their values, each target's figure on fresh seeds with its
    interval, how far from the goals on the search's and the fresh seeds; then the changes to
    make for the best."""
    spec = tuned.start.rules.spec
    goals = tuned.goals
    rows = []
    for rank, variant in enumerate([*tuned.best, tuned.start]):
        row: dict[str, Any] = {"variant": "start" if variant is tuned.start else str(rank + 1)}
        row |= {f"p_{p.name}": variant.values[p.name] for p in tuned.params}
        row |= {f"t_{g.target.name}": _figure(variant.retest[g.target.name]) for g in goals}
        row["miss_search"] = None if variant is tuned.start or math.isinf(variant.miss) else variant.miss
        row["miss"] = None if math.isinf(variant.retest_miss) else variant.retest_miss
        row["met"] = all(g.target.met(variant.retest[g.target.name], g.value) for g in goals)
        rows.append(row)
    columns = [Column("variant", "Variant")]
    columns += [Column(f"p_{p.name}", p.name) for p in tuned.params]
    columns += [Column(f"t_{g.target.name}", f"{g.target.name} (goal {g.value:g})", 3) for g in goals]
    columns += [Column("miss_search", "Miss, search", 3), Column("miss", "Miss, fresh seeds", 3)]
    columns.append(Column("met", "Goals met"))
    best = Table(
        "best",
        "The best variants, re-tested on fresh seeds (95% intervals), and the start",
        columns,
        rows,
        note=(
            f"Miss: how far from the goals (a share of each goal, summed; 0: exactly on them). Goals met: on "
            f"fresh seeds, each point goal inside its figure's 95% interval, each bound kept. The search "
            f"played {tuned.games} games a trial on seeds {tuned.seed}..{tuned.seed + tuned.games - 1}; the "
            f"re-test {tuned.retest_games} games on seeds {tuned.seed + tuned.games}.."
            f"{tuned.seed + tuned.games + tuned.retest_games - 1}."
        ),
    )
    changes = Table(
        "changes",
        "To play the best variant",
        [
            Column("parameter", "Parameter"),
            Column("where", "Where"),
            Column("from", "From"),
            Column("to", "To"),
            Column("change", "Change"),
        ],
        deck_changes(tuned, tuned.chosen) if tuned.chosen is not None else [],
        note=(
            "A card's text is not rewritten: when a number changes, change its words too."
            if any(p.deck for p in tuned.params)
            else ""
        ),
    )
    about = [
        "Each trial plays the same seeds (so variants differ by their numbers, not their deals); "
        "optuna's TPE sampler proposes the values (or each variant is tried once when they are no more "
        "than the trials). The best variants by the search are re-tested on fresh seeds and ranked by "
        "that re-test, whose figures are the ones shown.",
        *(f"{g.target.name}: {g.target.words}; goal {g.value:g}." for g in goals),
    ]
    chosen = tuned.chosen
    figures = {
        "best": chosen.values if chosen is not None else {},
        "start": tuned.start.values,
        "start_meets": tuned.start_meets,
        "trials": tuned.trials,
    }
    facts = [
        ("game", spec.title),
        ("agents", tuned.agents),
        ("trials", str(tuned.trials)),
        ("games a trial", str(tuned.games)),
        ("re-test games", str(tuned.retest_games)),
        ("parameters", ", ".join(f"{p.name}={p.low}..{p.high}" for p in tuned.params)),
        ("targets", ", ".join(f"{g.target.name}={g.value:g}" for g in goals)),
    ]
    warnings = []
    verdict = _tune_verdict(tuned)
    if tuned.best and not tuned.start_meets and not rows[0]["met"]:
        warnings.append("The best variant does not meet every goal on fresh seeds (a point goal outside its "
                        "95% interval, a bound exceeded): widen a range, or add a parameter.")
    if any(a.partition(":")[0] == "random" for a in tuned.agents.split(",")):
        warnings.append("Random agents played: their games say little about a card's strength.")
    section = Section("tune", "Tuned parameters", about, [best, changes], [], figures)
    return Report(f"{spec.title}: tune, {tuned.trials} trials", facts, warnings, [section], [verdict])


def _values_words(values: Mapping[str, int]) -> str:
    return ", ".join(f"{name}={value}" for name, value in values.items())


def _goal_words(tuned: Tuned, variant: Variant) -> str:
    """Each goal with the variant's re-tested figure, ``decisions 124.1 [119.8, 128.4] (goal 125)``."""
    parts = []
    for goal in tuned.goals:
        value, low, high = variant.retest[goal.target.name]
        shown = f"{value:.3g}" if math.isnan(low) else f"{value:.3g} [{low:.3g}, {high:.3g}]"
        parts.append(f"{goal.target.name} {shown} (goal {'at most ' if goal.target.bound else ''}"
                     f"{goal.value:g})")
    return "; ".join(parts)


def _tune_verdict(tuned: Tuned) -> str:
    """The report's first line: keep the start, or the change to make, and how sure."""
    start = tuned.start
    if tuned.start_meets:
        return (f"Keep the start ({_values_words(start.values)}): it already meets every goal on "
                f"{tuned.retest_games} fresh games (each point goal inside the re-test's 95% interval, each "
                f"bound kept): "
                f"{_goal_words(tuned, start)}. No change is needed.")
    if not tuned.best:
        return "No variant was re-tested."
    best = tuned.best[0]
    met = all(g.target.met(best.retest[g.target.name], g.value) for g in tuned.goals)
    change = "; ".join(r["change"] for r in deck_changes(tuned, best) if r["from"] != r["to"]) or "no change"
    return (f"Change {change}: on {tuned.retest_games} fresh games it "
            f"{'meets every goal' if met else 'comes closest to the goals, but does not meet them all'}: "
            f"{_goal_words(tuned, best)}; the start ({_values_words(start.values)}) gives "
            f"{_goal_words(tuned, start)}.")
