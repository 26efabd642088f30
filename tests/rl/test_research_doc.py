"""docs/research.md: its slice tables are the encoders' own, and its examples run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardroom import rl

DOC = Path(__file__).parents[2] / "docs" / "research.md"


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_the_slice_tables_are_the_encoders(game):
    # The doc shows four players and the default rules (BAEBAE's sample deck).
    assert rl.slice_table(game, players=4) in DOC.read_text()


def test_every_slice_of_both_games_is_in_the_doc():
    text = DOC.read_text()
    for game in ("baha", "baebae"):
        for s in rl.slices(game):
            assert f"`{s.name}`" in text


def examples() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_the_doc_has_examples():
    assert len(examples()) >= 2


@pytest.mark.parametrize("index", range(len(examples())))
def test_the_examples_run(index):
    exec(compile(examples()[index], f"research.md example {index + 1}", "exec"), {})


def test_the_action_counts_and_ids_are_the_codes():
    text = DOC.read_text()
    assert f"The action space has {rl.Table.of('baha', 4, {}).num_actions} actions" in text
    assert f"{rl.Table.of('baebae', 4, {}).num_actions} actions with the sample deck and\n4 players" in text
    for game in ("baha", "baebae"):
        assert f"| `{rl.gymnasium_id(game)}` |" in text
