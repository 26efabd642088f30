"""One refusal family: every error class Cardroom raises for bad input is a
:class:`~cardroom.engine.CardroomInputError` (a ``ValueError``, each keeping its own name), so a
front catches that one class; a game whose deck errors are not one is refused when registered."""

from __future__ import annotations

import ast
import dataclasses
import importlib
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from cardroom import games
from cardroom.cli.base import guard
from cardroom.cli.main import app
from cardroom.engine import CardroomInputError, IllegalAction, RulesError

SRC = Path(__file__).resolve().parents[1] / "src"
WEB = SRC / "cardroom" / "web"
"""The web's refusals carry an HTTP status or a message code (the web's own refusal and handler)."""


def _error_classes() -> list[tuple[str, str]]:
    """``(module, class)`` of every class of ``src`` named ``...Error`` (or ``IllegalAction``,
    ``UnknownGame``), outside the web."""
    found = []
    for path in sorted((SRC / "cardroom").rglob("*.py")):
        if WEB in path.parents:
            continue
        module = ".".join(path.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and (node.name.endswith("Error")
                                                   or node.name in ("IllegalAction", "UnknownGame")):
                found.append((module, node.name))
    return found


def test_every_input_error_is_a_cardroom_input_error_and_a_value_error() -> None:
    classes = _error_classes()
    names = {name for _, name in classes}
    assert {"RulesError", "DeckError", "RecordError", "AgentError", "UsageError", "IllegalAction",
            "CardParseError", "EnvError", "TuneError", "ObserverError"} <= names
    outside = []
    for module, name in classes:
        found = getattr(importlib.import_module(module), name)
        if name != "CardroomInputError" and not issubclass(found, CardroomInputError):
            outside.append(f"{module}.{name}")
        assert issubclass(found, ValueError), name
    assert outside == []


@pytest.mark.parametrize("error", [IllegalAction("pass 13R is not in your hand; play one of 9P, 10P"),
                                   RulesError("target must be a whole number from 1 to 1000, not 0")])
def test_the_command_tells_any_input_error_in_one_line_with_status_2(
    error: CardroomInputError, capsys: pytest.CaptureFixture[str]
) -> None:
    import typer

    with pytest.raises(typer.Exit) as stopped, guard():
        raise error
    assert stopped.value.exit_code == 2
    assert " ".join(capsys.readouterr().err.split()) == f"error: {error}"


def test_a_refusal_reaches_the_command_line_as_its_words() -> None:
    result = CliRunner().invoke(app, ["simulate", games.names()[0], "--rule", "target=many", "--games", "1"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "target" in result.output


def test_a_game_whose_deck_errors_are_not_input_errors_is_refused_when_registered() -> None:
    decked = next(games.get(name) for name in games.names() if games.get(name).decks is not None)
    decks = SimpleNamespace(error=KeyError, default="sample")  # all the registry reads of a game's decks
    stray = dataclasses.replace(decked, name="stray-decks", decks=decks)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="stray-decks's decks.error.*is not a CardroomInputError"):
        games.register(stray)
    assert "stray-decks" not in games.names()
