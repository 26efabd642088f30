"""The command finds every game's parts through the registry: the terminal renderer named by a
spec, ``--deck`` where a spec takes decks, the default game, the help's list of games."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardroom import games
from cardroom.cli.main import app
from cardroom.cli.play import run_play, terminal_games
from cardroom.engine import RulesError

runner = CliRunner()
FIRST = games.names()[0]
calls: list[dict[str, Any]] = []


def renderer(rules: Any, **options: Any) -> int:
    """A terminal renderer named by a spec in these tests: it says it was called, and how."""
    calls.append({"game": rules.game, **options})
    return 7


def with_spec(monkeypatch: pytest.MonkeyPatch, name: str, **changes: Any) -> None:
    """The registry answers for ``name`` with its spec changed by ``changes``."""
    monkeypatch.setitem(games._GAMES, name, dataclasses.replace(games.get(name), **changes))


def said(output: str) -> str:
    return " ".join(output.replace("│", " ").split())


def test_the_games_with_a_terminal_renderer_are_those_whose_spec_names_one() -> None:
    assert {"baha", "baebae"} <= set(terminal_games())
    for name in games.names():
        spec = games.get(name)
        assert (name in terminal_games()) == (spec.terminal is not None)
        if spec.terminal is not None:
            assert callable(games.load_ref(spec.terminal))


def test_play_runs_the_renderer_the_spec_names(monkeypatch: pytest.MonkeyPatch) -> None:
    calls.clear()
    with_spec(monkeypatch, FIRST, terminal=f"{__name__}:renderer")
    result = runner.invoke(app, ["play", FIRST, "--seed", "4", "--name", "Ada"])
    assert result.exit_code == 7, result.output
    assert len(calls) == 1
    assert calls[0]["game"] == FIRST and calls[0]["seed"] == 4 and calls[0]["name"] == "Ada"


def test_a_game_without_a_terminal_renderer_is_refused_naming_those_that_have_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with_spec(monkeypatch, FIRST, terminal=None)
    others = [name for name in games.names() if name != FIRST]
    title = games.get(FIRST).title
    result = runner.invoke(app, ["play", FIRST])
    assert result.exit_code == 2
    assert f"{title} cannot be played in the terminal; the games that can: {', '.join(others)}" in said(
        result.output
    )
    with pytest.raises(RulesError, match="cannot be played in the terminal"):
        run_play(games.get(FIRST).make_rules(), seed=1, bots="random", name="Ada", record_path=None,
                 console=Console(file=io.StringIO()), ask=lambda prompt: "quit")


@pytest.mark.parametrize("name", games.names())
def test_deck_is_taken_exactly_where_the_spec_says_so(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = games.get(name)
    if spec.decks:
        # The deck reaches the game's rules: an unknown deck is the game's own clear error.
        result = runner.invoke(app, ["play", name, "--deck", "no-such-deck"])
        assert result.exit_code == 2 and "no deck 'no-such-deck'" in said(result.output)
        with_spec(monkeypatch, name, decks=False)
    result = runner.invoke(app, ["play", name, "--deck", "no-such-deck"])
    assert result.exit_code == 2
    assert f"{name} has no deck files" in said(result.output)


def test_the_default_game_is_the_first_registered(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "--games", "1", "--records", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{FIRST}: 1 game")
    assert f"[default: {FIRST}]" in said(runner.invoke(app, ["play", "--help"], env={"COLUMNS": "120"}).output)


def test_an_unknown_game_is_an_error_that_lists_the_games() -> None:
    result = runner.invoke(app, ["play", "chess"])
    assert result.exit_code == 2
    assert f"unknown game 'chess'; the games are {', '.join(games.names())}" in said(result.output)


def test_the_help_names_the_games_from_the_registry() -> None:
    # The built-in games: a game registered by another test after the command was built is not
    # in its help, which is made once.
    output = said(runner.invoke(app, ["--help"], env={"COLUMNS": "120"}).output)
    assert "Play, simulate and replay the card games Baha and BAEBAE" in output
    play = said(runner.invoke(app, ["play", "--help"], env={"COLUMNS": "120"}).output)
    assert "The game: baha, baebae" in play
