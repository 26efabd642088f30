"""The one place the ``cardroom`` command makes its Rich consoles."""

from __future__ import annotations

from rich.console import Console

__all__ = ["make_console"]


def make_console(*, stderr: bool = False) -> Console:
    """A console for standard output (or error). On a terminal Rich wraps lines to its width;
    piped into another program a line stays one line, so ``grep`` and friends see it whole.
    Tables and rules still lay out at Rich's default width there.
    """
    out = Console(stderr=stderr)
    out.soft_wrap = not out.is_terminal
    return out
