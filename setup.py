"""Build Cardroom: the rules engine's hot modules compiled with mypyc where a C compiler is at hand.

The metadata is in pyproject.toml; this file only adds the compiled modules. The source stays
one set of Python files: mypyc compiles those same files, and the plain modules are the
fallback. ``CARDROOM_PURE=1`` at install time skips compilation; a failed compilation falls back
to the plain modules with a one-line message instead of failing the install.
"""

from __future__ import annotations

import os
import runpy
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The module list lives in the package (cardroom.compiled, plain standard library), so the
# run-time report of what is compiled and this build agree.
MODULES: list[str] = runpy.run_path(os.path.join("src", "cardroom", "compiled.py"))["MODULES"]
COMPILED = [os.path.join("src", *name.split(".")) + ".py" for name in MODULES]


def _say(message: str) -> None:
    print(f"cardroom: {message}", file=sys.stderr, flush=True)


def _compiled_modules() -> list[Any]:
    if os.environ.get("CARDROOM_PURE", "") not in ("", "0"):
        _say("CARDROOM_PURE is set: installing the plain Python engine, nothing compiled")
        return []
    try:
        from mypyc.build import mypycify

        # The build's type check runs before the project's requirements are installed (pip
        # builds first): a module the compiled ones reach but cannot find here is typed Any, and
        # the modules left plain are read for their types only (make lint checks them whole).
        options = ["--ignore-missing-imports", "--follow-imports=silent"]
        return list(mypycify([*options, *COMPILED], opt_level="3"))
    except (Exception, SystemExit) as error:  # mypyc missing, or refusing a module (it exits): the
        # plain modules still work
        _say(f"the engine is not compiled ({type(error).__name__}: {error}); using plain Python")
        return []


class BuildExt(build_ext):
    """build_ext that falls back to the plain modules when the C build fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler, a compiler error: the plain modules still work
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)
            _say(f"the engine is not compiled ({type(error).__name__}: {error}); using plain Python")


setup(ext_modules=_compiled_modules(), cmdclass={"build_ext": BuildExt})
