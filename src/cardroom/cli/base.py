"""What every ``cardroom`` command is made with: the command and group classes that shape its
help and refusals, and :func:`guard`, which tells bad input as one line and exit status 2."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from rich.markup import escape

# Typer carries its own Click (pinned < 0.30); its help and usage are shaped through it.
from typer._click.core import Context, Parameter
from typer._click.exceptions import NoSuchOption
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from cardroom import games
from cardroom.cli.consoles import make_console
from cardroom.engine import CardroomInputError
from cardroom.extras import missing_extra, needs_extra
from cardroom.text import shorten

__all__ = ["Command", "Group", "guard", "titles"]


class _NamedArgument(TyperArgument):
    """An argument shown in help by its metavar alone (``FILE``), not its Python type."""

    def display_type_rich(self, ctx: Context) -> str | None:
        return None


def _readable(params: list[Parameter]) -> list[Parameter]:
    """Parameters as help shows them to people: a flag takes no value (no ``<bool>``), an
    argument is its metavar (``FILE``), not its Python type."""
    for param in params:
        if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""
        elif isinstance(param, TyperArgument) and param.metavar is not None:
            param.__class__ = _NamedArgument
    return params


class Group(TyperGroup):
    """The ``cardroom`` command and its ``deck`` group, with readable help; a command that needs
    a package the install lacks names the extra to install instead of a traceback."""

    def get_params(self, ctx: Context) -> list[Parameter]:
        return _readable(super().get_params(ctx))

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except ModuleNotFoundError as err:
            if missing_extra(err) is None:
                raise
            command = f"{ctx.command_path} {ctx.invoked_subcommand or ''}".strip()
            words = str(needs_extra(err, command))
            make_console(stderr=True).print(f"[bold red]error:[/] {escape(words)}", highlight=False)
            raise typer.Exit(2) from None


class Command(TyperCommand):
    """Every ``cardroom`` command: help written for people (``cardroom replay [OPTIONS] FILE...``,
    ``--seed N``, a flag with no type), and an unknown option named with the command's options."""

    def get_params(self, ctx: Context) -> list[Parameter]:
        return _readable(super().get_params(ctx))

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                name = param.metavar or (param.name or "").upper()
                pieces.append((name if param.required else f"[{name}]") + ("..." if param.nargs != 1 else ""))
        return pieces

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except NoSuchOption as err:
            options = [o for p in self.get_params(ctx) if isinstance(p, TyperOption) for o in p.opts
                       if o.startswith("--")]
            guess = f" Did you mean {' or '.join(sorted(err.possibilities))}?" if err.possibilities else ""
            ctx.fail(f"{err.option_name} is not an option of cardroom {ctx.info_name}.{guess} "
                     f"Its options: {', '.join(options)}.")



def titles() -> str:
    """The registered games' titles in running text: "Baha and BAEBAE"."""
    titles = [spec.title for spec in games.specs()]
    return titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]


@contextmanager
def guard() -> Iterator[None]:
    """Bad input (a :class:`~cardroom.engine.CardroomInputError`: a person's mistake, not a
    program's) becomes one clear line on stderr and exit status 2, never a traceback."""
    try:
        yield
    except CardroomInputError as err:
        make_console(stderr=True).print(f"[bold red]error:[/] {escape(str(err))}", highlight=False)
        raise typer.Exit(2) from None
    except OSError as err:  # a path the system refuses (too long, not allowed) wherever it was met
        where = f" {shorten(str(err.filename))!r}" if err.filename else ""
        make_console(stderr=True).print(f"[bold red]error:[/] cannot use{escape(where)}: "
                                        f"{escape(err.strerror or str(err))}", highlight=False)
        raise typer.Exit(2) from None
