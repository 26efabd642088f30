"""The shape of the ``cardroom`` command: each command is declared beside its body, in its own
module, and ``cli/main.py`` only assembles them; no module of the command grows past 600 lines."""

from __future__ import annotations

from pathlib import Path

import typer.main
from typer.core import TyperGroup as Group

from cardroom.cli.main import app

CLI = Path(__file__).resolve().parents[2] / "src" / "cardroom" / "cli"
MOST_LINES = 600


def _callbacks() -> dict[str, object]:
    """Every command of the app (``deck validate`` as ``deck validate``) with its function."""
    found: dict[str, object] = {}
    root = typer.main.get_command(app)
    assert isinstance(root, Group)
    for name, command in root.commands.items():
        if isinstance(command, Group):
            for sub, inner in command.commands.items():
                found[f"{name} {sub}"] = inner.callback
        else:
            found[name] = command.callback
    return found


def test_every_command_is_declared_beside_its_body_not_in_main() -> None:
    callbacks = _callbacks()
    assert {"play", "simulate", "replay", "deck validate", "serve"} <= set(callbacks)
    in_main = sorted(name for name, function in callbacks.items()
                     if getattr(function, "__module__", None) == "cardroom.cli.main")
    assert not in_main, f"declared in cli/main.py instead of their own modules: {in_main}"


def test_no_module_of_the_command_is_over_600_lines() -> None:
    lengths = {path.relative_to(CLI).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
               for path in CLI.rglob("*.py")}
    assert "main.py" in lengths
    assert {name: n for name, n in lengths.items() if n > MOST_LINES} == {}
