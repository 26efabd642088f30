"""What each install holds: the core package (``pip install cardroom``) has the rules and the
whole CLI without the web server's packages, a command that needs a missing extra names it in
words, and the Makefile's targets install each set of extras once (``make play`` the web table
alone, ``make test`` every extra)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib
from importlib.metadata import packages_distributions, requires
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from cardroom.extras import EXTRA_OF, MAKE_TARGETS

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
WEB_MODULES = sorted(module for module, extra in EXTRA_OF.items() if extra == "web")
# What the web extra's packages bring with them: no more part of the core than they are (pydantic
# is: typer needs it).
WEB_BROUGHT = ["starlette", "websockets", "httptools", "uvloop", "watchfiles"]


def _name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", Requirement(requirement).name).lower()


def _extra_packages(extra: str) -> set[str]:
    """The packages an extra installs, its references to other extras followed."""
    names: set[str] = set()
    for item in PROJECT["optional-dependencies"][extra]:
        requirement = Requirement(item)
        if _name(item) == "cardroom":
            for inner in requirement.extras:
                names |= _extra_packages(inner)
        else:
            names.add(_name(item))
    return names


def test_the_core_dependencies_hold_no_web_package() -> None:
    core = {_name(item) for item in PROJECT["dependencies"]}
    web = _extra_packages("web")
    assert web == {"fastapi", "uvicorn", "sqlalchemy", "python-multipart", "alembic", "prometheus-client",
                   "argon2-cffi", "openskill"}
    assert not core & (web | set(WEB_BROUGHT)), core
    # The installed metadata says the same: the web packages only under extra == "web" (openskill
    # also under "analysis": `cardroom ladder` rates agents on the accounts' scale).
    shared = {"openskill": "analysis"}
    for line in requires("cardroom") or []:
        if _name(line) in web:
            marker = str(Requirement(line).marker)
            assert "web" in marker or shared.get(_name(line), "web") in marker, line


def test_every_extras_package_is_named_by_the_cli_with_its_extra() -> None:
    """``EXTRA_OF`` (the words a command says for a missing package) agrees with pyproject.toml:
    each module's package is in the extra it names, and every package of the extras the CLI
    uses has a module there."""
    installed = packages_distributions()
    for module, extra in EXTRA_OF.items():
        dists = {re.sub(r"[-_.]+", "-", d).lower() for d in installed.get(module, [])}
        assert dists, f"{module} is not installed (make test installs every extra)"
        assert dists & _extra_packages(extra), (module, extra, dists)
    for extra in ["web", "postgres", "results", "analysis", "ray", "rl", "openspiel", "train"]:
        named = {re.sub(r"[-_.]+", "-", d).lower() for module, e in EXTRA_OF.items() if e == extra
                 for d in installed.get(module, [])}
        typing_only = {name for name in _extra_packages(extra) if name.endswith("-stubs")}
        others = {name for name in _extra_packages(extra) - named - typing_only
                  if not any(name in _extra_packages(e) for e in set(EXTRA_OF.values()) if e != extra)}
        assert not others, f"the {extra} extra's {others} have no entry in EXTRA_OF"
        assert extra in MAKE_TARGETS
    assert set(PYPROJECT["project"]["optional-dependencies"]["designer"]) == {"cardroom[results,analysis,ray]"}
    assert set(PYPROJECT["project"]["optional-dependencies"]["research"]) == {"cardroom[rl,openspiel,train,results]"}


# -- the import boundary: the CLI with the web packages made unimportable -----------------

# None in sys.modules makes a module missing whatever finders are installed (CARDROOM_PURE adds
# one): its import raises ModuleNotFoundError, importlib.util.find_spec answers None.
BLOCKER = '''
import sys

sys.modules.update(dict.fromkeys({blocked!r}))
'''


def _python(tmp_path: Path, blocked: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    """The venv's ``python ARGS`` in a fresh process (and its workers) where ``blocked`` cannot be
    imported."""
    hook = tmp_path / "hook"
    hook.mkdir(exist_ok=True)
    (hook / "sitecustomize.py").write_text(textwrap.dedent(BLOCKER.format(blocked=blocked)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(hook), os.environ.get("PYTHONPATH", "")]),
           "COLUMNS": "120", "NO_COLOR": "1"}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=120,
                          cwd=tmp_path)


def _cardroom(tmp_path: Path, blocked: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    """``cardroom ARGS`` (the console script) where ``blocked`` cannot be imported."""
    script = Path(sys.executable).with_name("cardroom")
    if script.exists():
        return _python(tmp_path, blocked, str(script), *args)
    return _python(tmp_path, blocked, "-m", "cardroom.cli.main", *args)


def test_the_blocker_blocks(tmp_path: Path) -> None:
    """The hook the tests below rely on makes the web packages missing (else they prove nothing)."""
    hook = tmp_path / "hook"
    _cardroom(tmp_path, WEB_MODULES, "--version")
    result = subprocess.run([sys.executable, "-c", "import fastapi"], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(hook)})
    assert result.returncode == 1 and "ModuleNotFoundError: import of fastapi halted" in result.stderr


WEB_BLOCKED = [*WEB_MODULES, *WEB_BROUGHT]
COMMAND_HELP = [[], ["play"], ["simulate"], ["train"], ["replay"], ["report"], ["ladder"], ["analyze"], ["compare"], ["sweep"],
                ["restrict"], ["skill"], ["tune"], ["drama"], ["serve"], ["deck"], ["deck", "validate"], ["deck", "show"],
                ["deck", "new"]]


HELPS = """
import json, sys
from typer.testing import CliRunner
from cardroom.cli.main import app

for command in json.loads(sys.argv[1]):
    result = CliRunner().invoke(app, [*command, "--help"], prog_name="cardroom")
    print(json.dumps([result.exit_code, result.output, repr(result.exception)]))
"""


def test_every_command_runs_without_the_web_packages(tmp_path: Path) -> None:
    listed = _cardroom(tmp_path, WEB_BLOCKED, "--help")
    assert listed.returncode == 0, listed.stderr
    commands = set(re.findall(r"^│ (\w+) ", listed.stdout, re.MULTILINE))
    assert commands == {c[0] for c in COMMAND_HELP if c}, listed.stdout  # every command is checked
    # every command's help, in one process (the same blocked packages)
    helps = _python(tmp_path, WEB_BLOCKED, "-c", HELPS, json.dumps(COMMAND_HELP))
    assert helps.returncode == 0, helps.stderr
    for command, line in zip(COMMAND_HELP, helps.stdout.splitlines(), strict=True):
        code, output, error = json.loads(line)
        assert code == 0 and "Usage: cardroom" in output, (command, output, error)
    simulated = _cardroom(tmp_path, WEB_BLOCKED, "simulate", "baha", "--games", "2", "--records", "records")
    assert simulated.returncode == 0, simulated.stderr
    assert "Traceback" not in simulated.stderr
    replayed = _cardroom(tmp_path, WEB_BLOCKED, "replay", "--verify", *sorted(
        str(p) for p in (tmp_path / "records").glob("*.json")))
    assert replayed.returncode == 0 and replayed.stdout.count("ok") == 2, replayed.stdout + replayed.stderr
    shown = _cardroom(tmp_path, WEB_BLOCKED, "deck", "show", "sample")
    assert shown.returncode == 0, shown.stderr


def test_serve_without_the_web_extra_names_it(tmp_path: Path) -> None:
    result = _cardroom(tmp_path, WEB_BLOCKED, "serve", "--port", "0")
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    words = " ".join(result.stderr.split())
    assert "cardroom serve needs the package" in words, words
    assert "Cardroom's web extra (pip install 'cardroom[web]', or make play in a clone of Cardroom)" in words
    assert not (tmp_path / "cardroom-data").exists()  # nothing made before it stopped


def test_analyze_without_the_analysis_extra_names_it(tmp_path: Path) -> None:
    """Any command, not only serve: analyze on an install without polars."""
    (tmp_path / "results").mkdir()
    result = _cardroom(tmp_path, ["polars"], "analyze", "results")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    words = " ".join(result.stderr.split())
    assert "cardroom analyze needs the package polars" in words
    assert "pip install 'cardroom[analysis]', or make designer" in words


def test_the_ladder_without_openskill_names_the_analysis_extra_before_any_deal(tmp_path: Path) -> None:
    result = _cardroom(tmp_path, ["openskill"], "ladder", "baha", "--agents", "random,heuristic", "--deals", "1")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    words = " ".join(result.stderr.split())
    assert "the package openskill, which is not installed" in words
    assert "pip install 'cardroom[analysis]', or make designer" in words


def test_a_missing_module_of_no_extra_is_not_explained_away(tmp_path: Path) -> None:
    """A module Cardroom itself lacks is a bug: its traceback shows, not words about extras."""
    result = _cardroom(tmp_path, ["cardroom.web.app"], "serve", "--port", "0")
    assert result.returncode == 1 and "ModuleNotFoundError" in result.stderr, result.stderr
    assert "extra" not in result.stderr


# -- the Makefile: one stamp per set of extras ------------------------------------------


@pytest.fixture
def fake_venv(tmp_path: Path) -> Path:
    """A venv whose python and cardroom only log how they were called (nothing installed)."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    for tool in ("python", "cardroom"):
        path = venv / "bin" / tool
        path.write_text(f'#!/bin/sh\necho "{tool} $*" >> "{tmp_path}/calls"\n')
        path.chmod(0o755)
    return venv


def _make(venv: Path, *goals: str) -> tuple[list[str], str]:
    """The calls of the venv's tools that ``make GOALS`` made, and what make printed."""
    calls = venv.parent / "calls"
    calls.unlink(missing_ok=True)
    result = subprocess.run(["make", "-s", "--no-print-directory", "-C", str(ROOT), f"VENV={venv}", *goals],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    return (calls.read_text().splitlines() if calls.exists() else []), result.stdout


def _installs(venv: Path, *goals: str) -> list[str]:
    """The extras each pip install of ``make GOALS`` installed."""
    return [call.removeprefix("python -m pip install --quiet -e ") for call in _make(venv, *goals)[0]
            if "pip install" in call]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_installs_each_set_of_extras_once(fake_venv: Path) -> None:
    calls, printed = _make(fake_venv, "play")
    assert calls == ["python -m pip install --quiet -e .[web]", "cardroom serve"]
    hint = " ".join(printed.split())
    assert hint.startswith("Installed for playing: the web table, the terminal game")
    assert "make designer" in hint and "make research" in hint and "'.[designer]'" in hint

    assert _installs(fake_venv, "play") == [], "installed again"
    assert _installs(fake_venv, "designer") == [".[web,designer]"]
    # make test after make play: the rest, in one install
    assert _installs(fake_venv, f"{fake_venv}/.installed-all") == [".[dev,web,postgres,cluster,designer,research,bench]"]
    for goal in ("play", "designer", "research", "install"):
        assert _installs(fake_venv, goal) == [], f"make {goal} installed again"
    assert "Installed for playing" not in _make(fake_venv, "play")[1]  # nothing left to suggest

    # a Python module edited: the install is editable, nothing to do; the native engine's
    # sources or setup.py edited: the extension is built again
    assert _installs(fake_venv, "-W", "src/cardroom/cards.py", "install") == []
    assert _installs(fake_venv, "-W", "src/cardroom/games/baha/state.py", "install") == []
    for source in ("native/module.cpp", "native/cardroom/baha.hpp", "setup.py"):
        assert _installs(fake_venv, "-W", source, "install") == [".[dev,web,postgres,cluster,designer,research,bench]"], source

    # pyproject.toml edited (the stamps older than it): each installs again
    for stamp in fake_venv.glob(".installed-*"):
        os.utime(stamp, (0, 0))
    assert _installs(fake_venv, "play") == [".[web]"]
    assert _installs(fake_venv, "research") == [".[web,research]"]
    assert _installs(fake_venv, "install") == [".[dev,web,postgres,cluster,designer,research,bench]"]


# -- the pure install: CARDROOM_PURE=1 builds no native core, and says so ------------------

PLAYS_ON = """
import json, cardroom
from cardroom import native
from cardroom.games import get
states = {g: type(get(g).make_rules({}).new_game(3)).__module__ for g in ("baha", "baebae")}
print(json.dumps([cardroom.__file__, native.available(), states]))
"""


def test_the_pure_install_builds_no_native_core_says_so_and_plays_on_python(tmp_path: Path) -> None:
    """The wheel built with ``CARDROOM_PURE=1`` (as ``pip install`` builds it, without the
    build's isolation: the project's own setuptools) is pure Python, and installed it says in
    ``cardroom --version`` that the native core is not built and games run on Python."""
    source = tmp_path / "source"
    skip = shutil.ignore_patterns("*.so", "__pycache__", "*.egg-info", "build")
    for name in ("src", "native"):
        shutil.copytree(ROOT / name, source / name, ignore=skip)
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    env = {**os.environ, "CARDROOM_PURE": "1", "PIP_NO_INDEX": "1"}
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w",
         str(tmp_path / "wheels"), str(source)], capture_output=True, text=True, env=env, timeout=180)
    assert built.returncode == 0, built.stdout + built.stderr
    wheels = [p.name for p in (tmp_path / "wheels").iterdir()]
    assert wheels == ["cardroom-0.1.0-py3-none-any.whl"], wheels  # pure: for any platform
    site = tmp_path / "site"
    shutil.unpack_archive(tmp_path / "wheels" / wheels[0], site, "zip")  # what pip does with a pure wheel
    assert not list(site.rglob("*.so"))
    run_env = {**os.environ, "PYTHONPATH": str(site), "COLUMNS": "200"}
    run_env.pop("CARDROOM_ENGINE", None)
    shown = subprocess.run([sys.executable, "-m", "cardroom.cli.main", "--version"], capture_output=True,
                           text=True, env=run_env, timeout=60, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == ("cardroom 0.1.0 (native core not built (installed with CARDROOM_PURE=1, or where "
                            "no C++17 compiler was found), games run on python)\n"), shown.stdout
    played = subprocess.run([sys.executable, "-c", PLAYS_ON], capture_output=True, text=True, env=run_env,
                            timeout=60, cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    where, available, states = json.loads(played.stdout)
    assert Path(where).is_relative_to(site), where  # the pure install, not the test's own
    assert available is False
    assert states == {"baha": "cardroom.games.baha.state", "baebae": "cardroom.games.baebae.state"}
