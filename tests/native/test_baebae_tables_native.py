"""BAEBAE's results tables on the native path: ``simulate --out`` (plain and ``--duplicate``, CSV,
two workers, Ray), ``compare`` and ``sweep`` play BAEBAE's random and heuristic line-ups in
native batches, and write exactly the tables of the Python engine for the same seeds: every
table, every row, every column, over the project's decks, generated decks and the options that
change play. Other line-ups, records and ``CARDROOM_ENGINE=python`` take the Python path."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from baebae_native_support import DECK_OPTIONS
from baebae_support import random_decks, write_deck
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import needs_native
from tables_support import counted_batches, tables, written
from typer.testing import CliRunner

from cardroom import native
from cardroom.cli.main import app
from cardroom.games.baebae import Rules
from cardroom.games.baebae.results import rows
from cardroom.games.baebae.rules import read_decks
from cardroom.games.contracts import Decisions
from cardroom.sim import results as sim_results
from cardroom.sim.results import Backend, read_manifest
from cardroom.sim.tournament import Lineup, play_state

pytestmark = needs_native

TABLES = ("games", "deals", "cards", "hands")
SAMPLE, EXTRAS = DECK_OPTIONS.values()


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The games each native table batch played (in this process), in order."""
    import cardroom.games.baebae.native as baebae_native

    yield from counted_batches(monkeypatch, baebae_native)


def assert_every_fact_appears(found: dict[str, list[dict[str, Any]]]) -> None:
    """The rows hold each kind of fact at least once, so that comparing them compares something."""
    cards = found["cards"]
    for column in ("draws_forced", "skips", "penalties", "reversals", "moves", "suit_named", "coin"):
        assert any(row[column] for row in cards), column
    assert any(row["under"] for row in cards) and any(not row["action_ran"] for row in cards)
    assert any(row["action_ran"] for row in cards)
    assert any(row["out"] is None for row in found["deals"]) and any(row["blocked"] for row in found["deals"])


@pytest.mark.parametrize("options, agents, duplicate", [
    ({**SAMPLE}, "heuristic", False),
    ({**EXTRAS}, "random,heuristic,heuristic,random", True),
    ({**EXTRAS, "players": 3, "rounds": 2, "draw_when_able": True, "turn_limit": 30, "stream": "twister"},
     "heuristic,random,heuristic", False),
    ({**SAMPLE, "players": 5, "hand_size": 3, "ace_penalty": 5, "chosen_target": "each_step", "stream": "twister"},
     "random", False),
    ({**EXTRAS, "players": 2, "rounds": 1, "turn_limit": 12}, "random,heuristic", True),
    ({**EXTRAS, "players": 8, "decks": 2, "hand_size": 7, "rounds": 1}, "heuristic", False),
])
def test_simulate_out_writes_the_python_engines_tables(batches, tmp_path, monkeypatch, options, agents, duplicate):
    monkeypatch.setattr(sim_results, "NATIVE_CHUNK", 9)  # several chunks, several writes
    rules = Rules(**options)
    expected = written(tmp_path / "python", "python", rules, 12, agents, duplicate=duplicate,
                       backend=Backend(workers=2))
    assert batches == []
    found = written(tmp_path / "native", "native", rules, 12, agents, duplicate=duplicate,
                    backend=Backend(workers=1))
    assert len(batches) > 1 and max(batches) <= 9 and sum(batches) == len(expected["games"])  # in chunks
    assert found.keys() == set(TABLES)
    for name in TABLES:
        assert len(found[name]) == len(expected[name]) > 0, name
        assert found[name] == expected[name], name


def test_the_rows_compared_hold_every_kind_of_fact(tmp_path):
    rules = Rules(**EXTRAS, players=3, rounds=2, turn_limit=40)
    expected = written(tmp_path / "python", "python", rules, 30, "heuristic,random,random")
    found = written(tmp_path / "native", "native", rules, 30, "heuristic,random,random")
    assert_every_fact_appears(expected)
    assert found == expected


def native_rows(rules: Rules, seeds: list[int], lineup: Lineup, max_actions: int) -> None:
    """Each game's rows from a native batch, against the Python rows read from its log."""
    import cardroom.games.baebae.native as baebae_native

    found = baebae_native.table_games(rules, seeds, [lineup.specs] * len(seeds), max_actions)
    columns, positions = found.columns(), found.row_games()
    native.use_engine("python")
    try:
        for game, seed in enumerate(seeds):
            marks: list[int] = []
            state, result = play_state(rules, seed, lineup, max_actions=max_actions, marks=marks)
            expected = rows(state.log, rules, Decisions(marks))
            assert (found.winners[game] == -1) == result.guard_stopped
            assert found.places[game] == expected.places
            assert found.totals[game] == result.totals and found.actions[game] == result.actions
            assert found.deal_points[game] == result.deal_points and found.extras[game] == result.extras
            for name, table in expected.tables.items():
                at = [i for i, g in enumerate(positions[name].to_pylist()) if g == game]
                assert [{k: v[i].as_py() for k, v in columns[name].items()} for i in at] == table, name
    finally:
        native.use_engine(None)


def test_a_game_stopped_by_the_action_guard_gives_the_python_rows():
    rules = Rules(**EXTRAS, players=4)
    native_rows(rules, [3, 4, -(2**40)], Lineup.parse("heuristic,random,heuristic,random", 4), 45)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck=random_decks(), players=st.integers(2, 6), seed=st.integers(-(2**40), 2**40),
       chosen=st.sampled_from(["once", "each_step"]), draw_when_able=st.booleans(),
       agents=st.lists(st.sampled_from(["random", "heuristic"]), min_size=6, max_size=6))
def test_generated_decks_give_the_python_rows(deck, players, seed, chosen, draw_when_able, agents):
    rules = Rules(**read_decks(str(write_deck(deck, "tables"))), players=players, rounds=2,
                  chosen_target=chosen, draw_when_able=draw_when_able, turn_limit=150)
    native_rows(rules, [seed, seed + 1], Lineup.parse(",".join(agents[:players]), players), 2000)


def test_csv_tables_and_two_workers_on_the_native_path(tmp_path):
    rules = Rules(**EXTRAS, rounds=2)
    written(tmp_path / "python", "python", rules, 10, "heuristic", csv=True, backend=Backend(workers=1))
    written(tmp_path / "native", "native", rules, 10, "heuristic", csv=True, backend=Backend(workers=2))
    for name in TABLES:
        assert (tmp_path / "native" / f"{name}.csv").read_text() == (tmp_path / "python" / f"{name}.csv").read_text()


def test_other_lineups_records_and_the_python_engine_write_through_python(batches, tmp_path):
    rules = Rules(**SAMPLE, rounds=1)
    written(tmp_path / "a", "native", rules, 2, "ismcts:iterations=5,random,random,random", batched=False)
    written(tmp_path / "b", "native", rules, 2, "heuristic", batched=False, records=tmp_path / "records")
    written(tmp_path / "c", "python", rules, 2, "heuristic")
    assert batches == []
    assert len(list((tmp_path / "records").iterdir())) == 2


def designer_run(tmp_path: Path, engine: str, command: list[str]) -> dict[str, Any]:
    """A compare or sweep through the command line: its figures and every variant's tables."""
    native.use_engine(engine)
    out, figures = tmp_path / f"{engine}-out", tmp_path / f"{engine}.json"
    result = CliRunner().invoke(app, [*command, "--workers", "1", "--out", str(out), "--json", str(figures)])
    assert result.exit_code == 0, result.output
    variants = sorted(p.name for p in out.iterdir())
    assert len(variants) == 2
    return {"figures": json.loads(figures.read_text()), **{v: tables(out / v) for v in variants}}


@pytest.mark.parametrize("command", [
    ["compare", "baebae", "--rule", "rounds=1", "--rule", "rounds=1,draw_when_able=true", "--games", "8"],
    ["sweep", "baebae", "--rule", "players=3,4", "--rule", "rounds=1", "--games", "8", "--agents", "random"],
])
def test_compare_and_sweep_play_natively_with_the_python_tables(batches, tmp_path, command):
    expected = designer_run(tmp_path, "python", command)
    assert batches == []
    found = designer_run(tmp_path, "native", command)
    assert sum(batches) == 16
    assert found == expected


def test_ray_tasks_play_natively_with_the_python_tables(tmp_path):
    rules = Rules(**EXTRAS, players=3, rounds=1)
    expected = written(tmp_path / "python", "python", rules, 8, "heuristic,random,heuristic", duplicate=True)
    found = written(tmp_path / "ray", "native", rules, 8, "heuristic,random,heuristic", duplicate=True,
                    backend=Backend(workers=2, ray=True))
    assert read_manifest(tmp_path / "ray")["backend"]["ray"] is True
    assert found == expected
