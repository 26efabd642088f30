"""BAEBAE's results tables on the native path, its own cases: rows that hold every kind of fact,
a game the action guard stopped and generated decks, each game's rows exactly the Python
engine's. ``simulate --out`` (plain and ``--duplicate``, CSV, two workers, Ray), ``compare``
and ``sweep`` are every game's (``test_games_tables.py``, BAEBAE's runs in
``baebae_native_support.py``)."""

from __future__ import annotations

from typing import Any

from baebae_native_support import DECK_OPTIONS
from baebae_support import random_decks, write_deck
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import needs_native
from tables_support import native_rows, written

from cardroom.games.baebae import Rules
from cardroom.games.baebae import native as baebae_native
from cardroom.games.baebae.results import rows
from cardroom.games.baebae.rules import read_decks
from cardroom.sim.tournament import Lineup

pytestmark = needs_native

SAMPLE, EXTRAS = DECK_OPTIONS.values()


def assert_every_fact_appears(found: dict[str, list[dict[str, Any]]]) -> None:
    """The rows hold each kind of fact at least once, so that comparing them compares something."""
    cards = found["cards"]
    for column in ("draws_forced", "skips", "penalties", "reversals", "moves", "suit_named", "coin"):
        assert any(row[column] for row in cards), column
    assert any(row["under"] for row in cards) and any(not row["action_ran"] for row in cards)
    assert any(row["action_ran"] for row in cards)
    assert any(row["out"] is None for row in found["deals"]) and any(row["blocked"] for row in found["deals"])


def test_the_rows_compared_hold_every_kind_of_fact(tmp_path):
    rules = Rules(**EXTRAS, players=3, rounds=2, turn_limit=40)
    expected = written(tmp_path / "python", "python", rules, 30, "heuristic,random,random")
    found = written(tmp_path / "native", "native", rules, 30, "heuristic,random,random")
    assert_every_fact_appears(expected)
    assert found == expected


def test_a_game_stopped_by_the_action_guard_gives_the_python_rows():
    lineup = Lineup.parse("heuristic,random,heuristic,random", 4)
    native_rows(baebae_native, rows, Rules(**EXTRAS, players=4), [3, 4, -(2**40)], lineup, 45)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck=random_decks(), players=st.integers(2, 6), seed=st.integers(-(2**40), 2**40),
       chosen=st.sampled_from(["once", "each_step"]), draw_when_able=st.booleans(),
       agents=st.lists(st.sampled_from(["random", "heuristic"]), min_size=6, max_size=6))
def test_generated_decks_give_the_python_rows(deck, players, seed, chosen, draw_when_able, agents):
    rules = Rules(**read_decks(str(write_deck(deck, "tables"))), players=players, rounds=2,
                  chosen_target=chosen, draw_when_able=draw_when_able, turn_limit=150)
    native_rows(baebae_native, rows, rules, [seed, seed + 1], Lineup.parse(",".join(agents[:players]), players),
                2000)


