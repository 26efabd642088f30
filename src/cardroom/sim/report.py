"""Summaries of many games: per seat and per agent, each figure with its 95% interval."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.engine import DeckRules, Rules
from cardroom.games import GameSpec
from cardroom.sim.stats import mean_ci, wilson
from cardroom.sim.tournament import GameResult, Lineup

__all__ = ["deck_words", "rules_shown", "summarize", "units"]


def rules_shown(rules: Rules) -> dict[str, Any]:
    """The rules as a summary shows them to people and programs: every option, a deck file's
    text left out (the deck is named by its digest in ``deck``, and by name and digest in the
    summary's ``deck``)."""
    options = rules.to_dict()
    options.pop("deck_files", None)
    return options


def deck_words(deck: Any) -> str:
    """A deck as a person reads it: its name and the start of its digest
    (``My Deck (sha256:8e41a0ae6383...)``), from a record's or a manifest's ``deck``.

    >>> deck_words({"name": "My Deck", "digest": "sha256:" + "8e41" * 16, "spec": "sha256:..."})
    'My Deck (sha256:8e418e418e41...)'
    """
    if not isinstance(deck, dict):
        return str(deck)
    return f"{deck.get('name', '')} ({str(deck.get('digest', ''))[:19]}...)"


def units(spec: GameSpec) -> tuple[str, str]:
    """What a deal of ``spec``'s game is called and the unit of its mean points:
    ``("hand", "horns per hand")``."""
    return spec.deal_unit, f"{spec.points} per {spec.deal_unit}"


def summarize(
    rules: Rules, lineup: Lineup, results: Sequence[GameResult], seed: int, seconds: float
) -> dict[str, Any]:
    """A JSON-ready summary: mean points per deal and wins, per seat and per agent.

    A deal is the game's unit of play (its spec's ``deal_unit``: a Baha hand, a BAEBAE round);
    its points are the hand's score (after a moon) or the round's penalty. The interval of a
    mean treats deals as independent samples. A win shared by k seats counts 1/k to each; win
    rates are per seat-game, with Wilson intervals. The game's own counts (its spec's
    ``result_extras``: moons, blocked rounds...) are summed over the games.
    """
    deal, unit = units(rules.spec)
    players = len(lineup.specs)
    games = len(results)
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
        "rules": rules_shown(rules),
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
    # the game's own counts: their keys are those of a game without events, where each is 0
    for key in rules.spec.result_extras([]):
        summary[key] = sum(r.extras.get(key, 0) for r in results)
    if isinstance(rules, DeckRules):
        summary["deck"] = rules.deck_record()
    return summary
