"""The compiled engine and the plain one: the same games, and the test run on the compiled one.

``make install`` compiles the engine's hot modules (mypyc); ``CARDROOM_PURE=1`` makes Python
load the plain ``.py`` modules instead. The plays of ``compiled_support.PLAYS`` (random,
heuristic and ISMCTS bots in both games) are run in this process and in a subprocess with
``CARDROOM_PURE=1``; their logs, records, bot decisions, views and determinized worlds must
hash the same.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

import cardroom
from cardroom.compiled import MODULES, pure_requested
from cardroom.games import get

SUPPORT = Path(__file__).with_name("compiled_support.py")


def _load_support():  # imported by path: tests are not a package
    import importlib.util

    spec = importlib.util.spec_from_file_location("compiled_support", SUPPORT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _engine_in_subprocess(pure: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "CARDROOM_PURE"}
    if pure is not None:
        env["CARDROOM_PURE"] = pure
    code = "import cardroom; print(cardroom.engine_build())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_this_run_uses_the_compiled_engine() -> None:
    # `make install` compiles; a build that fell back to plain Python must not pass unnoticed.
    if pure_requested():
        assert cardroom.engine_build() == "pure"
    else:
        assert cardroom.engine_build() == "compiled", (
            "the engine is not compiled: reinstall with a C compiler (make clean install)"
        )


def test_pure_variable_loads_every_module_from_source() -> None:
    code = (
        "import importlib, json, cardroom\n"
        f"mods = {list(MODULES)!r}\n"
        "print(json.dumps([cardroom.engine_build(), [importlib.import_module(m).__file__ for m in mods]]))"
    )
    env = dict(os.environ, CARDROOM_PURE="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    build, files = json.loads(out.stdout)
    assert build == "pure"
    assert all(f.endswith(".py") for f in files), files


def test_compiled_and_pure_engines_play_the_same_games() -> None:
    pure = subprocess.Popen(  # the plain engine plays while this process plays compiled
        [sys.executable, str(SUPPORT)], env=dict(os.environ, CARDROOM_PURE="1"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    ours = _load_support().fingerprint()
    stdout, stderr = pure.communicate(timeout=300)
    assert pure.returncode == 0, stderr
    theirs = json.loads(stdout)
    assert theirs["engine"] == "pure"
    assert ours["engine"] == cardroom.engine_build()
    assert ours["hashes"].keys() == theirs["hashes"].keys() and len(ours["hashes"]) >= 7
    for play, digest in ours["hashes"].items():
        assert digest == theirs["hashes"][play], f"{play}: the compiled and plain engines differ"


def test_pure_variable_zero_or_empty_keeps_the_build() -> None:
    built = _engine_in_subprocess(None)
    assert built in ("compiled", "pure")
    assert _engine_in_subprocess("0") == built and _engine_in_subprocess("") == built
    assert _engine_in_subprocess("1") == "pure"


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_a_state_survives_pickling_mid_game(game: str) -> None:
    # Bot workers get their positions pickled; compiled classes pickle through __reduce__.
    state = get(game).make_rules({}).new_game(11)
    for k in range(40):
        legal = state.legal_actions()
        state.apply(legal[k % len(legal)])
    state.determinize(state.current_player, random.Random(1))  # fills the cache left behind
    copy = pickle.loads(pickle.dumps(state))
    assert type(copy) is type(state)
    assert copy.log == state.log and copy.history == state.history
    assert [copy.view(s) for s in range(len(state.scores))] == [state.view(s) for s in range(len(state.scores))]
    while not state.is_over and len(state.history) < 400:
        legal = state.legal_actions()
        assert copy.legal_actions() == legal
        action = legal[len(state.history) % len(legal)]
        assert copy.apply(action) == state.apply(action)
