"""BAEBAE's actions: the fixed int layout, and their text forms both ways.

Actions are small ints (:class:`ActionSpace`): a card's design to play, the same design to
select, then draw, pass, done, the four suits to declare, yes, no, a seat to target and an
option to choose. This module writes them as text (``play 6C``, ``declare H``), reads them
back, decodes them into an :class:`~cardroom.engine.ActionInfo`, and says in words why one
may not be taken now.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardroom.engine import Action, ActionInfo, IllegalAction
from cardroom.games.baebae.effects import SUIT_NAMES, SUITS
from cardroom.games.baebae.interpreter import Decision, Phase

if TYPE_CHECKING:
    from cardroom.games.baebae.state import BaebaeState

__all__ = [
    "ActionSpace", "action_to_string", "decode", "parse_action", "illegal_reason", "design_of_text",
    "refusal", "allowed_text", "decision_text",
]


@dataclass(frozen=True)
class ActionSpace:
    """The fixed layout of BAEBAE's int actions for a deck of ``designs`` and ``players``."""

    designs: int
    players: int
    options: int

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its constructor's arguments, made again through __init__.
        return ActionSpace, (self.designs, self.players, self.options)

    @property
    def select(self) -> int:
        return self.designs

    @property
    def draw(self) -> int:
        return 2 * self.designs

    @property
    def pass_(self) -> int:
        return self.draw + 1

    @property
    def done(self) -> int:
        return self.draw + 2

    @property
    def declare(self) -> int:
        return self.draw + 3

    @property
    def yes(self) -> int:
        return self.draw + 7

    @property
    def no(self) -> int:
        return self.draw + 8

    @property
    def target(self) -> int:
        return self.draw + 9

    @property
    def option(self) -> int:
        return self.target + self.players

    @property
    def size(self) -> int:
        return self.option + self.options


def action_to_string(state: BaebaeState, action: Action) -> str:
    space = state.space
    cards = state.rules.cards
    if 0 <= action < space.select:
        return f"play {cards[action].key}"
    if space.select <= action < space.draw:
        return f"select {cards[action - space.select].key}"
    if action == space.draw:
        return "draw"
    if action == space.pass_:
        return "pass"
    if action == space.done:
        return "done"
    if space.declare <= action < space.declare + 4:
        return f"declare {SUITS[action - space.declare]}"
    if action == space.yes:
        return "yes"
    if action == space.no:
        return "no"
    if space.target <= action < space.option:
        return f"target {action - space.target}"
    if space.option <= action < space.size:
        return f"option {action - space.option + 1}"
    raise IllegalAction(f"{action!r} is not a BAEBAE action: actions are 0 to {space.size - 1}")


def decode(state: BaebaeState, action: Action) -> ActionInfo:
    """The kind (``play``, ``select``, ``draw``, ``pass``, ``done``, ``declare``, ``yes``,
    ``no``, ``target``, ``option``) and what it names: a card, a suit, a player, an option."""
    space = state.space
    cards = state.rules.cards
    if 0 <= action < space.select:
        return ActionInfo("play", card=cards[action].key)
    if space.select <= action < space.draw:
        return ActionInfo("select", card=cards[action - space.select].key)
    if space.declare <= action < space.declare + 4:
        return ActionInfo("declare", suit=SUITS[action - space.declare])
    if space.target <= action < space.option:
        return ActionInfo("target", seat=action - space.target)
    if space.option <= action < space.size:
        return ActionInfo("option", option=action - space.option + 1)
    for kind in ("draw", "pass", "done", "yes", "no"):
        if action == getattr(space, "pass_" if kind == "pass" else kind):
            return ActionInfo(kind)
    raise IllegalAction(f"{action!r} is not a BAEBAE action: actions are 0 to {space.size - 1}")


def illegal_reason(state: BaebaeState, action: object) -> str | None:
    """Why ``action`` may not be taken now (what :meth:`apply` would raise), or ``None``."""
    # ``object``, not ``Action``: any value may come (a person's, a client's), and True, a
    # bool, is refused rather than read as the action 1.
    legal = state.legal_actions()
    if type(action) is not int:
        return (f"an action is a whole number from 0 to {state.space.size - 1}, not {action!r}; "
                f"allowed: {allowed_text(state, legal)}")
    return None if action in legal else refusal(state, action, legal)


def parse_action(state: BaebaeState, text: str) -> Action:
    """The action named by text: ``play 6C``, ``select 6C`` (or just ``6C``), ``draw``,
    ``pass``, ``done``, ``declare H``, ``yes``, ``no``, ``target 2``, ``option 1``."""
    words = str(text).strip().split()
    if not words:
        raise IllegalAction("no action given: write e.g. 'play 6C', 'draw' or 'declare H'")
    verb = words[0].lower()
    arg = " ".join(words[1:])
    space = state.space
    simple = {"draw": space.draw, "pass": space.pass_, "done": space.done, "yes": space.yes,
              "no": space.no}
    if verb in simple and not arg:
        return simple[verb]
    if verb == "declare":
        letter = arg.strip().upper()[:1]
        symbols = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
        letter = symbols.get(arg.strip()[:1], letter)
        if letter and letter in SUITS:
            return space.declare + SUITS.index(letter)
        raise IllegalAction(f"declare takes a suit: C, D, H or S, not {arg!r}")
    if verb in ("target", "option"):
        try:
            number = int(arg)
        except ValueError:
            raise IllegalAction(f"{verb} takes a number, not {arg!r}") from None
        if verb == "target" and 0 <= number < state.n:
            return space.target + number
        if verb == "option" and 1 <= number <= space.options:
            return space.option + number - 1
        raise IllegalAction(f"{verb} {number} is out of range")
    if verb in ("play", "select"):
        key = arg
    else:
        key, verb = " ".join(words), ("select" if state.phase is Phase.DECIDE else "play")
    design = design_of_text(state, key)
    return design + (space.select if verb == "select" else 0)


def design_of_text(state: BaebaeState, text: str) -> int:
    index = state.rules.design_of_key
    design = index.get(text)  # the common case: a key exactly as the state writes it
    if design is not None:
        return design
    wanted = text.strip().upper().replace("♣", "C").replace("♦", "D").replace("♥", "H").replace("♠", "S")
    design = index.get(wanted)
    if design is not None:
        return design
    raise IllegalAction(
        f"{text!r} is not a card of this deck: write rank then suit, e.g. 6C, 10H, QS, AD"
    )


def allowed_text(state: BaebaeState, legal: list[int]) -> str:
    return ", ".join(action_to_string(state, a) for a in legal) or "nothing (the game is over)"


def refusal(state: BaebaeState, action: int, legal: list[int]) -> str:
    allowed = allowed_text(state, legal)
    if state.turn is None:
        return "the game is over: no action can be taken"
    if not 0 <= action < state.space.size:
        return (f"{action} is not a BAEBAE action: actions are 0 to {state.space.size - 1}; "
                f"allowed: {allowed}")
    what = action_to_string(state, action)
    seat = state.turn
    space = state.space
    why = "it is not allowed now"
    if state.phase is Phase.PLAY and 0 <= action < space.select:
        card = state.rules.cards[action]
        if not state.holds_design(seat, action):
            why = f"you do not hold {card.key}"
        elif state.hands[seat].bit_count() == 1 and not card.can_win and not card.optional:
            why = f"{card.key} cannot win a round, and it is your last card (E9)"
        else:
            why = f"{card.key} does not match {_top_text(state, )}"
    elif state.phase is Phase.PLAY and action == space.draw:
        why = "a player who can play may not draw (option draw_when_able)"
    elif state.phase is Phase.DECIDE and state.pending is not None:
        why = f"you must first {decision_text(state, state.pending)}"
    elif state.phase is Phase.DRAWN:
        why = "after drawing, a player may play only the card drawn, or pass"
    if what in ("yes", "no", "done"):  # an answer, not a verb: "you may not answer yes"
        what = f"answer {what}"
    return f"you may not {what}: {why}; allowed: {allowed}"


def _top_text(state: BaebaeState) -> str:
    top = state.rules.cards[state.rules.card_of[state.discard[-1]]]
    if state.declared:
        return f"the declared suit {SUIT_NAMES[state.suit]}"
    return f"the top card {top.key} (rank {top.rank_text} or {SUIT_NAMES[state.suit]})"


def decision_text(state: BaebaeState, d: Decision) -> str:
    card = state.rules.cards[state.rules.card_of[d.card]]
    return {
        "optional": f"carry out {card.key}'s optional action or not",
        "declare": "name a suit",
        "target": f"choose a player for {card.key}'s action",
        "option": f"choose an option of {card.key}'s action",
        "select": f"choose a card to {d.purpose.replace('_', ' ')}",
    }[d.kind]

