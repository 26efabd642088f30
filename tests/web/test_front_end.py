"""The browser front end reaches each game through its renderer: the common modules name no
game, and every game the registry serves on the web has a renderer module in the static files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardroom import games
from cardroom.web import app

STATIC = Path(app.__file__).parent / "static"
COMMON = sorted(STATIC.glob("*.js"))


def test_the_common_modules_are_found() -> None:
    assert {p.name for p in COMMON} >= {"cards.js", "common.js", "lobby.js", "render.js", "replay.js", "table.js"}


@pytest.mark.parametrize("path", COMMON, ids=lambda p: p.name)
def test_a_common_module_names_no_game(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for game in games.names():
        named = re.findall(rf"""["'`]{re.escape(game)}["'`]""", text, flags=re.IGNORECASE)
        assert not named, f"{path.name} names the game {game!r} ({len(named)} times): ask renderer(game)"


@pytest.mark.parametrize("game", games.names())
def test_a_game_s_renderer_is_a_static_module(game: str) -> None:
    ref = games.get(game).web_renderer
    assert ref is not None, f"{game} has no web renderer"
    module = STATIC / ref
    assert module.is_file() and module.resolve().is_relative_to(STATIC.resolve())
    assert "export default {" in module.read_text(encoding="utf-8")


SCRIPTS = COMMON + sorted((STATIC / "games").glob("*.js"))
TEXT_READERS = {"res", "opt", "pending", "msg", "d", "action"}
"""What the pages read a ``text`` of: a response, an option's help, a decision (the view's
``pending``), a chat message, a card's design, a card's action in the studio's deck form. A move's or a replay step's ``text`` is for
records and people, not for the page to read."""


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.relative_to(STATIC).as_posix())
def test_no_page_parses_action_text(path: Path) -> None:
    """The server sends each move with the fields of the state's ``decode()`` (``kind``,
    ``card``, ``suit``, ``seat``, ``option``): the pages act on them and read no action text."""
    text = path.read_text(encoding="utf-8")
    assert "splitMove" not in text
    read = {m.group(1) for m in re.finditer(r"\b(\w+)\??\.text\b", text)}
    assert read <= TEXT_READERS, f"{path.name} reads the text of {sorted(read - TEXT_READERS)}"
    # a replay step's action is its text too: its move (the fields) is what the page reads
    assert not re.search(r"\bstep\.action\b", text), f"{path.name} reads a replay step's action text"
