"""BAEBAE in the registry of games: what every front needs to know of it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from cardroom.engine import Event, Rules, RulesError, State
from cardroom.games import GameInfo, GameSpec, options_of
from cardroom.games.baebae.actions import ActionSpace
from cardroom.games.baebae.deck import find_deck
from cardroom.games.baebae.deck_support import DECKS
from cardroom.games.baebae.events import EndEvent, baebae_event, baebae_events
from cardroom.games.baebae.narrate import narrate
from cardroom.games.baebae.rules import (
    MIN_PLAYERS,
    players_for,
)
from cardroom.games.baebae.rules import Rules as BaebaeRules
from cardroom.games.baebae.state import Deal

__all__ = ["SPEC"]


def _start(rules: Rules, seed: int, start: Mapping[str, Any]) -> State:
    """A game from a record's ``start``: a hand-made ``deal`` and starting ``totals``."""
    assert isinstance(rules, BaebaeRules)
    deal = start.get("deal")
    if deal is not None and not isinstance(deal, Mapping):
        raise RulesError("start.deal must be an object with hands, starter, stock, dealer")
    unknown = set(start) - {"deal", "totals"}
    if unknown:
        raise RulesError(f"start has unknown field {sorted(unknown)[0]!r}")
    return rules.new_game(seed, deal=Deal(**deal) if deal is not None else None,
                          totals=start.get("totals"))


def _players() -> tuple[int, int]:
    """Fewest and most players with the project's sample deck and the default hand size."""
    fitting = players_for(find_deck("sample").size)
    return MIN_PLAYERS, fitting[-1]


def _deal_points(event: Event) -> list[int] | None:
    seen = baebae_event(event)
    return list(seen["penalties"]) if seen["t"] == "round_end" else None


def _winners(end: Event) -> list[int]:
    return [r["seat"] for r in cast(EndEvent, end)["ranking"] if r["place"] == 1]


def _num_actions(rules: Rules) -> int:
    assert isinstance(rules, BaebaeRules)
    return ActionSpace(len(rules.cards), rules.players, rules.max_options).size


def _extras(log: Sequence[Event]) -> dict[str, int]:
    ends = [e for e in baebae_events(log) if e["t"] == "round_end"]
    return {"blocked_rounds": sum(bool(e["blocked"]) for e in ends),
            "guard_rounds": sum(bool(e.get("guard")) for e in ends)}


SPEC = GameSpec(
    name="baebae",
    title="BAEBAE",
    summary="A shedding game whose cards are characters with types and actions, scored by penalty "
            "over rounds.",
    rules=BaebaeRules,
    options=options_of(BaebaeRules),  # declared beside their fields in rules.py
    players=_players,
    start=_start,
    narrate=narrate,
    deal_unit="round",
    points="penalty",
    deal_points=_deal_points,
    winners=_winners,
    result_extras=_extras,
    info=GameInfo(num_actions=_num_actions, lower_wins=True, end_event="end",
                  capabilities=frozenset({"deck_rules"})),
    # The UCB constant is scaled to the spread of returns(): about 0.86 tens of points here
    # (the standard deviation of returns() over heuristic rollouts from positions of play),
    # against 0.15 moons for Baha. At Baha's 0.7, this search settled on noise (an option left
    # after 3 to 8 visits); at 4.0 it beat the heuristic by 1.82 penalty points a round against
    # 0.58 (docs/strength.md).
    exploration=4.0,
    returns_unit="tens of penalty points",
    heuristic="cardroom.agents.baebae_heuristic:BaebaeHeuristic",
    terminal="cardroom.cli.play.baebae:run_play",
    web_renderer="games/baebae.js",
    results="cardroom.games.baebae.results:TABLES",
    observation="cardroom.games.baebae.observation:encoder",
    analysis="cardroom.analysis.games.baebae",
    decks=DECKS,
    deal_limits="cardroom.games.baebae.limits:deal_limits",
    native="cardroom.games.baebae.native",
    deck_editing="cardroom.games.baebae.deck_edit:EDITING",
    vector="cardroom.games.baebae.vector",
)
