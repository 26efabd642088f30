"""Build Cardroom: the rules engine's hot modules compiled with mypyc where a C compiler is at hand.

The metadata is in pyproject.toml; this file only adds the compiled modules. The source stays
one set of Python files: mypyc compiles those same files, and the plain modules are the
fallback. ``CARDROOM_PURE=1`` at install time skips compilation (``CARDROOM_NO_MYPYC=1`` skips
mypyc alone and still builds the native engine); a failed compilation falls back
to the plain modules with a one-line message instead of failing the install.

It also builds the native engine (``cardroom.native._core``, C++17 through pybind11, from the
sources in ``native/``); where it cannot be built the install says so in one line and the
Python engine serves alone (``cardroom --version`` tells which is there).
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
    if os.environ.get("CARDROOM_NO_MYPYC", "") not in ("", "0"):  # the native engine alone: a
        # quicker build while the C++ is worked on
        _say("CARDROOM_NO_MYPYC is set: the Python modules stay plain; the native engine is built")
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


NATIVE = "cardroom.native._core"


def _native_modules() -> list[Any]:
    if os.environ.get("CARDROOM_PURE", "") not in ("", "0"):
        return []
    try:
        from pybind11.setup_helpers import Pybind11Extension
    except ImportError as error:  # pybind11 is a build requirement; a build without isolation may lack it
        _say(f"the native engine is not built ({error}); the Python engine serves alone")
        return []
    return [Pybind11Extension(
        NATIVE, [os.path.join("native", "module.cpp")], include_dirs=["native"], cxx_std=17,
        extra_compile_args=["-O2"],
    )]


class BuildExt(build_ext):
    """build_ext that falls back to the plain modules when the C build fails."""

    def build_extension(self, ext: Any) -> None:
        if ext.name != NATIVE:
            super().build_extension(ext)
            return
        try:  # the native engine alone: its failure leaves the compiled modules be
            super().build_extension(ext)
        except Exception as error:  # no C++ compiler, a compiler error
            _say(f"the native engine is not built ({type(error).__name__}: {error}); "
                 "the Python engine serves alone")

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler, a compiler error: the plain modules still work
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)
            _say(f"the engine is not compiled ({type(error).__name__}: {error}); using plain Python")


setup(ext_modules=[*_compiled_modules(), *_native_modules()], cmdclass={"build_ext": BuildExt})
