"""The example in docs/openspiel.md runs as it stands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "openspiel.md"


def test_the_documented_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    assert blocks, "docs/openspiel.md has no Python example"
    exec(compile(blocks[0], str(DOC), "exec"), {})
    returns, points = (eval(line) for line in capsys.readouterr().out.splitlines())
    assert len(returns) == 4 and abs(sum(returns)) < 1e-9
    assert len(points) == 1 and len(points[0]) == 4 and sum(points[0]) in (60, 180)  # a hand, or a moon
