"""Summaries of many games: per seat and per agent, each figure with its 95% interval."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.engine import Rules
from cardroom.sim.stats import mean_ci, wilson
from cardroom.sim.tournament import GameResult, Lineup

__all__ = ["summarize"]


def summarize(
    rules: Rules, lineup: Lineup, results: Sequence[GameResult], seed: int, seconds: float
) -> dict[str, Any]:
    """A JSON-ready summary: points per hand and wins, per seat and per agent.

    Points per hand are the hand scores (after a moon); their interval treats hands as
    independent samples. Win rates are per seat-game, with Wilson intervals.
    """
    players = len(lineup.specs)
    games = len(results)
    per_seat_points: list[list[float]] = [[] for _ in range(players)]
    wins = [0] * players
    for result in results:
        for hand in result.hand_points:
            for seat in range(players):
                per_seat_points[seat].append(hand[seat])
        if result.winner is not None:
            wins[result.winner] += 1
    seats = []
    for seat in range(players):
        seats.append({
            "seat": seat,
            "agent": lineup.specs[seat],
            "points_per_hand": mean_ci(per_seat_points[seat]).to_dict(),
            "wins": wins[seat],
            "win_rate": wilson(wins[seat], games).to_dict(),
        })
    agents = []
    for spec in dict.fromkeys(lineup.specs):
        mine = [s for s in range(players) if lineup.specs[s] == spec]
        points = [p for s in mine for p in per_seat_points[s]]
        won = sum(wins[s] for s in mine)
        agents.append({
            "agent": spec,
            "seats": mine,
            "points_per_hand": mean_ci(points).to_dict(),
            "wins": won,
            "win_rate": wilson(won, games * len(mine)).to_dict(),
        })
    hands = sum(r.hands for r in results)
    return {
        "game": rules.game,
        "rules": rules.to_dict(),
        "games": games,
        "seed": seed,
        "hands": hands,
        "hands_per_game": hands / games if games else 0.0,
        "moons": sum(len(r.moons) for r in results),
        "guard_stopped": sum(r.guard_stopped for r in results),
        "seconds": round(seconds, 3),
        "seats": seats,
        "agents": agents,
    }
