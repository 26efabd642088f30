"""No module of the package is over 600 lines: one past that holds more than one concern (split
it by responsibility, as ``analysis/games/baebae.py`` and ``agents/ismcts.py`` were)."""

from __future__ import annotations

from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "cardroom"
MOST = 600


def test_no_module_is_over_600_lines() -> None:
    long = {}
    for path in sorted(SRC.rglob("*.py")):
        name = path.relative_to(SRC).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MOST:
            long[name] = lines
    assert long == {}, f"split these modules by responsibility (at most {MOST} lines each)"
