"""What the native BAEBAE tests share: random games played on both engines side by side,
compared at every action, and a whole position compared field by field."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "games" / "baebae"))

from baebae_support import DECK_OPTIONS  # noqa: E402,F401  (the project's decks, for the tests)

from cardroom.games.baebae import Rules  # noqa: E402
from cardroom.games.baebae.observation import encoder  # noqa: E402
from cardroom.games.baebae.state import BaebaeState  # noqa: E402
from cardroom.games.baebae.state_base import FIELDS  # noqa: E402

_COMPARED = [name for name in FIELDS if name not in ("frames", "det_cache", "legal_cache", "rules", "space")]


def frames_of(state: Any) -> list[tuple[Any, ...]]:
    return [(f.steps, f.index, f.actor, f.card, f.targets, f.receiver, f.chosen, f.left, f.started)
            for f in state.frames]


def compare_positions(python: BaebaeState, fast: Any) -> None:
    """Every field of the position, every seat's view, filtered log and observation, the
    public view, and each legal action's text and meaning."""
    ref = fast.reference()
    for name in _COMPARED:
        assert getattr(ref, name) == getattr(python, name), name
    assert frames_of(ref) == frames_of(python)
    size = encoder.size(python.rules)
    for seat in range(python.n):
        assert fast.view(seat) == python.view(seat)
        assert fast.view_log(seat) == python.view_log(seat)
        ours, theirs = np.zeros(size, np.float32), np.zeros(size, np.float32)
        encoder.encode(fast, seat, ours)
        encoder.encode(python, seat, theirs)
        assert np.array_equal(ours, theirs)
        for action in python.legal_actions():
            assert fast.public_action(action, seat) == python.public_action(action, seat)
    assert fast.public_view() == python.public_view()
    for action in python.legal_actions():
        assert fast.action_to_string(action) == python.action_to_string(action)
        assert fast.decode(action) == python.decode(action)


def play_both(rules: Rules, seed: int, rng: random.Random, check_views: float = 0.0,
              max_actions: int = 200_000) -> tuple[BaebaeState, Any]:
    """One random game on the Python engine and on the native one, compared at every action
    (the seat to act, the legal actions and the native random agents' pick at each of their
    places, the events) and, at a share ``check_views`` of the moments, position by position."""
    from cardroom.games.baebae.native import NativeBaebaeState

    python = BaebaeState.start(rules, seed)
    fast = NativeBaebaeState.start(rules, seed)
    assert fast.log == python.log
    for _ in range(max_actions):
        assert fast.current_player == python.current_player and fast.is_over == python.is_over
        legal = python.legal_actions()
        assert fast.legal_actions() == legal
        assert fast.random_choices() == legal  # the batches' random pick, place by place (Game::choose)
        if check_views and rng.random() < check_views:
            compare_positions(python, fast)
        if python.is_over:
            break
        action = rng.choice(legal)
        assert fast.apply(action) == python.apply(action)
    compare_positions(python, fast)
    assert fast.log == python.log and fast.history == python.history
    assert fast.scores == python.scores and fast.winner == python.winner and fast.returns() == python.returns()
    return python, fast
