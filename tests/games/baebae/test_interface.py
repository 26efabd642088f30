"""BAEBAE's declared interpreter interface (games/baebae/interface.py) is what its state provides."""

from __future__ import annotations

import inspect

from cardroom.games.baebae import Rules
from cardroom.games.baebae.interface import StateMoves
from cardroom.games.baebae.state import BaebaeState


def test_the_state_provides_every_declared_move() -> None:
    state = Rules(players=3).new_game(5)
    assert isinstance(state, StateMoves)
    for name, member in vars(StateMoves).items():
        if inspect.isfunction(member):
            assert callable(getattr(BaebaeState, name)), name


def test_the_moves_work_as_documented() -> None:
    state = Rules(players=3).new_game(5)
    hand = state.hands[0]
    assert sorted(state.card_texts(hand)) == sorted(state.view(0)["hand"])
    low = hand & -hand
    pid = low.bit_length() - 1
    assert state.card_text(pid) == state.rules.card_texts[pid]
    assert state.holds_design(0, state.rules.card_of[pid])
    assert state.designs_in(hand) == sorted({state.rules.card_of[p] for p in range(hand.bit_length()) if hand >> p & 1})
    assert state.next_seat(0) == (0 + state.direction) % 3
