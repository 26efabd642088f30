"""What the native BAEBAE tests share: random games played on both engines side by side,
compared at every action, a whole position compared field by field, positions for the search,
and its cases of the tests every game runs (``GAME``, :class:`native_support.NativeGame`)."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "games" / "baebae"))

from baebae_support import DECK_OPTIONS  # noqa: E402  (the project's decks, for the tests)
from native_support import NativeGame, moments, play_both_engines, stream_for  # noqa: E402

from cardroom.engine import RulesError  # noqa: E402
from cardroom.games.baebae import Deal, Rules  # noqa: E402
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


def _random_choices(fast: Any, legal: list[int]) -> None:
    assert fast.random_choices() == legal  # the batches' random pick, place by place (Game::choose)


def play_both(rules: Rules, seed: int, rng: random.Random, check_views: float = 0.0,
              max_actions: int = 200_000) -> tuple[BaebaeState, Any]:
    """One random game on the Python engine and on the native one, compared at every action
    (the seat to act, the legal actions and the native random agents' pick at each of their
    places, the events) and, at a share ``check_views`` of the moments, position by position."""
    from cardroom.games.baebae.native import NativeBaebaeState

    return play_both_engines(BaebaeState, NativeBaebaeState, compare_positions, rules, seed, rng, check_views,
                             max_actions, _random_choices)


def option_sets() -> list[dict[str, object]]:
    """Every option that changes how a game is played, with both project decks (the sample, and
    it shuffled with a deck of awkward cards), several player counts and hand sizes."""
    out = []
    for deck in DECK_OPTIONS:
        for players in (2, 3, 4, 6, 8):
            for draw_when_able in (False, True):
                for chosen_target in ("once", "each_step"):
                    options = {"players": players, **DECK_OPTIONS[deck], "draw_when_able": draw_when_able,
                               "chosen_target": chosen_target, "decks": 2 if players == 8 else 1}
                    out.append({**options, "stream": stream_for(options)})
    return out


def random_games(options: dict[str, Any]) -> None:
    """Random games of one option set compared at every action, over rounds, ace penalties,
    turn limits and hand sizes."""
    for i in range(4):
        rng = random.Random(f"{i}:{sorted(options.items())}")
        seed = rng.randrange(-(2**70), 2**70) if i % 2 == 0 else rng.randrange(10**6)
        rules = Rules(**options, rounds=1 + i % 3, ace_penalty=(1, 0, 5, 1)[i], turn_limit=(2000, 25, 2000, 10)[i],
                      hand_size=(None, 3, None, 1)[i])
        play_both(rules, seed, rng, check_views=0.02 if i == 0 else 0.0)


RULES = [
    Rules(players=4, rounds=2),
    Rules(players=3, rounds=1, draw_when_able=True),
    Rules(players=2, rounds=1, **DECK_OPTIONS[next(d for d in DECK_OPTIONS if d != "sample")]),
    Rules(players=5, rounds=1, **DECK_OPTIONS[next(d for d in DECK_OPTIONS if d != "sample")]),
    Rules(players=6, decks=2, rounds=1, hand_size=7),
]
"""Rules of the search tests: decks, player counts, options."""


def positions(rules: Rules, games: int, per_game: int, first: int = 0) -> Iterator[Any]:
    """Positions of random games of ``rules`` on the native engine, a few moments each."""
    for seed in range(first, first + games):
        state = rules.new_game(seed)
        assert type(state).__name__ == "NativeBaebaeState"
        yield from moments(state, random.Random(seed), per_game, 120, first=0)


def decisions(count: int) -> Iterator[Any]:
    """Positions of BAEBAE games where the seat to act has a choice, ``count`` of each rules."""
    for index, rules in enumerate(RULES):
        found = 0
        for state in positions(rules, 6, 6, 100 * index):
            if len(state.legal_actions()) > 1:
                yield state
                found += 1
                if found == count:
                    break


def _hand_made() -> tuple[Rules, int, dict[str, Any], list[dict[str, Any]], tuple[type[Exception], ...]]:
    rules = Rules(players=2, hand_size=3)
    deal = Deal(hands=[["6C", "7C", "8C"], ["6D", "7D", "8D"]], starter="9C", stock=["2H"], dealer=1)
    return rules, 9, {"deal": deal, "totals": [5, -3]}, [
        {"totals": [1, 2, 3]}, {"deal": Deal(hands=[["6C"]] * 2, starter="9C")}, {"seed": "x"}], (RulesError, ValueError)


SAMPLE, EXTRAS = DECK_OPTIONS.values()

GAME = NativeGame(
    name="baebae", rules=Rules, python=BaebaeState, native="NativeBaebaeState", compare_positions=compare_positions,
    options=option_sets(),
    option_id=lambda o: f"{o['players']}-{o['draw_when_able']}-{o['chosen_target']}-{len(o['deck_files'])}",
    random_games=random_games, illegal=lambda python: [-1, python.space.size, 10**30, 2**31, 0, 51, True, None, 2.0,
                                                       "7", python.space.yes],
    hand_made=_hand_made, too_large=({"totals": [0, 2**70]}, "within 2\\*\\*62"),
    decisions=lambda: ((state, 5) for state in decisions(2)), search_iterations=200,
    tables=("games", "deals", "cards", "hands"),
    table_runs=[
        ({**SAMPLE}, "heuristic", False),
        ({**EXTRAS}, "random,heuristic,heuristic,random", True),
        ({**EXTRAS, "players": 3, "rounds": 2, "draw_when_able": True, "turn_limit": 30, "stream": "twister"},
         "heuristic,random,heuristic", False),
        ({**SAMPLE, "players": 5, "hand_size": 3, "ace_penalty": 5, "chosen_target": "each_step",
          "stream": "twister"}, "random", False),
        ({**EXTRAS, "players": 2, "rounds": 1, "turn_limit": 12}, "random,heuristic", True),
        ({**EXTRAS, "players": 8, "decks": 2, "hand_size": 7, "rounds": 1}, "heuristic", False),
    ],
    csv_run={**EXTRAS, "rounds": 2}, python_path_run={**SAMPLE, "rounds": 1},
    designer_runs=[
        ["compare", "baebae", "--rule", "rounds=1", "--rule", "rounds=1,draw_when_able=true", "--games", "8"],
        ["sweep", "baebae", "--rule", "players=3,4", "--rule", "rounds=1", "--games", "8", "--agents", "random"],
    ],
    ray_run=({**EXTRAS, "players": 3, "rounds": 1}, 8),
)
"""BAEBAE's cases of the native tests every game runs."""
