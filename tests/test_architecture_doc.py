"""docs/architecture.md matches the code: every file it names exists, and every module of a
game's package is in its map."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "cardroom"
DOC = (ROOT / "docs" / "architecture.md").read_text()


def _exists(name: str) -> bool:
    """A path from the package, the repository or the web's static files; a bare file name
    (prose says ``actions.py`` of the package it speaks of) anywhere in the package."""
    bases = (PACKAGE, ROOT, ROOT / "src", PACKAGE / "web" / "static")
    return any((base / name).exists() for base in bases) or ("/" not in name and any(PACKAGE.rglob(name)))


def test_every_file_the_doc_names_exists() -> None:
    named = set(re.findall(r"`([\w./]+\.(?:py|js|toml|md))`", DOC))
    named |= set(re.findall(r"^  ([\w/]+\.py)\b", DOC, flags=re.M))
    missing = sorted(n for n in named if not _exists(n))
    assert missing == []


def test_every_module_of_a_games_package_is_in_the_map() -> None:
    unnamed = [f"games/{path.parent.name}/{path.name}" for path in sorted(PACKAGE.glob("games/*/*.py"))
               if path.name != "__init__.py" and f"games/{path.parent.name}/{path.name}" not in DOC
               and f"games/<game>/{path.name}" not in DOC]
    assert unnamed == []


def test_the_layering_test_and_the_contracts_are_described() -> None:
    for name in ("tests/test_layers.py", "games/contracts.py", "games/baebae/interface.py", "sim/runner.py",
                 "games/fieldgen.py", "TerminalRenderer", "DeckSupport", "StateMoves"):
        assert name in DOC, name
