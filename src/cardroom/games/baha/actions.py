"""Baha's actions: the space of 104 ints, and their text forms both ways.

``card`` (0..51) plays that card, ``PASS_BASE + card`` picks it for the pass. This module
writes actions as text (``play 9P``, ``pass 13R``), reads them back, decodes them into an
:class:`~cardroom.engine.ActionInfo`, and says in words why one may not be taken now. The
phases live here too: what a bare card means, and which actions exist, depend on the phase.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Final

from cardroom.cards import CardMask
from cardroom.engine import Action, ActionInfo, IllegalAction
from cardroom.games.baha.cards import (
    BAHA_DECK,
    COLOUR_MASK,
    COLOUR_NAMES,
    VALUES,
    CardParseError,
    baha_card_text,
    cards_of,
    parse_baha_card,
)

if TYPE_CHECKING:
    from cardroom.games.baha.state import BahaState

__all__ = [
    "Phase", "PASS_BASE", "NUM_ACTIONS", "action_to_string", "decode", "parse_action", "illegal_reason",
    "allowed_suffix", "allowed_text", "CARD_TEXT", "CARD_COLOUR", "PASS_WORDS", "card_texts",
]

PASS_BASE: Final = len(BAHA_DECK)
NUM_ACTIONS: Final = 2 * len(BAHA_DECK)

CARD_TEXT: Final = tuple(baha_card_text(c) for c in BAHA_DECK)
"""Each card's text (``9P``), by card."""
CARD_COLOUR: Final = tuple(c // VALUES for c in BAHA_DECK)
"""Each card's colour (0 to 3), by card."""
PASS_WORDS: Final = {1: "right", -1: "left", 0: "none"}
"""A pass direction (seats to the left: 1 right, -1 left, 0 no pass) in words."""


class Phase(Enum):
    """Where a hand stands."""

    PASS = "pass"
    PLAY = "play"
    OVER = "over"


def card_texts(mask: CardMask) -> list[str]:
    """The texts of the cards in ``mask``, lowest first."""
    return [CARD_TEXT[c] for c in cards_of(mask)]


def action_to_string(state: BahaState, action: Action) -> str:
    if 0 <= action < PASS_BASE:
        return f"play {CARD_TEXT[action]}"
    if PASS_BASE <= action < NUM_ACTIONS:
        return f"pass {CARD_TEXT[action - PASS_BASE]}"
    raise IllegalAction(f"{action!r} is not a Baha action: actions are 0 to {NUM_ACTIONS - 1}")


def decode(state: BahaState, action: Action) -> ActionInfo:
    """``play`` or ``pass`` (a pick for the pass) and the card."""
    if 0 <= action < PASS_BASE:
        return ActionInfo("play", card=CARD_TEXT[action])
    if PASS_BASE <= action < NUM_ACTIONS:
        return ActionInfo("pass", card=CARD_TEXT[action - PASS_BASE])
    raise IllegalAction(f"{action!r} is not a Baha action: actions are 0 to {NUM_ACTIONS - 1}")


def parse_action(state: BahaState, text: str) -> Action:
    """The action named by ``"play 9P"``, ``"pass 13R"`` or just ``"9P"`` (for this phase)."""
    words = str(text).strip().lower().split(None, 1)
    if not words:
        raise IllegalAction("no action given: write e.g. 'play 9P' or 'pass 13R'")
    verb = words[0] if words[0] in ("play", "pass") else None
    card_text = words[1] if verb and len(words) > 1 else (" ".join(words) if not verb else "")
    if verb is None:
        verb = "pass" if state.phase is Phase.PASS else "play"
    try:
        card = parse_baha_card(card_text)
    except CardParseError as err:
        raise IllegalAction(str(err)) from None
    return card + (PASS_BASE if verb == "pass" else 0)


# -- reasons an action is refused ------------------------------------------------


def illegal_reason(state: BahaState, action: object) -> str | None:
    """Why ``action`` may not be taken now (what :meth:`apply` would raise), or ``None``."""
    # ``object``, not ``Action``: any value may come (a person's, a client's), and True, a
    # bool, is refused rather than read as the action 1.
    if type(action) is not int:
        return (f"an action is a whole number from 0 to {NUM_ACTIONS - 1}, not {action!r}"
                + allowed_suffix(state))
    turn = state.turn
    if turn is None:
        return "the game is over: no action can be taken"
    if not 0 <= action < NUM_ACTIONS:
        return (
            f"{action} is not a Baha action: actions are 0 to {NUM_ACTIONS - 1}"
            + allowed_suffix(state)
        )
    hand = state.hands[turn]
    if state.phase is Phase.PASS:
        if action < PASS_BASE:
            return (
                f"you must choose cards to pass {PASS_WORDS[state.pass_offset]}, "
                f"not play; allowed: {allowed_text(state)}"
            )
        card = action - PASS_BASE
        if not hand >> card & 1:
            return f"you do not hold {CARD_TEXT[card]}; allowed: {allowed_text(state)}"
        if state.picks[turn] >> card & 1:
            return f"you have already chosen {CARD_TEXT[card]}; allowed: {allowed_text(state)}"
        return None
    if action >= PASS_BASE:
        return f"this is not the passing time: you must play; allowed: {allowed_text(state)}"
    if not hand >> action & 1:
        return f"you do not hold {CARD_TEXT[action]}; allowed: {allowed_text(state)}"
    if state.trick:
        led = CARD_COLOUR[state.trick[0]]
        if CARD_COLOUR[action] != led and hand & COLOUR_MASK[led]:
            return (
                f"you must follow {COLOUR_NAMES[led]} (led {CARD_TEXT[state.trick[0]]}) "
                f"and may not play {CARD_TEXT[action]}; allowed: {allowed_text(state)}"
            )
    return None


def allowed_suffix(state: BahaState) -> str:
    return f"; allowed: {allowed_text(state)}" if state.turn is not None else ""


def allowed_text(state: BahaState) -> str:
    return ", ".join(action_to_string(state, a) for a in state.legal_actions())
