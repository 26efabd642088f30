"""Baha's events told as one line of plain English each, for a replay read as a story.

Narration tells only what the event holds: given a seat's filtered log (``view_log(seat)``),
a card that seat may not know is ``?`` in the event and "a card" in the line. Cards are written
as the terminal shows them: value, colour letter, a ``▲`` per horn.

>>> from cardroom.games import baha
>>> names = ["Ada", "Bo", "Cy", "Di"]
>>> narrate({"t": "play", "p": 1, "card": "12R"}, names, baha.Rules())
'Bo plays 12R▲▲▲▲.'
>>> narrate({"t": "pass", "from": 2, "to": 3, "cards": ["?", "?", "?"]}, names, baha.Rules())
'Cy passes 3 cards to Di.'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardroom.engine import Event
from cardroom.games.baha.cards import COLOUR_LETTERS, CardParseError, horns_of, parse_baha_card
from cardroom.games.baha.events import (
    DrawEvent,
    EndEvent,
    HandEvent,
    PassEvent,
    PassPickEvent,
    PlayEvent,
    ScoreEvent,
    TakeEvent,
    TrickEvent,
)
from cardroom.text import plural

__all__ = ["narrate", "card_text"]

HIDDEN = "?"
HORN = "▲"


def card_text(text: str) -> str:
    """A card as the terminal writes it (``9P▲``); a hidden card stays ``?``."""
    try:
        card = parse_baha_card(text)
    except CardParseError:
        return text
    return text + HORN * horns_of(card)


def narrate(event: Event, names: Sequence[str], rules: Any) -> str | None:
    """One line telling ``event`` (seats by ``names``), or ``None`` for an event not told."""
    tell = _TELLERS.get(event["t"])
    return None if tell is None else tell(event, names, rules)


def _cards(texts: Sequence[str]) -> str:
    return " ".join(card_text(t) for t in texts)


def _some(texts: Sequence[str], noun: str = "card") -> str:
    """The cards if they are known, else how many."""
    if texts and HIDDEN not in texts:
        return _cards(texts)
    return plural(len(texts), noun, one="a")


def _amount(points: int, rules: Any) -> str:
    return plural(points, "horn" if getattr(rules, "scoring", "horns") == "horns" else "point")


def _per_seat(numbers: Sequence[int], names: Sequence[str]) -> str:
    return ", ".join(f"{names[s]} {n}" for s, n in enumerate(numbers))


def _hand(event: HandEvent, names: Sequence[str], rules: Any) -> str:
    direction = event.get("pass", "none")
    passing = "no passing" if direction == "none" else f"pass 3 {direction}"
    line = f"Hand {event['n']}, dealt by {names[event['dealer']]} ({passing})."
    known = [f"{names[s]} holds {_cards(sorted(h, key=_order))}" for s, h in enumerate(event["hands"])
             if h and HIDDEN not in h]
    if known:
        line += " " + "; ".join(known) + "."
    if event.get("leftover"):
        line += f" Face down: {_some(event['leftover'])}."
    if event.get("draw_pile"):
        line += f" Draw pile: {_some(event['draw_pile'])}."
    return line


def _order(text: str) -> tuple[int, int]:
    """Colour then value, as the terminal sorts a hand."""
    return (COLOUR_LETTERS.index(text[-1]) if text[-1] in COLOUR_LETTERS else 4,
            int(text[:-1]) if text[:-1].isdecimal() else 0)


def _pass_pick(event: PassPickEvent, names: Sequence[str], rules: Any) -> str:
    return f"{names[event['p']]} picks {_some([event['card']])} to pass."


def _pass(event: PassEvent, names: Sequence[str], rules: Any) -> str:
    return f"{names[event['from']]} passes {_some(event['cards'])} to {names[event['to']]}."


def _play(event: PlayEvent, names: Sequence[str], rules: Any) -> str:
    return f"{names[event['p']]} plays {card_text(event['card'])}."


def _trick(event: TrickEvent, names: Sequence[str], rules: Any) -> str:
    line = f"{names[event['winner']]} takes trick {event['n']} ({_amount(event['horns'], rules)})"
    if event.get("leftover"):
        line += f" and the face-down {_some(event['leftover'])}"
    return line + "."


def _draw(event: DrawEvent, names: Sequence[str], rules: Any) -> str:
    return f"{names[event['p']]} draws {_some([event['card']])}."


def _take(event: TakeEvent, names: Sequence[str], rules: Any) -> str:
    return f"{names[event['p']]} takes the last of the draw pile face down: {_some(event['cards'])}."


def _score(event: ScoreEvent, names: Sequence[str], rules: Any) -> str:
    line = f"Hand {event['hand']} scored: taken {_per_seat(event['horns'], names)}"
    moon = event.get("moon")
    if moon is not None:
        line += f"; {names[moon]} shoots the moon"
    line += f"; scores {_per_seat(event['points'], names)}; totals {_per_seat(event['totals'], names)}."
    revealed = [f"{names[s]} {_cards(c)}" for s, c in enumerate(event.get("revealed") or []) if c]
    if revealed:
        line += f" Face-down cards: {'; '.join(revealed)}."
    return line


def _end(event: EndEvent, names: Sequence[str], rules: Any) -> str:
    winner = event["winner"]
    return (f"Game over: {names[winner]} wins with {_amount(event['totals'][winner], rules)} "
            f"(totals {_per_seat(event['totals'], names)}).")


_TELLERS: dict[str, Callable[[Any, Sequence[str], Any], str]] = {
    "hand": _hand, "pass_pick": _pass_pick, "pass": _pass, "play": _play, "trick": _trick,
    "draw": _draw, "take": _take, "score": _score, "end": _end,
}
