"""Summaries of many games: per seat and per agent, each figure with its 95% interval."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.engine import Rules
from cardroom.sim.stats import mean_ci, wilson
from cardroom.sim.tournament import GameResult, Lineup

__all__ = ["summarize"]


UNITS = {"baha": ("hand", "horns per hand"), "baebae": ("round", "penalty per round")}


def summarize(
    rules: Rules, lineup: Lineup, results: Sequence[GameResult], seed: int, seconds: float
) -> dict[str, Any]:
    """A JSON-ready summary: mean points per deal and wins, per seat and per agent.

    A deal is a Baha hand or a BAEBAE round; its points are the hand's score (after a moon)
    or the round's penalty. The interval of a mean treats deals as independent samples. A
    win shared by k seats counts 1/k to each; win rates are per seat-game, with Wilson
    intervals.
    """
    players = len(lineup.specs)
    games = len(results)
    deal, unit = UNITS.get(rules.game, ("deal", "points per deal"))
    per_seat_points: list[list[float]] = [[] for _ in range(players)]
    wins = [0.0] * players
    for result in results:
        for deal_points in result.deal_points:
            for seat in range(players):
                per_seat_points[seat].append(deal_points[seat])
        for seat in result.winners:
            wins[seat] += 1 / len(result.winners)
    seats = []
    for seat in range(players):
        seats.append({
            "seat": seat,
            "agent": lineup.specs[seat],
            "mean_points": mean_ci(per_seat_points[seat]).to_dict(),
            "wins": round(wins[seat], 6),
            "win_rate": wilson(wins[seat], games).to_dict(),
        })
    agents = []
    for spec in dict.fromkeys(lineup.specs):
        mine = [s for s in range(players) if lineup.specs[s] == spec]
        points: list[float] = [p for s in mine for p in per_seat_points[s]]
        won = sum(wins[s] for s in mine)
        agents.append({
            "agent": spec,
            "seats": mine,
            "mean_points": mean_ci(points).to_dict(),
            "wins": round(won, 6),
            "win_rate": wilson(won, games * len(mine)).to_dict(),
        })
    deals = sum(r.deals for r in results)
    summary: dict[str, Any] = {
        "game": rules.game,
        "rules": rules.to_dict(),
        "games": games,
        "seed": seed,
        "deal": deal,
        "unit": unit,
        "deals": deals,
        "deals_per_game": deals / games if games else 0.0,
        "guard_stopped": sum(r.guard_stopped for r in results),
        "seconds": round(seconds, 3),
        "seats": seats,
        "agents": agents,
    }
    if rules.game == "baha":
        summary["moons"] = sum(len(r.moons) for r in results)
    else:
        summary["blocked_rounds"] = sum(r.blocked for r in results)
        summary["guard_rounds"] = sum(r.guard_rounds for r in results)
    if hasattr(rules, "deck_record"):
        summary["deck"] = rules.deck_record()
    return summary
