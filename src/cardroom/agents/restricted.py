"""Restricted play: the heuristic player forbidden one card, or one card's optional action.

Jaffe et al. (2012) measure a card's power by "restricted play": an agent that may not play it,
against the same agent that may, on the same deals. ``restricted:card=10C`` never plays a card
of the design ``10C`` while the rules allow it any other action (when they allow none, as when
it is the only card it can play and drawing is not allowed, it plays it: the rules come first);
``restricted:action=5D`` never carries out ``5D``'s optional action. Everything else is the
heuristic's own choice, on the legal actions left: the same player, less one option.

The native batch (``native/cardroom/baebae_restricted.hpp``) plays the very same games.
"""

from __future__ import annotations

from typing import Any

from cardroom.agents.base import AgentError
from cardroom.engine import Action, ActionInfo, State

__all__ = ["RestrictedAgent"]


class _Fewer:
    """A state as the inner player sees it: the same, but for the legal actions forbidden."""

    def __init__(self, state: State, legal: list[int]) -> None:
        self._state = state
        self._legal = legal

    def legal_actions(self) -> list[int]:
        return list(self._legal)

    def view(self, seat: int) -> dict[str, Any]:
        view = dict(self._state.view(seat))
        view["legal_actions"] = list(self._legal)
        return view

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


class RestrictedAgent:
    """The heuristic (``seed`` as the heuristic takes it) with ``card`` never played when
    another action is legal, and ``action``'s optional action never carried out. Counts how
    often the restriction bit: ``avoided`` (the card was playable and something else was
    chosen from the rest), ``forced`` (the rules left only the card) and ``declined``."""

    name = "restricted"

    def __init__(self, seed: int | None = None, card: str | None = None, action: str | None = None) -> None:
        if card is None and action is None:
            raise AgentError(
                "restricted needs card=KEY (never played) or action=KEY (its optional action "
                "never carried out), e.g. restricted:card=10C"
            )
        for option, value in (("card", card), ("action", action)):
            if value is not None and not isinstance(value, str):
                raise AgentError(f"restricted: {option} takes a card's key such as 10C, not {value!r}")
        from cardroom.agents.heuristic import HeuristicAgent

        self.card = card.upper() if card else None
        self.action = action.upper() if action else None
        self.inner = HeuristicAgent(seed=seed)
        self.forced = self.declined = self.avoided = 0
        self._rules: Any = None
        self._decoded: dict[int, ActionInfo] = {}

    def _design(self, state: State, text: str | None) -> str | None:
        """A card's text (``10c``, ``10C``) as its design's key, checked against the deck."""
        if text is None:
            return None
        rules: Any = state.rules  # a game of card designs (BAEBAE's rules)
        index = rules.design_of_key
        found = index.get(text, index.get(text.upper()))
        return None if found is None else str(rules.cards[found].key).upper()

    def _check(self, state: State) -> None:
        rules: Any = state.rules
        if getattr(rules, "design_of_key", None) is None:
            raise AgentError(f"restricted play forbids a card design of a deck; {rules.game} has no card "
                             "designs (play its heuristic, random or ismcts)")
        keys = {str(c.key).upper() for c in rules.cards}
        for option, value in (("card", self.card), ("action", self.action)):
            if value is not None and value not in keys:
                raise AgentError(
                    f"restricted: {option}={value} is no card of this deck; its cards are "
                    f"{', '.join(sorted(keys)[:60])}"
                )

    def act(self, state: State, seat: int) -> Action:
        if state.rules is not self._rules:
            self._check(state)
            self._rules = state.rules
            self._decoded = {}
        legal = state.view(seat)["legal_actions"] or state.legal_actions()
        decoded = self._decoded
        moves = {a: decoded.get(a) or decoded.setdefault(a, state.decode(a)) for a in legal}
        kept = legal
        pending = state.view(seat).get("pending")
        if (
            self.action is not None
            and pending is not None
            and pending.get("kind") == "optional"
            and self._design(state, pending.get("card")) == self.action
        ):
            kept = [a for a in legal if moves[a].kind == "no"]
            self.declined += 1
        elif self.card is not None:
            kept = [
                a
                for a in legal
                if not (moves[a].kind == "play" and self._design(state, moves[a].card) == self.card)
            ]
            if not kept:
                self.forced += 1  # the rules leave no other action
                kept = legal
            elif len(kept) < len(legal):
                self.avoided += 1
        if len(kept) == len(legal):
            return self.inner.act(state, seat)
        fewer: Any = _Fewer(state, kept)  # the State protocol, less the forbidden actions
        return self.inner.act(fewer, seat)
