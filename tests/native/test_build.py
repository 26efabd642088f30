"""The native engine's build: there in this run, said by `cardroom --version`, and a clean
fallback to the Python engine where it was not built."""

from __future__ import annotations

import subprocess
import sys

from cardroom import native
from cardroom.compiled import pure_requested
from cardroom.native import describe as native_build


def test_this_run_has_the_native_engine() -> None:
    # `make install` builds it; an install that fell back must not pass unnoticed.
    if pure_requested():
        return
    assert native.available(), f"the native engine is {native.unavailable_reason()}: reinstall (make clean install)"
    assert native_build() == "native core built (baha), games run on native"


_WITHOUT_CORE = """
import importlib.abc, sys
class NoCore(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "cardroom.native._core":
            raise ImportError("no C++ compiler at install (as the test pretends)")
        return None
sys.meta_path.insert(0, NoCore())
"""


def _run(code: str, engine: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin"}
    if engine is not None:
        env["CARDROOM_ENGINE"] = engine
    return subprocess.run([sys.executable, "-c", _WITHOUT_CORE + code], env=env, capture_output=True, text=True,
                          timeout=60)


def test_without_the_core_games_run_on_python_and_asking_for_native_is_refused_in_words() -> None:
    shown = _run("from cardroom.cli.main import main; sys.argv = ['cardroom', '--version']; main()")
    assert "native core not built (no C++ compiler at install (as the test pretends))" in shown.stdout, shown.stderr
    plain = _run("from cardroom.games import baha; print(type(baha.Rules().new_game(1)).__name__)")
    assert plain.stdout.strip() == "BahaState", plain.stderr
    refused = _run(
        "from cardroom.games import baha\n"
        "try:\n    baha.Rules().new_game(1)\nexcept ValueError as e:\n    print(e)", engine="native"
    )
    assert refused.stdout.strip() == (
        "the native engine is not built (no C++ compiler at install (as the test pretends)); "
        "reinstall with a C++17 compiler at hand"
    ), refused.stderr
