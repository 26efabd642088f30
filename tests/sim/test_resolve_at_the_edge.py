"""Resolve once at the edge (issue 34, item 3): a command looks its game up by name once, at its
edge, and chooses the engine once; below it the rules know their spec and the engine is passed
down, so no floor asks the registry or the environment again (not per game, not per move)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from cardroom import games, native
from cardroom.cli.main import app
from cardroom.native import Engine
from cardroom.sim.tournament import Lineup, play_state, run_games


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every name the registry is asked for (``games.get``) from now on."""
    asked: list[str] = []
    real = games.get

    def counted(name: str) -> games.GameSpec:
        asked.append(name)
        return real(name)

    monkeypatch.setattr(games, "get", counted)
    yield asked


@pytest.fixture
def choices(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every reading of the engine asked for (``native.engine_choice``) from now on."""
    read: list[str] = []
    real = native.engine_choice

    def counted() -> str:
        read.append(real())
        return read[-1]

    monkeypatch.setattr(native, "engine_choice", counted)
    yield read


@pytest.mark.parametrize("name", games.names())
def test_rules_know_their_spec(name: str) -> None:
    spec = games.get(name)
    assert spec.make_rules().spec is spec


@pytest.mark.parametrize("agents", ["random", "ismcts:iterations=3"])
def test_one_simulate_looks_its_game_up_once(lookups: list[str], agents: str) -> None:
    # (before: 7 look-ups for a native batch, one per game and per seat on the Python path, and
    # one per move of every ismcts bot)
    name = games.names()[0]
    result = CliRunner().invoke(app, ["simulate", name, "--games", "3", "--workers", "1", "--agents", agents,
                                      "--json"])
    assert result.exit_code == 0, result.output
    assert lookups == [name]


def test_a_run_reads_the_engine_once_and_every_game_plays_on_it(choices: list[str]) -> None:
    rules = games.get(games.names()[0]).make_rules()
    lineup = Lineup.parse("ismcts:iterations=2", rules.players)  # no native batch: a game at a time
    run_games(rules, 4, 0, lineup, workers=1)
    assert len(choices) == 1  # before: once more at every new game


@pytest.mark.parametrize("agents", ["random", "ismcts:iterations=2"])  # a native batch, a game at a time
def test_a_run_given_its_engine_never_reads_the_environment(choices: list[str], agents: str) -> None:
    rules = games.get(games.names()[0]).make_rules()
    run_games(rules, 3, 0, Lineup.parse(agents, rules.players), workers=1, engine=Engine("python"))
    assert choices == []


def test_the_engine_passed_down_is_the_one_that_plays() -> None:
    rules = games.get(games.names()[0]).make_rules()
    lineup = Lineup.parse("random", rules.players)
    native.use_engine("native" if native.available() else "python")
    try:
        state, _ = play_state(rules, 3, lineup, engine=Engine("python"))
    finally:
        native.use_engine(None)
    assert not type(state).__name__.startswith("Native")


def test_an_engine_is_named_as_the_environment_names_it() -> None:
    with pytest.raises(ValueError, match="engine must be one of python, native, not 'turbo'"):
        Engine("turbo")
