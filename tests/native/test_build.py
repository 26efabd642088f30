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
    assert native_build() == "native core built (baha, baebae), games run on native"


def test_the_native_games_and_their_batches_come_from_the_registry() -> None:
    import dataclasses
    from pathlib import Path

    from cardroom import games

    source = Path(native.__file__).read_text(encoding="utf-8").lower()
    assert [name for name in games.names() if name in source] == []  # the module names no game
    assert native.native_games() == ("baha", "baebae")
    spec = games.get("baebae")
    assert native.batch_for("baebae") is spec.load("native")
    python_only = dataclasses.replace(spec, native=None)
    try:
        games._GAMES["baebae"] = python_only
        assert native.native_games() == ("baha",) and native.batch_for("baebae") is None
        assert not native.native_for("baebae")
        assert "native core built (baha)," in native_build()
    finally:
        games._GAMES["baebae"] = spec


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
    plain = _run("from cardroom.games import baha, baebae\n"
                 "print(type(baha.Rules().new_game(1)).__name__, type(baebae.Rules().new_game(1)).__name__)")
    assert plain.stdout.strip() == "BahaState BaebaeState", plain.stderr
    refused = _run(
        "from cardroom.games import baha\n"
        "try:\n    baha.Rules().new_game(1)\nexcept ValueError as e:\n    print(e)", engine="native"
    )
    assert refused.stdout.strip() == (
        "the native engine is not built (no C++ compiler at install (as the test pretends)); "
        "reinstall with a C++17 compiler at hand"
    ), refused.stderr
