"""Build Cardroom: the native engine (``cardroom.native._core``) where a C++17 compiler is at hand.

The metadata is in pyproject.toml; this file only adds the native extension, C++17 through
pybind11 from the sources in ``native/`` (``module.cpp`` and the headers under
``native/cardroom/``, those of ``native/cardroom/generated/`` written from each game's field
table by ``python -m cardroom.games.fieldgen``). Where it cannot be built (no C++ compiler, a
compiler error, pybind11 missing from a build without isolation) the install says so in one line
and the Python engine, the readable reference, serves alone; ``CARDROOM_PURE=1`` at install time
builds nothing, the same pure install on purpose. ``cardroom --version`` tells which engine is there.
"""

from __future__ import annotations

import glob
import os
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

NATIVE = "cardroom.native._core"
PURE_VARIABLE = "CARDROOM_PURE"


def _say(message: str) -> None:
    print(f"cardroom: {message}", file=sys.stderr, flush=True)


def _native_modules() -> list[Any]:
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        _say(f"{PURE_VARIABLE} is set: the native engine is not built; the Python engine serves alone")
        return []
    try:
        from pybind11.setup_helpers import Pybind11Extension
    except ImportError as error:  # pybind11 is a build requirement; a build without isolation may lack it
        _say(f"the native engine is not built ({error}); the Python engine serves alone")
        return []
    return [Pybind11Extension(
        NATIVE, [os.path.join("native", "module.cpp")], include_dirs=["native"], cxx_std=17,
        extra_compile_args=["-O2"],
        depends=sorted(glob.glob(os.path.join("native", "cardroom", "**", "*.hpp"), recursive=True)),
    )]


class BuildExt(build_ext):
    """build_ext whose failure leaves the pure install: no compiler, or a compiler error."""

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:  # no C++ compiler, a compiler error
            _say(f"the native engine is not built ({type(error).__name__}: {error}); "
                 "the Python engine serves alone")
            # Nothing was built: an editable install must not look for the extension to copy
            self.extensions = [e for e in self.extensions if e is not ext]


setup(ext_modules=_native_modules(), cmdclass={"build_ext": BuildExt})
