"""Duplicate deals: every deal is played once per rotation of the line-up over the seats.

Luck of the cards is the largest noise in a card game. Playing the same deals with every
agent in every seat, and comparing agents deal by deal, removes most of it: a difference
between two agents is measured on the same cards. Chance in Cardroom is keyed by the seed
and the deal number, so the same seed deals the same cards to the same seats whatever the
players do.

Figures (each with a 95% interval over deals):

- per agent: mean points per deal (Baha horns per hand, BAEBAE penalty per round), the
  deal's value being the agent's mean over its seats and rotations; win rate per seat-game
  (Wilson interval; a shared first place counts 1/k);
- per pair of agents: the paired difference of their mean points, deal by deal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from cardroom.engine import DeckRules, Rules
from cardroom.games.contracts import NativeEngine
from cardroom.native import Engine
from cardroom.sim.report import rules_shown, units
from cardroom.sim.runner import chunk_size, run_chunks
from cardroom.sim.stats import mean_ci, wilson
from cardroom.sim.tournament import (
    MAX_ACTIONS,
    GameResult,
    Lineup,
    batch_results,
    make_records_folder,
    native_plays,
    play_game,
    worker_count,
)

__all__ = ["by_deal", "rotations", "run_duplicate", "summarize_duplicate"]


def rotations(lineup: Lineup) -> list[Lineup]:
    """The line-up turned round the table once per seat; identical rotations kept once."""
    n = len(lineup.specs)
    seen: dict[tuple[str, ...], None] = {}
    for r in range(n):
        seen.setdefault(tuple(lineup.specs[(s - r) % n] for s in range(n)), None)
    return [Lineup(specs) for specs in seen]


Job = tuple[int, int, int]  # (deal index, rotation index, seed)


def _play(
    args: tuple[Rules, list[Job], list[Lineup], Path | None, Engine],
) -> list[tuple[int, int, GameResult]]:
    rules, jobs, lineups, records, engine = args
    out = []
    for deal, rot, seed in jobs:
        result = play_game(rules, seed, lineups[rot], index=deal * len(lineups) + rot, records=records,
                           engine=engine)
        out.append((deal, rot, result))
    return out


def run_duplicate(
    rules: Rules,
    deals: int,
    seed: int,
    lineup: Lineup,
    *,
    workers: int = 1,
    records: Path | None = None,
    progress: Callable[[int], None] | None = None,
    engine: Engine | None = None,
) -> tuple[list[Lineup], list[list[GameResult]]]:
    """Play deal ``i`` (seed ``seed + i``) once per rotation; ``results[deal][rotation]``, every
    game on ``engine`` (by default the one chosen now, read once for the run)."""
    engine = engine or Engine.chosen()
    if records is not None:
        make_records_folder(records)
    lineups = rotations(lineup)
    if records is None and (batch := native_plays(engine, rules, lineups, seed, seed + deals)) is not None:
        return lineups, _native_duplicate(batch, rules, deals, seed, lineups, progress)
    jobs = [(d, r, seed + d) for d in range(deals) for r in range(len(lineups))]
    results: list[list[GameResult | None]] = [[None] * len(lineups) for _ in range(deals)]
    workers = worker_count(workers, len(jobs))
    size = 1 if workers == 1 else chunk_size(len(jobs), workers, most=20)
    parts = ((rules, jobs[at:at + size], lineups, records, engine) for at in range(0, len(jobs), size))
    for chunk in run_chunks(_play, parts, workers):
        _store(results, chunk, progress)
    return lineups, [[r for r in row if r is not None] for row in results]


NATIVE_DEALS = 200
"""Deals per native batch call (each played in every rotation): the progress bar moves after each."""


def _native_duplicate(batch: NativeEngine, rules: Rules, deals: int, seed: int, lineups: list[Lineup],
                      progress: Callable[[int], None] | None) -> list[list[GameResult]]:
    """The very games of :func:`run_duplicate`, played by the native batch module ``batch``
    (:func:`cardroom.sim.tournament.native_plays`) in this process, a rotation at a time."""
    rows: list[list[GameResult]] = []
    count = len(lineups)
    for start in range(0, deals, NATIVE_DEALS):
        played = range(start, min(deals, start + NATIVE_DEALS))
        by_rotation = [
            batch_results(batch.agent_games(rules, len(played), seed + start, lineup.specs, MAX_ACTIONS),
                          (d * count + r for d in played), (seed + d for d in played))
            for r, lineup in enumerate(lineups)
        ]
        rows.extend([games[k] for games in by_rotation] for k in range(len(played)))
        if progress:
            progress(len(played) * count)
    return rows


def by_deal(results: Sequence[GameResult], rotations: int) -> list[list[GameResult]]:
    """Games in duplicate order (game ``d * rotations + r``: deal ``d``, rotation ``r``, as
    ``simulate_to(..., duplicate=True)`` returns them) as ``results[deal][rotation]``."""
    return [list(results[at:at + rotations]) for at in range(0, len(results), rotations)]


def _store(
    results: list[list[GameResult | None]],
    chunk: list[tuple[int, int, GameResult]],
    progress: Callable[[int], None] | None,
) -> None:
    for deal, rot, result in chunk:
        results[deal][rot] = result
    if progress:
        progress(len(chunk))


def summarize_duplicate(
    rules: Rules,
    lineup: Lineup,
    lineups: Sequence[Lineup],
    results: Sequence[Sequence[GameResult]],
    seed: int,
    seconds: float,
) -> dict[str, Any]:
    """Per agent and per pair of agents, over deals; see the module documentation."""
    agents = list(dict.fromkeys(lineup.specs))
    deal_name, unit = units(rules.spec)
    per_deal: dict[str, list[float]] = {a: [] for a in agents}
    wins = dict.fromkeys(agents, 0.0)
    seat_games = dict.fromkeys(agents, 0)
    for row in results:
        sums = dict.fromkeys(agents, 0.0)
        counts = dict.fromkeys(agents, 0)
        for rot, result in enumerate(row):
            specs = lineups[rot].specs
            for points in result.deal_points:
                for seat, spec in enumerate(specs):
                    sums[spec] += points[seat]
                    counts[spec] += 1
            for seat, spec in enumerate(specs):
                seat_games[spec] += 1
                if seat in result.winners:
                    wins[spec] += 1 / len(result.winners)
        for agent in agents:
            if counts[agent]:
                per_deal[agent].append(sums[agent] / counts[agent])
    summary_agents = [
        {
            "agent": agent,
            "mean_points": mean_ci(per_deal[agent]).to_dict(),
            "wins": round(wins[agent], 6),
            "seat_games": seat_games[agent],
            "win_rate": wilson(wins[agent], seat_games[agent]).to_dict(),
        }
        for agent in agents
    ]
    pairs = []
    for i, a in enumerate(agents):
        for b in agents[i + 1:]:
            diffs = [x - y for x, y in zip(per_deal[a], per_deal[b], strict=True)]
            pairs.append({"agent": a, "versus": b, "difference": mean_ci(diffs).to_dict()})
    summary: dict[str, Any] = {
        "game": rules.game,
        "rules": rules_shown(rules),
        "duplicate": True,
        "deals": len(results),
        "rotations": [list(rotation.specs) for rotation in lineups],
        "games": sum(len(row) for row in results),
        "seed": seed,
        "deal": deal_name,
        "unit": unit,
        "seconds": round(seconds, 3),
        "guard_stopped": sum(r.guard_stopped for row in results for r in row),
        "agents": summary_agents,
        "pairs": pairs,
    }
    if isinstance(rules, DeckRules):
        summary["deck"] = rules.deck_record()
    return summary
