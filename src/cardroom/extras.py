"""Cardroom's optional packages: the extra (pyproject.toml) that installs each, and the words
for one that is missing.

The core install (``pip install cardroom``) plays and simulates; tables, the web, learning and
OpenSpiel come with extras. A module that needs one imports it through :func:`needs_extra`, so
that an install without it says which extra to add, as the ``cardroom`` command does:

>>> err = ModuleNotFoundError("No module named 'pyarrow'", name="pyarrow")
>>> print(needs_extra(err, "table_games"))
table_games needs the package pyarrow, which is not installed: it comes with Cardroom's results
extra (pip install 'cardroom[results]', or make designer or make research in a clone of Cardroom)
"""

from __future__ import annotations

__all__ = ["EXTRA_OF", "MAKE_TARGETS", "missing_extra", "needs_extra"]

EXTRA_OF: dict[str, str] = {
    "fastapi": "web", "uvicorn": "web", "sqlalchemy": "web", "python_multipart": "web", "multipart": "web",
    "argon2": "web", "openskill": "web",
    "pyarrow": "results", "ray": "ray", "polars": "analysis", "matplotlib": "analysis", "scipy": "analysis",
    "optuna": "analysis", "tomlkit": "analysis",
    "numpy": "rl", "gymnasium": "rl", "pettingzoo": "rl", "pyspiel": "openspiel", "open_spiel": "openspiel",
    "torch": "train", "stable_baselines3": "train", "sb3_contrib": "train",
    "alembic": "web", "prometheus_client": "web", "psycopg": "postgres", "redis": "cluster",
}
"""The extra that installs each optional package, by the name it is imported by: the core
install has none of them."""

MAKE_TARGETS: dict[str, tuple[str, ...]] = {
    "web": ("play",), "results": ("designer", "research"), "analysis": ("designer",), "ray": ("designer",),
    "rl": ("research",), "openspiel": ("research",), "train": ("research",), "postgres": ("install",),
    "cluster": ("install",),
}
"""The ``make`` targets of a clone of Cardroom that install each extra."""


def missing_extra(err: ModuleNotFoundError) -> tuple[str, str] | None:
    """The package ``err`` did not find and the extra that installs it, or ``None`` (not an
    extra's: a module Cardroom lacks is a bug, not a choice of install)."""
    package = (err.name or "").partition(".")[0]
    return (package, EXTRA_OF[package]) if package in EXTRA_OF else None


def needs_extra(err: ModuleNotFoundError, what: str) -> ModuleNotFoundError:
    """``err`` again, its message naming the extra to install for ``what`` (a command, a
    function, a module): raise it ``from None`` where an optional package is imported. Its
    ``name`` stays the package's. An error for a module no extra installs comes back as it was."""
    missing = missing_extra(err)
    if missing is None:
        return err
    package, extra = missing
    targets = " or ".join(f"make {target}" for target in MAKE_TARGETS.get(extra, ()))
    clone = f", or {targets} in a clone of Cardroom" if targets else ""
    return ModuleNotFoundError(
        f"{what} needs the package {package}, which is not installed: it comes with Cardroom's "
        f"{extra} extra (pip install 'cardroom[{extra}]'{clone})",
        name=err.name, path=err.path,
    )
