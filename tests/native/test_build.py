"""The native engine's build: there in this run, said by `cardroom --version`, and a clean
fallback to the Python engine where it was not built."""

from __future__ import annotations

import os
import subprocess
import sys

from cardroom import native
from cardroom.native import describe as native_build


def test_this_run_has_the_native_engine() -> None:
    # `make install` builds it; an install that fell back must not pass unnoticed (unless this
    # run says it installed the pure engine on purpose: CARDROOM_PURE=1 make install).
    if os.environ.get("CARDROOM_PURE", "") not in ("", "0"):
        assert not native.available(), "CARDROOM_PURE is set but the native core is built"
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


# The core made missing as where it was never built: its import finds no module.
_WITHOUT_CORE = """
import sys
sys.modules["cardroom.native._core"] = None
"""

_NOT_BUILT = "not built (installed with CARDROOM_PURE=1, or where no C++17 compiler was found)"


def _run(code: str, engine: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin"}
    if engine is not None:
        env["CARDROOM_ENGINE"] = engine
    return subprocess.run([sys.executable, "-c", _WITHOUT_CORE + code], env=env, capture_output=True, text=True,
                          timeout=60)


def test_without_the_core_games_run_on_python_and_asking_for_native_is_refused_in_words() -> None:
    shown = _run("from cardroom.cli.main import main; sys.argv = ['cardroom', '--version']; main()")
    assert f"(native core {_NOT_BUILT}, games run on python)" in shown.stdout, shown.stderr
    plain = _run("from cardroom.games import baha, baebae\n"
                 "print(type(baha.Rules().new_game(1)).__name__, type(baebae.Rules().new_game(1)).__name__)")
    assert plain.stdout.strip() == "BahaState BaebaeState", plain.stderr
    asked = _run("from cardroom.cli.main import main; sys.argv = ['cardroom', '--version']; main()", engine="native")
    assert f"(native core {_NOT_BUILT}; CARDROOM_ENGINE=native: new games are refused)" in asked.stdout, asked.stderr
    refused = _run(
        "from cardroom.games import baha\n"
        "try:\n    baha.Rules().new_game(1)\nexcept ValueError as e:\n    print(e)", engine="native"
    )
    assert refused.stdout.strip() == (
        f"the native engine is {_NOT_BUILT}; reinstall with a C++17 compiler at hand, CARDROOM_PURE unset"
    ), refused.stderr


def test_a_core_that_is_there_but_does_not_load_says_so() -> None:
    broken = _run(
        "import importlib.abc\n"
        "class Broken(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'cardroom.native._core':\n"
        "            raise ImportError('undefined symbol: as the test pretends')\n"
        "sys.modules.pop('cardroom.native._core')\n"
        "sys.meta_path.insert(0, Broken())\n"
        "from cardroom.native import describe\nprint(describe())"
    )
    assert broken.stdout.strip() == (
        "native core not loaded (undefined symbol: as the test pretends), games run on python"
    ), broken.stderr
