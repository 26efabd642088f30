"""The web server's code in pieces a reader takes in: no module of ``cardroom.web`` over 600
lines, no function over 80 (its decorators counted), each split by what it does."""

from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "cardroom" / "web"
MOST_MODULE_LINES = 600
MOST_FUNCTION_LINES = 80


def _modules() -> list[Path]:
    return sorted(p for p in WEB.rglob("*.py") if "migrations" not in p.parts)


def test_the_web_is_read_from_its_modules() -> None:
    assert len(_modules()) > 20 and (WEB / "tables.py") in _modules()


def test_no_module_of_the_web_is_over_600_lines() -> None:
    long = {p.relative_to(WEB).as_posix(): n for p in _modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_MODULE_LINES}
    assert long == {}


def test_no_function_of_the_web_is_over_80_lines() -> None:
    long = {}
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                length = (node.end_lineno or node.lineno) - start + 1
                if length > MOST_FUNCTION_LINES:
                    long[f"{path.relative_to(WEB).as_posix()}:{node.lineno} {node.name}"] = length
    assert long == {}


EDGES = {
    "catalog.py": "GET /api/catalog: every game of the registry, each asked for once",
    "pages.py": "GET /rules/{game}: the game the address names",
    "seating.py": "a create or Play now request: the game its body names",
    "live.py": "a table: the game its stored data names, asked for once per table",
    "studio.py": "the studio's games, asked for once when it is made",
    "studio_forms.py": "the games whose decks the studio edits, the registry enumerated once",
    "studio_work.py": "a deck worker process, given the game's name",
}
"""Where the web asks the registry for a game by name: its edges, once each."""


def test_the_registry_is_asked_for_a_game_at_the_webs_edges_only() -> None:
    asked: dict[str, int] = {}
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "games"):
                name = path.relative_to(WEB).as_posix()
                asked[name] = asked.get(name, 0) + 1
    assert set(asked) <= set(EDGES), sorted(set(asked) - set(EDGES))
    assert sum(asked.values()) <= len(EDGES) + 1, asked  # the rules page asks twice (its title, its text)
