"""docs/research.md: its slice tables are the encoders' own, and its examples run, on the install
`make research` makes too."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from cardroom import rl
from cardroom.extras import EXTRA_OF

ROOT = Path(__file__).parents[2]
DOC = ROOT / "docs" / "research.md"


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


# -- the researcher's install: `make research` ------------------------------------------

def _dist(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _extra_packages(extras: list[str]) -> set[str]:
    """The packages the extras install, their references to other extras followed."""
    optional = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names: set[str] = set()
    for extra in extras:
        for item in optional[extra]:
            requirement = Requirement(item)
            names |= (_extra_packages(sorted(requirement.extras)) if _dist(requirement.name) == "cardroom"
                      else {_dist(requirement.name)})
    return names


def not_in_research_install() -> list[str]:
    """The optional modules `make research` does not install (its extras are the Makefile's)."""
    extras = re.search(r"^EXTRAS_research\s*:=\s*(\S+)", (ROOT / "Makefile").read_text(), re.M)
    assert extras, "the Makefile names the research target's extras"
    installed = _extra_packages(extras.group(1).split(","))
    dists = packages_distributions()
    return sorted(module for module in EXTRA_OF
                  if not {_dist(d) for d in dists.get(module, [])} & installed)


# None in sys.modules makes a module missing: its import raises ModuleNotFoundError.
RUN_WITHOUT = """
import json, sys
sys.modules.update(dict.fromkeys(json.loads(sys.argv[1])))
for index, example in enumerate(json.loads(sys.argv[2])):
    exec(compile(example, f"research.md example {index + 1}", "exec"), {})
"""


def _run_without(blocked: list[str], code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, json.dumps(blocked), *args], capture_output=True,
                          text=True, timeout=300)


def test_the_examples_run_on_the_research_install():
    """Every example of the doc, with the packages `make research` does not install missing."""
    blocked = not_in_research_install()
    assert "ray" in blocked and "torch" not in blocked  # the designer's extras are missing, the researcher's not
    result = _run_without(blocked, RUN_WITHOUT, json.dumps(examples()))
    assert result.returncode == 0, result.stderr[-3000:]


FIND_TABLES = """
import json, sys
sys.modules.update(dict.fromkeys(json.loads(sys.argv[1])))
from cardroom.games import {game}
from cardroom.games.{game}.native import table_games
try:
    table_games({game}.Rules(), [0], [("random",) * {game}.Rules().players])
except ModuleNotFoundError as err:
    print(json.dumps([err.name, str(err)]))
"""


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_native_tables_without_pyarrow_name_the_extra(game):
    result = _run_without(["pyarrow"], FIND_TABLES.format(game=game))
    assert result.returncode == 0, result.stderr[-3000:]
    name, words = json.loads(result.stdout)
    assert name == "pyarrow"
    assert f"cardroom.games.{game}.native_tables.table_games needs the package pyarrow" in words
    assert "Cardroom's results extra (pip install 'cardroom[results]', or make designer or make research" in words
