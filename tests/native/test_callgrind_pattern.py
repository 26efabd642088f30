"""The benchmarks' callgrind count names one function, the whole batch: ``--toggle-collect``
flips collection on entering any function its pattern matches, so a pattern that also matched
a function the batch calls (Baha's ``begin_hand<...play_games...>``, the deal) left it out."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from native_support import needs_native

pytestmark = needs_native

BENCHMARKS = Path(__file__).parents[2] / "benchmarks"


@pytest.fixture
def scripts(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    for name in ("harness", "native_vs_openspiel", "baebae_native_vs_openspiel"):
        sys.modules.pop(name, None)
    import baebae_native_vs_openspiel
    import harness
    import native_vs_openspiel

    return harness, native_vs_openspiel, baebae_native_vs_openspiel


@pytest.mark.skipif(shutil.which("nm") is None, reason="needs nm")
def test_each_batchs_pattern_matches_its_function_and_only_it(scripts):
    harness, baha_bench, baebae_bench = scripts
    baha = harness.core_functions(baha_bench.COUNTED_FUNCTION)
    baebae = harness.core_functions(baebae_bench.COUNTED_FUNCTION)
    assert len(baha) == 1 and baha[0].startswith("(anonymous namespace)::play_games(cardroom::baha::Rules")
    assert len(baebae) == 1 and baebae[0].startswith("cardroom::baebae::play_games(cardroom::baebae::Rules")
    # the old pattern matched the deal's and the hand's end's instances too (and BAEBAE's batch)
    old = harness.core_functions("*play_games*")
    assert any(name.startswith("void cardroom::baha::Game::begin_hand<") for name in old) and len(old) > 2
    with pytest.raises(SystemExit, match="must match one function"):
        harness.callgrind_count("*play_games*", "print(0)")


def test_valgrind_patterns_are_read_as_valgrind_reads_them(scripts):
    harness = scripts[0]
    regex = harness.pattern_regex("a(*)b?")
    assert regex.match("a(x, y)bc") and regex.match("a()b!")
    assert not regex.match("a(x)b") and not regex.match("a(x)bcd") and not regex.match("za()bc")


@pytest.mark.skipif(shutil.which("valgrind") is None or shutil.which("nm") is None, reason="needs valgrind")
def test_callgrind_counts_in_the_one_function(scripts):
    harness, baha_bench, _ = scripts
    counted = baha_bench.count_instructions(True, games=5)
    assert counted is not None and counted["functions"] == harness.core_functions(baha_bench.COUNTED_FUNCTION)
    assert counted["actions"] > 0 and counted["instructions_per_action"] > 100
