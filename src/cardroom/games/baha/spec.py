"""Baha in the registry of games: what every front needs to know of it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from cardroom.engine import Event, Rules, RulesError, State
from cardroom.games import GameInfo, GameSpec, options_of
from cardroom.games.baha.actions import NUM_ACTIONS
from cardroom.games.baha.events import EndEvent, baha_event, baha_events
from cardroom.games.baha.narrate import narrate
from cardroom.games.baha.rules import MAX_PLAYERS, MIN_PLAYERS, Deal
from cardroom.games.baha.rules import Rules as BahaRules

__all__ = ["SPEC"]


def _start(rules: Rules, seed: int, start: Mapping[str, Any]) -> State:
    """A game from a record's ``start``: a hand-made ``deal``, starting ``totals``, a ``hand`` number."""
    assert isinstance(rules, BahaRules)
    deal = start.get("deal")
    if deal is not None and not isinstance(deal, Mapping):
        raise RulesError("start.deal must be an object with hands, leftover, draw_pile, dealer")
    unknown = set(start) - {"deal", "totals", "hand"}
    if unknown:
        raise RulesError(f"start has unknown field {sorted(unknown)[0]!r}")
    return rules.new_game(seed, deal=Deal(**deal) if deal is not None else None,
                          totals=start.get("totals"), hand=start.get("hand", 1))


def _players() -> tuple[int, int]:
    """Fewest and most players (a named function, not a lambda, so that the spec pickles)."""
    return MIN_PLAYERS, MAX_PLAYERS


def _num_actions(rules: Rules) -> int:
    return NUM_ACTIONS


def _deal_points(event: Event) -> list[int] | None:
    seen = baha_event(event)
    return list(seen["points"]) if seen["t"] == "score" else None


def _winners(end: Event) -> list[int]:
    return [cast(EndEvent, end)["winner"]]


def _extras(log: Sequence[Event]) -> dict[str, int]:
    return {"moons": sum(1 for e in baha_events(log) if e["t"] == "score" and e.get("moon") is not None)}


SPEC = GameSpec(
    name="baha",
    title="Baha",
    summary="A trick-taking game of avoiding the horned cards: pass three, follow colour, play to 100.",
    rules=BahaRules,
    options=options_of(BahaRules),  # declared beside their fields in rules.py
    players=_players,
    start=_start,
    narrate=narrate,
    deal_unit="hand",
    points="horns",
    deal_points=_deal_points,
    winners=_winners,
    result_extras=_extras,
    info=GameInfo(num_actions=_num_actions, lower_wins=True, end_event="end",
                  capabilities=frozenset({"quiet_playout"})),
    # The UCB constant is scaled to the spread of returns(), so that both games' searches
    # explore alike: about 0.15 moons here (the standard deviation of returns() over heuristic
    # rollouts from positions of play).
    exploration=0.7,
    returns_unit="moons (one hand's points)",
    trained_options={"target": 1},  # one hand a game, as docs/strength.md measures the search
    heuristic="cardroom.agents.baha_heuristic:BahaHeuristic",
    terminal="cardroom.cli.play.baha:run_play",
    web_renderer="games/baha.js",
    results="cardroom.games.baha.results:TABLES",
    observation="cardroom.games.baha.observation:encoder",
    analysis="cardroom.analysis.games.baha",
    deal_limits="cardroom.games.baha.limits:deal_limits",
    native="cardroom.games.baha.native",
    vector="cardroom.games.baha.vector",
)
