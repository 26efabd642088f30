"""BAEBAE's events told as one line of plain English each, for a replay read as a story.

Narration tells only what the event holds: given a seat's filtered log (``view_log(seat)``),
a card that seat may not know is ``?`` in the event and "a card" in the line. Cards are written
as the terminal shows them: rank and suit symbol, then the character (``7♥ The Puddingstone
Brass Band``); a card's design is public (the deck).

>>> from cardroom.games import baebae
>>> names = ["Ada", "Bo"]
>>> narrate({"t": "play", "p": 1, "card": "8S", "under": False}, names, baebae.Rules(players=2))
'Bo plays 8♠ The Moonlit Fox [wild].'
>>> narrate({"t": "draw", "p": 0, "card": "?", "forced": True}, names, baebae.Rules(players=2))
'Ada draws a card (made to by an action).'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from cardroom.engine import Event
from cardroom.games.baebae.effects import SUIT_NAMES, SUIT_SYMBOLS, SUITS
from cardroom.games.baebae.events import (
    CoinEvent,
    DeclareEvent,
    DrawEvent,
    EffectEvent,
    EndEvent,
    MoveEvent,
    PassEvent,
    PenaltyEvent,
    PlayEvent,
    ReshuffleEvent,
    ReverseEvent,
    RoundEndEvent,
    RoundEvent,
    SkipEvent,
)
from cardroom.text import plural

__all__ = ["narrate", "card_text"]

HIDDEN = "?"
_KEY = re.compile(r"(10|[2-9AJQK])([CDHS])(#\d+)?")


def card_text(key: str, rules: Any, *, named: bool = True) -> str:
    """A card as the terminal writes it: ``10♥``, with its character and marks when ``named``."""
    match = _KEY.fullmatch(key)
    if match is None:
        return key
    rank, suit, copy = match.groups()
    out = f"{rank}{SUIT_SYMBOLS[SUITS.index(suit)]}{copy or ''}"
    design = rules.deck_data.by_key().get(key) if named else None
    if design is not None:
        if design.name:
            out += f" {design.name}"
        marks = [m for m in ("wild", "skip", "reverse") if m in design.marks]
        if marks:
            out += " " + " ".join(f"[{m}]" for m in marks)
    return out


def narrate(event: Event, names: Sequence[str], rules: Any) -> str | None:
    """One line telling ``event`` (seats by ``names``), or ``None`` for an event not told."""
    tell = _TELLERS.get(event["t"])
    return None if tell is None else tell(event, names, rules)


def _suit(letter: str) -> str:
    return f"{SUIT_SYMBOLS[SUITS.index(letter)]} {SUIT_NAMES[SUITS.index(letter)]}"


def _cards(keys: Sequence[str], rules: Any) -> str:
    return " ".join(card_text(k, rules, named=False) for k in keys)


def _some(keys: Sequence[str], rules: Any) -> str:
    """The cards if they are known (each with its character), else how many."""
    if keys and HIDDEN not in keys:
        return ", ".join(card_text(k, rules) for k in keys)
    return plural(len(keys), "card", one="a")


def _per_seat(numbers: Sequence[int], names: Sequence[str]) -> str:
    return ", ".join(f"{names[s]} {n}" for s, n in enumerate(numbers))


def _way(direction: int) -> str:
    return "left" if direction == 1 else "right"


def _round(event: RoundEvent, names: Sequence[str], rules: Any) -> str:
    hands = event["hands"]
    line = (f"Round {event['n']}: {names[event['dealer']]} deals {plural(len(hands[0]), 'card')} each; "
            f"the starter is {card_text(event['starter'], rules)}, {_suit(event['suit'])} in play; "
            f"play goes {_way(event['direction'])}.")
    known = [f"{names[s]} holds {_cards(h, rules)}" for s, h in enumerate(hands) if h and HIDDEN not in h]
    if known:
        line += " " + "; ".join(known) + "."
    return line


def _play(event: PlayEvent, names: Sequence[str], rules: Any) -> str:
    if event.get("under"):
        return f"{names[event['p']]} puts {card_text(event['card'], rules)} under the action card."
    return f"{names[event['p']]} plays {card_text(event['card'], rules)}."


def _declare(event: DeclareEvent, names: Sequence[str], rules: Any) -> str:
    return f"{names[event['p']]} names {_suit(event['suit'])}."


def _draw(event: DrawEvent, names: Sequence[str], rules: Any) -> str:
    forced = " (made to by an action)" if event.get("forced") else ""
    return f"{names[event['p']]} draws {_some([event['card']], rules)}{forced}."


def _pass(event: PassEvent, names: Sequence[str], rules: Any) -> str:
    return f"{names[event['p']]} passes."


def _reshuffle(event: ReshuffleEvent, names: Sequence[str], rules: Any) -> str:
    stock = plural(len(event["stock"]), "card")
    return f"The discard pile under the top card becomes a new stockpile of {stock}."


def _coin(event: CoinEvent, names: Sequence[str], rules: Any) -> str:
    return f"{names[event['p']]} flips a coin: {event['result']}."


def _skip(event: SkipEvent, names: Sequence[str], rules: Any) -> str:
    return f"{names[event['p']]} loses a turn."


def _reverse(event: ReverseEvent, names: Sequence[str], rules: Any) -> str:
    return f"Play now goes {_way(event['direction'])}."


def _move(event: MoveEvent, names: Sequence[str], rules: Any) -> str:
    source, cards = event["from"], event["cards"]
    if event["why"] == "discard":
        return f"{names[source]} puts {_some(cards, rules)} under the action card."
    to, why = event["to"], event["why"]
    if why == "take":
        return f"{names[to]} takes {_some(cards, rules)} from {names[source]}."
    if why == "swap":
        return f"{names[source]} hands {_some(cards, rules)} to {names[to]} (hands swapped)."
    return f"{names[source]} gives {names[to]} {_some(cards, rules)}."


def _penalty(event: PenaltyEvent, names: Sequence[str], rules: Any) -> str:
    points = event["points"]
    if points >= 0:
        return f"{names[event['p']]} gets {plural(points, 'penalty point')}."
    return f"{names[event['p']]} takes {plural(-points, 'point')} off their penalty."


def _effect(event: EffectEvent, names: Sequence[str], rules: Any) -> str | None:
    who = names[event["p"]]
    if event["op"] == "on_start":
        return f"The starter's action is carried out with the dealer, {who}, as its player."
    if event["op"] == "optional":
        done = "carries out" if event.get("carried_out") else "does not carry out"
        return f"{who} {done} the action of {card_text(event['card'], rules, named=False)}."
    if event["op"] == "target":
        return f"{who} chooses {names[event['who']]} for {card_text(event['card'], rules, named=False)}."
    if event["op"] == "choose":
        return f"{who} chooses: {event.get('label', event.get('option'))}."
    if event["op"] == "skip":
        return f"{names[event['who']]} will lose their next turn."
    if event["op"] == "play_again":
        return f"{who} will take another turn."
    if event["op"] == "peek":
        cards = event.get("cards") or []
        if HIDDEN in cards:
            return f"{who} looks at {names[event['who']]}'s hand."
        return f"{who} looks at {names[event['who']]}'s hand: {_some(cards, rules) if cards else 'no cards'}."
    return None


def _round_end(event: RoundEndEvent, names: Sequence[str], rules: Any) -> str:
    out = event["out"]
    if event.get("guard"):
        how = "went on too long and is stopped; nobody is out"
    elif event.get("blocked") or out is None:
        how = "is blocked; nobody is out"
    else:
        how = f"is over: {names[out]} is out"
    left = [f"{names[s]} {_cards(h, rules)}" for s, h in enumerate(event["hands"]) if h]
    line = f"Round {event['n']} {how}."
    if left:
        line += f" Cards left: {'; '.join(left)}."
    penalties, totals = _per_seat(event["penalties"], names), _per_seat(event["totals"], names)
    return line + f" Penalties {penalties}; totals {totals}."


def _end(event: EndEvent, names: Sequence[str], rules: Any) -> str:
    ranking = "; ".join(f"{r['place']}. {names[r['seat']]} {r['total']}" for r in event["ranking"])
    line = f"Game over: {ranking}."
    if event.get("shame"):
        shamed = " and ".join(names[s] for s in event["shame"])
        line += f" {shamed} must bury {'their heads' if len(event['shame']) > 1 else 'their head'} in shame."
    return line


_TELLERS: dict[str, Callable[[Any, Sequence[str], Any], str | None]] = {
    "round": _round, "play": _play, "declare": _declare, "draw": _draw, "pass": _pass,
    "reshuffle": _reshuffle, "coin": _coin, "skip": _skip, "reverse": _reverse, "move": _move,
    "penalty": _penalty, "effect": _effect, "round_end": _round_end, "end": _end,
}
