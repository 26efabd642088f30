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
