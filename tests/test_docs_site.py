"""The documentation as a site (mkdocs.yml): it builds with every warning an error (a broken
link or anchor between pages, a docstring mkdocstrings cannot read), the guides come first, the
API reference is made from the docstrings, and the README's sections and benchmarks/README.md
are in it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("site")
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
                           cwd=ROOT, capture_output=True, text=True, timeout=120,
                           env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert built.returncode == 0, built.stdout + built.stderr
    assert "WARNING" not in built.stderr, built.stderr
    return folder


def _page(site: Path, name: str) -> str:
    return (site / name / "index.html").read_text(encoding="utf-8")


def test_the_guides_come_first(site: Path) -> None:
    nav = re.findall(r'md-nav__link[^>]*>\s*(?:<span[^>]*>\s*)?([A-Z][A-Za-z ]+?)\s*<', _page(site, "play"))
    sections = [name for name in nav if name in {"Guides", "Rules", "Reference", "API reference", "Benchmarks"}]
    assert sections[:5] == ["Guides", "Rules", "Reference", "API reference", "Benchmarks"], nav
    for guide in ("play", "design", "research", "web"):
        assert (site / guide / "index.html").exists(), guide


def test_the_api_reference_is_made_from_the_docstrings(site: Path) -> None:
    games = _page(site, "api/games")
    for name in ("cardroom.engine.State", "cardroom.engine.IllegalAction", "cardroom.games.get",
                 "cardroom.games.baha.Rules", "cardroom.record"):
        assert f'id="{name}"' in games, name
    # a doctest is shown as code, a Sphinx role as code, never as its markup
    assert "mask_of" in games and ":class:" not in games and ":func:" not in games
    sim = _page(site, "api/sim")
    assert 'id="cardroom.sim.runner.ray_refusal"' in sim
    # a module's public names are those in its __all__ (docs/api/index.md): not every name
    # without an underscore
    from cardroom.sim import runner

    assert "TOKEN_HELP" not in runner.__all__ and 'id="cardroom.sim.runner.TOKEN_HELP"' not in sim
    assert 'id="cardroom.rl.vector_env"' in _page(site, "api/rl")


def test_the_readme_sections_and_the_benchmarks_are_pages(site: Path) -> None:
    play = _page(site, "play")
    for heading in ("Playing in the browser", "Playing in the terminal", "Computer opponents", "Rules options"):
        assert f">{heading}<" in play, heading
    assert 'src="../images/baha-table.png"' in play
    assert 'href="../rules-baha/"' in play  # README's docs/rules-baha.md, a page of the site
    benchmarks = _page(site, "benchmarks")
    assert ">The learning environments&rsquo; throughput<" in benchmarks or \
        ">The learning environments' throughput<" in benchmarks


def test_the_research_guide_keeps_no_run_history() -> None:
    """The figures and their history are in benchmarks/README.md; the guide links them."""
    guide = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    assert "UTC" not in guide and "branch `i20" not in guide
    assert guide.count("../benchmarks/README.md#") >= 4


def test_the_api_reference_tour_runs() -> None:
    page = (ROOT / "docs" / "api" / "index.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/api/index.md", "exec"), {})
