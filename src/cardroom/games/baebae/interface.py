"""The state's moves that BAEBAE's own modules use: its declared interpreter interface.

A :class:`~cardroom.games.baebae.state.BaebaeState` is one class whose work is split over
several modules: the card-action interpreter (``interpreter.py``), the action codec
(``actions.py``), the views (``views.py``) and determinization (``determinize.py``). Besides
the engine's State protocol and the state's public fields (its annotations: ``hands``,
``stock``, ``discard``, ``frames``, ``pending``...), those modules use exactly the members of
:class:`StateMoves`, and no private name of the state (``tests/test_layers.py`` checks both).

The moves change the state in place and are not for the fronts: a front takes an action with
``apply``, which checks it first. The modules call them on the concrete ``BaebaeState``
(typed so); this Protocol is what they may call, and ``tests/games/baebae`` checks that the
state provides it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from cardroom.games.baebae.deck import CardDef

__all__ = ["StateMoves"]


@runtime_checkable
class StateMoves(Protocol):
    """What the interpreter, the codec, the views and determinize call on a BAEBAE state."""

    det_cache: dict[int, tuple[int, Any]]
    """Determinize's knowledge of each seat, keyed by seat: (log length it was read at, the
    knowledge); never copied by ``clone`` nor pickled."""

    # -- card tables ---------------------------------------------------------------------

    def card_def(self, pid: int) -> CardDef:
        """The design of physical card ``pid``."""
        ...

    def card_text(self, pid: int) -> str:
        """The text of physical card ``pid`` (``6C``)."""
        ...

    def card_texts(self, mask: int) -> list[str]:
        """The texts of the cards of ``mask``, ascending by physical card."""
        ...

    def designs_in(self, mask: int) -> list[int]:
        """The designs of the cards in ``mask``, ascending, each once."""
        ...

    def holds_design(self, seat: int, design: int) -> bool:
        """Whether ``seat``'s hand holds a card of ``design``."""
        ...

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in the direction of play."""
        ...

    # -- moves ---------------------------------------------------------------------------

    def draw_one(self, seat: int, forced: bool) -> int | None:
        """Move the stockpile's top card to ``seat`` (reshuffling the discard pile into it
        first when it is empty, E6) and log it; ``None`` when there is nothing to draw."""
        ...

    def advance(self, seat: int) -> None:
        """End ``seat``'s turn: the next player's turn starts, past any who lose theirs."""
        ...

    def end_round(self, out: int | None, blocked: bool = False, guard: bool = False) -> None:
        """Score the round (``out`` went out, or nobody: ``blocked``, the turn ``guard``)
        and deal the next one or end the game; always raises ``RoundOver``, which unwinds
        the interpreter to ``apply``."""
        ...
