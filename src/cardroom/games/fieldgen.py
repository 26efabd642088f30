"""A state's fields declared once: a table from which its slots, constructor, clone and pickle follow.

A game's state keeps a few dozen fields. Written by hand, each is named four times (its
annotation, the slots, the factory that fills it, ``clone``), and a field forgotten in
``clone`` is a bug that only a search bot finds. Instead each game writes one table of
:class:`Field` (``games/<game>/fields.py``: name, type, how a clone copies it, a note), and
:func:`generate` writes from it the state's base class (``games/<game>/state_base.py``): the
annotations and ``__slots__``, the constructor, ``copy_into`` (every field of ``clone``, one
plain assignment each: as fast as the hand-written clone it replaces) and the values pickling
carries.

The generated module is checked in and
``tests/test_state_fields.py`` fails when it differs from what its table generates; after
editing a table, run ``python -m cardroom.games.fieldgen`` to write every game's base again.
"""

from __future__ import annotations

import importlib
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Field", "StateTable", "generate", "GAMES", "main"]

GAMES: tuple[str, ...] = ("baha", "baebae")
"""The built-in games whose state is made from a field table."""


@dataclass(frozen=True)
class Field:
    """One field of a state.

    ``copy`` says what ``clone`` gives the copy: ``"same"`` (the value itself: ints, frozen
    values, and what is never changed in place), ``"list"`` (a shallow copy, ``x[:]``), or a
    Python expression in ``self`` (``"{}"``, ``"None"``, ``"[f.copy() for f in self.frames]"``).
    ``init`` makes it a constructor's field: the expression it is set from (``"rules"``,
    ``"rules.players"``); ``pickle`` an expression pickling carries instead of the value (a cache
    left behind). ``note`` is the comment beside the annotation.
    """

    name: str
    type: str
    copy: str = "same"
    init: str | None = None
    pickle: str | None = None
    note: str = ""

    def copied(self) -> str:
        if self.copy == "same":
            return f"self.{self.name}"
        if self.copy == "list":
            return f"self.{self.name}[:]"
        return self.copy


@dataclass(frozen=True)
class StateTable:
    """A state's fields and what its generated base class needs: its name and docstring, the
    imports its annotations use, and what the constructor says to a caller without the key."""

    base: str
    doc: str
    imports: tuple[str, ...]
    refusal: str
    fields: tuple[Field, ...]

    def __post_init__(self) -> None:
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.base}: a field is declared twice in {names}")
        first = self.fields[:2]
        if [f.name for f in first] != ["rules", "seed"] or None in [f.init for f in first]:
            raise ValueError(f"{self.base}: the table begins with the constructor's rules and seed")


def generate(table: StateTable, module: str) -> str:
    """The source of the base class of ``table`` (written as ``module``)."""
    names = ", ".join(f'"{f.name}"' for f in table.fields)
    lines = [
        f'"""{table.doc}',
        "",
        f"Generated from :mod:`{module.rsplit('.', 1)[0]}.fields` by ``python -m cardroom.games.fieldgen``:",
        'edit the table, not this file."""',
        "",
        "from __future__ import annotations",
        "",
        *table.imports,
        "",
        f'__all__ = ["FIELDS", "MAKER", "{table.base}"]',
        "",
        "MAKER: Final = object()",
        f'"""The key only the state\'s own factories hold to make one (see ``{table.base}.__init__``)."""',
        "",
        "FIELDS: Final = (",
        *_wrapped(names, "    "),
        ")",
        '"""Every field of the state: its slots, and what pickling carries."""',
        "",
        "",
        f"class {table.base}:",
        '    """The state\'s fields (one line of the table each), the copy ``clone`` makes, what pickles."""',
        "",
        "    __slots__ = FIELDS",
        "",
    ]
    for f in table.fields:
        line = f"    {f.name}: {f.type}" + (f"  # {f.note}" if f.note else "")
        if len(line) > 110:  # the note on lines of its own
            notes = textwrap.wrap(f.note, 100, initial_indent="    # ", subsequent_indent="    # ")
            line = "\n".join([*notes, f"    {f.name}: {f.type}"])
        lines.append(line)
    init = [f for f in table.fields if f.init is not None]
    lines += [
        "",
        "    def __init__(self, rules: Rules, seed: int, key: object) -> None:",
        "        # Only the state's factories (start, clone, unpickling) make states and fill in the",
        "        # rest, with the key only they hold.",
        "        if key is not MAKER:",
        f'            raise TypeError("{table.refusal}")',
        *(f"        self.{f.name} = {f.init}" for f in init),
        "",
        f"    def copy_into(self, other: {table.base}) -> None:",
        '        """Give ``other`` (made with this state\'s rules and seed) a copy of every other field."""',
        *(f"        other.{f.name} = {f.copied()}" for f in table.fields if f.init is None),
        "",
        "    def pickled(self) -> list[Any]:",
        '        """The value of every field, in :data:`FIELDS` order, as pickling carries it."""',
        "        return [",
        *(f"            {f.pickle if f.pickle is not None else 'self.' + f.name}," for f in table.fields),
        "        ]",
        "",
        "    def unpickled(self, values: list[Any]) -> None:",
        '        """Set every field from :meth:`pickled`\'s values."""',
        "        for name, value in zip(FIELDS, values, strict=True):",
        "            setattr(self, name, value)",
        "",
    ]
    return "\n".join(lines)


def _wrapped(items: str, indent: str, width: int = 100) -> list[str]:
    out, line = [], indent
    for item in items.split(", "):
        if len(line) + len(item) + 2 > width and line.strip():
            out.append(line.rstrip())
            line = indent
        line += item + ", "
    out.append(line.rstrip())
    return out


def paths(game: str) -> tuple[StateTable, str, Path]:
    """A built-in game's table, its base module's name and its file."""
    table: StateTable = importlib.import_module(f"cardroom.games.{game}.fields").TABLE
    module = f"cardroom.games.{game}.state_base"
    return table, module, Path(__file__).resolve().parent / game / "state_base.py"


def main(argv: list[str] | None = None) -> int:
    """Write every built-in game's base class from its table; ``--check`` only compares."""
    check = "--check" in (argv if argv is not None else sys.argv[1:])
    stale = []
    for game in GAMES:
        table, module, path = paths(game)
        text = generate(table, module)
        if path.exists() and path.read_text() == text:
            continue
        stale.append(str(path))
        if not check:
            path.write_text(text)
    if stale:
        print(("stale: " if check else "written: ") + ", ".join(stale))
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
