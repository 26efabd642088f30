"""Playing games between agents: one game, or many on all cores, with optional records."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardroom import agents as agent_registry
from cardroom.engine import Event, Rules, State, is_whole
from cardroom.games import GameSpec
from cardroom.games.contracts import BatchResults, NativeEngine
from cardroom.match import Match
from cardroom.native import Engine
from cardroom.record import RecordError, make_record, save
from cardroom.sim.runner import chunk_size, run_chunks

__all__ = [
    "Lineup", "GameResult", "play_game", "play_state", "run_games", "result_from_log", "worker_count",
    "MAX_ACTIONS", "MAX_WORKERS", "batch_results", "native_plays", "DEFAULT_AGENT", "default_agents",
    "missing_folders", "remove_empty_folders",
]

DEFAULT_AGENT = "heuristic"
"""Who plays every seat when a command is not told (``simulate``, ``compare``, ``sweep``,
``tune``, ``drama``): random play says little of a card's or a rule's effect."""


def default_agents(spec: GameSpec) -> str:
    """:data:`DEFAULT_AGENT`, or ``random`` for a game that has no heuristic bot."""
    return DEFAULT_AGENT if spec.heuristic is not None else "random"


MAX_WORKERS = 1024
"""The most worker processes one may ask for; more is a typing slip, not a machine."""

MAX_ACTIONS = 200_000
"""A guard far above any real game: a game still running after this many actions is stopped
and reported as ``guard_stopped`` rather than left to run for ever."""


@dataclass(frozen=True)
class Lineup:
    """Who plays each seat: agent specs such as ``"random"`` or ``"ismcts:iterations=500"``."""

    specs: tuple[str, ...]

    @classmethod
    def parse(cls, text: str | None, players: int) -> Lineup:
        """``"a,b,c"`` by seat, or one spec for every seat; checks every name and option."""
        specs = [s.strip() for s in (text or "random").split(",")]
        if len(specs) == 1:
            specs *= players
        if len(specs) != players or not all(specs):
            raise agent_registry.AgentError(
                f"--agents needs one agent for every seat ({players}) or one for all, "
                f"got {len(specs)}: {text!r}"
            )
        lineup = cls(tuple(specs))
        for seat in range(players):
            lineup.make(seat, 0)  # fail now, with the agent's own message, not in a worker
        return lineup

    def make(self, seat: int, seed: int) -> agent_registry.Agent:
        name, options = agent_registry.parse_spec(self.specs[seat])
        return agent_registry.make(name, seed=seed, **options)

    def names(self) -> list[str]:
        return list(self.specs)


@dataclass
class GameResult:
    """What one game produced: per-seat totals, points per deal (a Baha hand, a BAEBAE round:
    the game's ``deal_unit``), who came first (several seats when they share first place), and
    the game's own counts for reports (its spec's ``result_extras``: Baha's moons, BAEBAE's
    blocked and guard-stopped rounds)."""

    index: int
    seed: int
    totals: list[int]
    winners: list[int]
    deals: int
    deal_points: list[list[int]] = field(default_factory=list)  # per deal, per seat
    extras: dict[str, int] = field(default_factory=dict)
    actions: int = 0
    guard_stopped: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index, "seed": self.seed, "totals": self.totals, "winners": self.winners,
            "deals": self.deals, "deal_points": self.deal_points, "extras": self.extras,
            "actions": self.actions, "guard_stopped": self.guard_stopped,
        }


def play_game(
    rules: Rules,
    seed: int,
    lineup: Lineup,
    *,
    index: int = 0,
    records: Path | None = None,
    max_actions: int = MAX_ACTIONS,
    engine: Engine | None = None,
) -> GameResult:
    """Play one game; write its record into ``records`` if given."""
    return play_state(rules, seed, lineup, index=index, records=records, max_actions=max_actions,
                      engine=engine)[1]


def play_state(
    rules: Rules,
    seed: int,
    lineup: Lineup,
    *,
    index: int = 0,
    records: Path | None = None,
    max_actions: int = MAX_ACTIONS,
    marks: list[int] | None = None,
    engine: Engine | None = None,
) -> tuple[State, GameResult]:
    """:func:`play_game`, also giving the finished state; ``marks`` (if given) gets the length
    of the log before each action, so that a game's events can be told apart by decision.
    ``engine``: the one the run chose (by default the one chosen now)."""
    state = (engine or Engine.chosen()).new_game(rules, seed)
    players = len(state.scores)
    on_events = None
    if marks is not None:
        seen = [len(state.log)]

        def on_events(seat: int, action: int, events: list[Event]) -> None:
            marks.append(seen[0])
            seen[0] = len(state.log)

    match = Match(state, [lineup.make(s, seed * 1000 + s) for s in range(players)], max_actions=max_actions,
                  on_events=on_events)
    match.run()
    result = result_from_log(rules.spec, state.log, index, seed, state.scores)
    result.actions = match.actions
    result.guard_stopped = not state.is_over
    if records is not None:
        seat_info = [{"name": f"Seat {s}", "agent": lineup.specs[s]} for s in range(players)]
        save(make_record(state, seat_info), records / f"game-{index:06d}.json")
    return state, result


def result_from_log(spec: GameSpec, log: list[Event], index: int, seed: int, totals: list[int]) -> GameResult:
    """Read a game's figures from its events through the game's spec (the points of each deal,
    the winners from the event that ends it, ``info.end_event``; the extras), so one summary
    serves every game."""
    deal_points = [points for event in log if (points := spec.deal_points(event)) is not None]
    # A game stopped by the action guard has no end event, and no winner.
    end = next((event for event in reversed(log) if event["t"] == spec.info.end_event), None)
    return GameResult(
        index=index, seed=seed, totals=totals, winners=[] if end is None else spec.winners(end),
        deals=len(deal_points), deal_points=deal_points, extras=spec.result_extras(log),
    )


def missing_folders(folder: Path) -> list[Path]:
    """The folders ``folder.mkdir(parents=True)`` would make, deepest first."""
    return [p for p in (folder, *folder.parents) if not p.exists()]


def remove_empty_folders(folders: Sequence[Path]) -> None:
    """Remove each of ``folders`` (deepest first) that is empty: a run stopped or failed leaves
    no empty folder of its own making; a folder that holds files stays."""
    for made in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        with suppress(OSError):
            made.rmdir()


def make_records_folder(records: Path) -> None:
    """Make the records folder; a path that cannot be one is a ``RecordError``."""
    try:
        records.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise RecordError(f"cannot write records into {records}: {err.strerror or err}") from None


def _play_chunk(args: tuple[Rules, list[tuple[int, int]], Lineup, Path | None, Engine]) -> list[GameResult]:
    rules, jobs, lineup, records, engine = args
    return [play_game(rules, seed, lineup, index=i, records=records, engine=engine) for i, seed in jobs]


def run_games(
    rules: Rules,
    games: int,
    seed: int,
    lineup: Lineup,
    *,
    workers: int = 1,
    records: Path | None = None,
    progress: Callable[[int], None] | None = None,
    engine: Engine | None = None,
) -> list[GameResult]:
    """Play ``games`` games (game ``i`` uses seed ``seed + i``), on ``workers`` processes
    (:func:`cardroom.sim.runner.run_chunks`), every one on ``engine`` (by default the one
    chosen now, read once for the whole run).

    Results come back in game order and do not depend on the number of workers.
    """
    engine = engine or Engine.chosen()
    if records is not None:
        make_records_folder(records)
    jobs = [(i, seed + i) for i in range(games)]
    workers = worker_count(workers, len(jobs))
    batched = None if records is not None else _native_batch(rules, games, seed, lineup, progress, engine)
    if batched is not None:
        return batched
    size = 1 if workers == 1 else chunk_size(len(jobs), workers)  # in this process, a game at a time
    parts = ((rules, jobs[at:at + size], lineup, records, engine) for at in range(0, len(jobs), size))
    results: list[GameResult] = []
    for chunk in run_chunks(_play_chunk, parts, workers):
        results.extend(chunk)
        if progress:
            progress(len(chunk))
    return results


NATIVE_CHUNK = 500
"""Games per native batch call when ``run_games`` takes the native path: the progress bar moves
after each."""


def _native_batch(
    rules: Rules, games: int, seed: int, lineup: Lineup, progress: Callable[[int], None] | None,
    engine: Engine,
) -> list[GameResult] | None:
    """The very games ``run_games`` plays, played by the native engine in batches (one process,
    no Python in the loop), when the game runs on it and every seat is an agent it plays
    (``random`` or ``heuristic``, no options); else ``None``."""
    batch = native_plays(engine, rules, [lineup], seed, seed + games)
    if batch is None:
        return None
    results: list[GameResult] = []
    for start in range(0, games, NATIVE_CHUNK):
        count = min(NATIVE_CHUNK, games - start)
        found = batch.agent_games(rules, count, seed + start, lineup.specs, MAX_ACTIONS)
        played = range(start, start + count)
        results.extend(batch_results(found, played, (seed + k for k in played)))
        if progress:
            progress(count)
    return results


def native_plays(
    engine: Engine, rules: Rules, lineups: Sequence[Lineup], first_seed: int, last_seed: int
) -> NativeEngine | None:
    """The native batch module (:meth:`cardroom.native.Engine.batch`) that plays games of seeds
    ``first_seed..last_seed`` of ``rules`` between ``lineups`` (every seat an agent of its
    ``POLICIES``: ``random`` or ``heuristic``, no options), when ``engine`` plays the game
    natively; else ``None``."""
    batch = engine.batch(rules.spec)
    if batch is None or any(spec not in batch.POLICIES for lineup in lineups for spec in lineup.specs):
        return None
    if not -(2**62) <= first_seed <= last_seed <= 2**62:  # the native engine's seeds are 64-bit
        return None
    return batch


def batch_results(found: BatchResults, indexes: Iterable[int], seeds: Iterable[int]) -> list[GameResult]:
    """A native batch's games (``found``, :class:`~cardroom.games.contracts.BatchResults`; see the
    game's native engine, ``GameSpec.native``) as results, with their indexes and seeds."""
    results = []
    lists = getattr(found, "winner_lists", None)  # a game whose first place may be shared
    for k, (index, seed) in enumerate(zip(indexes, seeds, strict=True)):
        winner = found.winners[k]
        winners = lists[k] if lists is not None else [] if winner < 0 else [winner]
        results.append(GameResult(
            index=index, seed=seed, totals=found.totals[k], winners=winners,
            deals=len(found.deal_points[k]), deal_points=found.deal_points[k], extras=found.extras[k],
            actions=found.actions[k], guard_stopped=winner < 0,
        ))
    return results


def worker_count(workers: int, jobs: int) -> int:
    """The processes to start for ``jobs`` games when ``workers`` are asked for (0: one per
    core): never more than the cores, since games are pure computation, nor than the games.

    >>> worker_count(1, 100)
    1
    >>> worker_count(8, 3) <= 3
    True
    """
    if not is_whole(workers) or not 0 <= workers <= MAX_WORKERS:
        raise ValueError(
            f"workers must be a whole number from 0 (one per core) to {MAX_WORKERS}, not {workers!r}"
        )
    cores = os.cpu_count() or 1
    return max(1, min(workers or cores, cores, jobs))
