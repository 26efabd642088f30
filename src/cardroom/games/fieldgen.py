"""A state's fields declared once: a table from which its slots, constructor, clone, pickle and
native binding follow.

A game's state keeps a few dozen fields. Written by hand, each is named four times in Python
(its annotation, the slots, the factory that fills it, ``clone``) and, for a game with a native
core, in eight more places of C++, Python and the stubs (the game struct's member, its getter
and its entry in the getter table, the load's parameter and its line, the reference's dump and
the call that loads a world, ``_core.pyi``).
Instead each game writes one table of :class:`Field` (``games/<game>/fields.py``: name, type,
how a clone copies it, its native form, a note), and :func:`generate` writes from it:

- the state's base class (``games/<game>/state_base.py``): the annotations and ``__slots__``,
  the constructor, ``copy_into`` (every field of ``clone``, one plain assignment each: as fast
  as the hand-written clone it replaces), the values pickling carries; and, for a game with a
  native core, the native face's annotations (``<Game>NativeFields``) and
  ``native_values(state)``, every field read by name from a native state: the reference
  position the native face makes (:meth:`~cardroom.games.baha.native.NativeBahaState.reference`);
- for a game with a native core (:class:`NativeTable`), a C++ header
  (``native/cardroom/generated/<game>_fields.hpp``, :func:`generate_header`) of X-macros: the
  members of the game's struct (``CARDROOM_<GAME>_GAME_MEMBERS``, expanded inside it), of the
  core beside it that holds Python objects (``..._CORE_MEMBERS``, and ``..._CORE_FIELDS(X)`` for
  its clone), and the list of every field the core holds with the codec that crosses it to Python
  (``..._FIELDS(X)``): the binding expands it into one getter a field and the load of a whole
  position from the reference state, every attribute read by name
  (``native/cardroom/fields.hpp`` holds the codecs every game shares);
- the getters' stubs in ``src/cardroom/native/_core.pyi``, between the markers
  ``# fields of <Core>: generated`` and ``# end of the generated fields`` (:func:`generate_stubs`).

A field's native form (:attr:`Field.native`) is a kind of :data:`KINDS` (``"int"``,
``"seat"``, ``"masks"``...), a :class:`Native` for one the game crosses by a codec of its own
(its members declared in the table too), ``"face"`` for one the native state's Python face holds
itself (``rules``, ``seed``...), or ``""`` for one the native engine does not keep: a cache,
fresh (its ``copy`` expression) in the reference position.

Every generated file is checked in, and ``tests/test_state_fields.py`` fails when one differs
from what its table generates; after editing a table, run ``python -m cardroom.games.fieldgen``
to write every game's files again (``--check`` only compares), then rebuild the native core
(``setup.py build_ext --inplace``, or ``make install``, whose engine sources include the
generated headers). Adding a field is its line in the table and the rule code that uses it, in
Python and in C++; nothing else is written by hand.
"""

from __future__ import annotations

import importlib
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "Field", "KINDS", "Native", "NativeTable", "StateTable", "generate", "generate_header", "generate_stubs",
    "GAMES", "main",
]

GAMES: tuple[str, ...] = ("baha", "baebae")
"""The built-in games whose state is made from a field table."""


@dataclass(frozen=True)
class Native:
    """How the native core holds a field and crosses it to Python.

    ``codec`` is the C++ type whose ``get(value, context)`` makes the Python value and
    ``load(value, python, context)`` sets it from the reference state's attribute
    (``native/cardroom/fields.hpp`` has the shared ones; a game's binding may add its own);
    ``members`` the C++ declarations the field needs (``{name}`` is the field's name); ``pyi``
    the getter's type in ``_core.pyi``; ``core`` whether the core beside the game holds it (a
    Python object: the log) rather than the game's struct; ``whole`` whether the codec takes
    the whole game (a field kept in several members; the whole core for a ``core`` one) rather
    than its one member; ``getter``
    the getter's name (the field's own by default); ``values`` for a ``Code``, the native
    state's class attribute listing the Python values in code order (``"PHASES"``).

    ``layout`` places the members in the struct: the small scalars first (0), then the arrays of
    one value a seat (1), the masks (2) and the game's own runs (3, a codec of its own), each
    group in the table's order. The hot loop copies and walks the struct at every move: this is
    the order it was measured in (another costs a few instructions an action, callgrind says)."""

    codec: str
    members: str
    pyi: str
    core: bool = False
    whole: bool = False
    getter: str = ""
    values: str = ""
    layout: int = 3


KINDS: dict[str, Native] = {
    "int": Native("Int", "int {name} = 0;", "int", layout=0),
    "int64": Native("Int", "int64_t {name} = 0;", "int", layout=0),
    "seat": Native("Seat", "int {name} = -1; /* -1: None */", "int | None", layout=0),
    "flag": Native("Flag", "bool {name} = false;", "bool", layout=0),
    "mask": Native("Int", "uint64_t {name} = 0;", "int", layout=2),
    "masks": Native("PerSeat", "uint64_t {name}[MAX_PLAYERS] = {{0}};", "list[int]", layout=1),
    "ints": Native("PerSeat", "int {name}[MAX_PLAYERS] = {{0}};", "list[int]", layout=1),
    "int64s": Native("PerSeat", "int64_t {name}[MAX_PLAYERS] = {{0}};", "list[int]", layout=1),
    "intlist": Native("Vector", "std::vector<int> {name};", "list[int]", layout=1),
    "int64list": Native("Vector", "std::vector<int64_t> {name};", "list[int]", layout=1),
    "list": Native("List", "pybind11::list {name};", "", core=True),
    "index": Native("Index", "Py_ssize_t {name} = 0;", "int", core=True),
}
"""The native forms a field may name by a word: a whole number (``int``, ``int64``), a seat or
``None`` (``seat``, -1 in C++), a bool (``flag``), a card mask (``mask``), one value a seat
(``masks``, ``ints``, ``int64s``: arrays of ``MAX_PLAYERS``, the table's ``n`` of them read), a
list of whole numbers of any length (``intlist``, ``int64list``: a ``std::vector``), and
what the core keeps beside the game as Python objects: a list (``list``, shared with the caller,
the log) and a list index (``index``). A ``list``'s stub type is the field's own."""

FACE = "face"
"""The native form of a field the native state's Python face holds itself (rules, seed...)."""


@dataclass(frozen=True)
class Field:
    """One field of a state.

    ``copy`` says what ``clone`` gives the copy: ``"same"`` (the value itself: ints, frozen
    values, and what is never changed in place), ``"list"`` (a shallow copy, ``x[:]``), or a
    Python expression in ``self`` (``"{}"``, ``"None"``, ``"[f.copy() for f in self.frames]"``).
    ``init`` makes it a constructor's field: the expression it is set from (``"rules"``,
    ``"rules.players"``); ``pickle`` an expression pickling carries instead of the value (a cache
    left behind). ``note`` is the comment beside the annotation. ``native`` is its form on the
    native core (a word of :data:`KINDS`, a :class:`Native`, :data:`FACE`, or ``""``: not kept
    there, a cache), read only for a table with a :class:`NativeTable`.
    """

    name: str
    type: str
    copy: str = "same"
    init: str | None = None
    pickle: str | None = None
    note: str = ""
    native: str | Native = ""

    def native_form(self) -> Native | None:
        """The field's :class:`Native` (``None`` for a face's field or one the core does not keep)."""
        if isinstance(self.native, Native):
            return self.native
        return KINDS.get(self.native)

    def copied(self) -> str:
        if self.copy == "same":
            return f"self.{self.name}"
        if self.copy == "list":
            return f"self.{self.name}[:]"
        return self.copy


@dataclass(frozen=True)
class NativeTable:
    """What a game's native binding is made of: ``game`` names the C++ struct whose members the
    table declares (``baha::Game``), ``core`` the Python type of the native state (its stubs'
    class in ``_core.pyi``), ``header`` the generated header's file name and ``macro`` its
    macros' prefix (``CARDROOM_BAHA``); ``grouped`` whether the struct's members are grouped by
    :attr:`Native.layout` (else in the table's order: the order each game's hot loop was measured
    in)."""

    game: str
    core: str
    header: str
    macro: str
    grouped: bool = True


@dataclass(frozen=True)
class StateTable:
    """A state's fields and what its generated base class needs: its name and docstring, the
    imports its annotations use, and what the constructor says to a caller without the key;
    ``native`` for a game with a native core."""

    base: str
    doc: str
    imports: tuple[str, ...]
    refusal: str
    fields: tuple[Field, ...]
    native: NativeTable | None = None

    def __post_init__(self) -> None:
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.base}: a field is declared twice in {names}")
        first = self.fields[:2]
        if [f.name for f in first] != ["rules", "seed"] or None in [f.init for f in first]:
            raise ValueError(f"{self.base}: the table begins with the constructor's rules and seed")
        if self.native is None:
            return
        for f in self.fields:
            if isinstance(f.native, str) and f.native not in (*KINDS, FACE, ""):
                raise ValueError(f"{self.base}: field {f.name}'s native form {f.native!r} is none of "
                                 f"{', '.join(KINDS)}, {FACE!r}, '' (a cache) or a Native")


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
        f'__all__ = ["FIELDS", "MAKER", "{table.base}"'
        + (f', "NATIVE_FACE", "{_native_base(table)}", "native_values"' if table.native is not None else "")
        + "]",
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
    if table.native is not None:
        lines += _native_python(table)
    return "\n".join(lines)


def _state_name(table: StateTable) -> str:
    return table.base.removesuffix("Fields") + "State"


def _native_base(table: StateTable) -> str:
    return table.base.removesuffix("Fields") + "NativeFields"


def _getter(f: Field, native: Native) -> str:
    return native.getter or f.name


def _fresh(f: Field) -> bool:
    """Whether ``f``'s copy is a fresh value (a cache's: ``{}``, ``None``), not one read from a state."""
    return f.copy not in ("same", "list") and "self" not in f.copy


def _stub_type(f: Field, native: Native | None) -> str:
    return f.type if native is None or not native.pyi else native.pyi


def _native_python(table: StateTable) -> list[str]:
    """The native face's annotations and ``native_values``, for a table with a native core."""
    lines = [
        "",
        f"class {_native_base(table)}:",
        '    """What a native state holds of these fields, as its getters give them (the type checker\'s',
        "    view of the core type, which a game's native state subclasses); no slots of its own.\"\"\"",
        "",
        "    __slots__ = ()",
        "",
    ]
    values = []
    for f in table.fields:
        native = f.native_form()
        if native is None and f.native == "" and _fresh(f):
            values.append(f.copy)  # a cache the core does not keep: fresh, as a clone starts it
            continue
        name = f.name if native is None else _getter(f, native)
        lines.append(f"    {name}: {_stub_type(f, native)}")
        if native is not None and native.values:
            values.append(f"native.{native.values}[native.{name}]")
        elif native is not None and native.codec == "List":
            values.append(f"native.{name}[:]")  # the core's own list: the reference's a copy
        else:
            values.append(f"native.{name}")  # the face's value, or a new one the getter made
    face = ", ".join(f'"{f.name}"' for f in table.fields if f.native == FACE)
    lines += [
        "",
        "",
        f"NATIVE_FACE: Final = ({face}{',' if face.count(',') == 0 else ''})",
        '"""The fields a native state\'s Python face holds itself (the core holds the rest, or none)."""',
        "",
        "",
        "def native_values(native: Any) -> list[Any]:",
        '    """Every field of a native state, in :data:`FIELDS` order, read by name from its getters:',
        "    the values of the Python position it stands for (a new list each, a fresh cache),",
        f'    as ``{table.base}.unpickled`` takes them."""',
        "    return [",
        *(f"        {v}," for v in values),
        "    ]",
        "",
    ]
    return lines


def _c_text(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def generate_header(table: StateTable, module: str) -> str:
    """The C++ header of ``table``'s native binding (see the module's docstring)."""
    native = table.native
    if native is None:
        raise ValueError(f"{table.base} has no native core")
    state = _state_name(table)
    game_members: list[tuple[int, int, str]] = []  # (layout, place, declaration)
    core_members: list[str] = []
    fields: list[str] = []
    core_fields: list[str] = []
    for f in table.fields:
        form = f.native_form()
        if f.native == "" and not _fresh(f):
            raise ValueError(
                f"{table.base}: field {f.name} has no native form, so the native core does not keep it: "
                f"only a cache its copy starts afresh ('{{}}', 'None') may, not {f.copy!r}; give it one of "
                f"{', '.join(KINDS)}, {FACE!r} or a Native")
        if form is None:
            continue
        members = [m.strip() for m in form.members.format(name=f.name).split("\n") if m.strip()]
        if form.core:
            core_members.extend(members)
        else:
            place = len(game_members)
            layout = form.layout if native.grouped else 0
            game_members.extend((layout, place + i, m) for i, m in enumerate(members))
        holder = "c" if form.core else "g"
        value = holder if form.whole else f"{holder}.{f.name}"
        doc = f"{state}.{f.name}" + (f": {f.note}" if f.note else "")
        getter, values = _getter(f, form), form.values
        fields.append(f'X({f.name}, "{getter}", {form.codec}, {value}, "{values}", {_c_text(doc)})')
        if form.core and members:
            core_fields.append(f"X({f.name}, {form.codec})")

    def macro(name: str, body: list[str]) -> list[str]:
        if not body:
            return [f"#define {name}"]
        return [f"#define {name} \\", *(f"    {line} \\" for line in body[:-1]), f"    {body[-1]}"]

    m = native.macro
    lines = [
        f"// Every field of a {state} the native core holds, declared in {module}.",
        "// Generated by python -m cardroom.games.fieldgen: edit the table, not this file.",
        "#pragma once",
        "",
        f"// The members of {native.game} (expanded inside the struct), in the table's order"
        + (" by layout" if native.grouped else ""),
        *(["// (fieldgen.Native.layout): the scalars, the arrays a seat, the masks, the game's own runs."]
          if native.grouped else []),
        *macro(f"{m}_GAME_MEMBERS", [member for _, _, member in sorted(game_members)]),
        "",
        "// The members of the core beside the game, Python objects (expanded inside it).",
        *macro(f"{m}_CORE_MEMBERS", core_members),
        "",
        "// X(name, codec) for each of the core's members (its clone copies each by the codec).",
        *macro(f"{m}_CORE_FIELDS(X)", core_fields),
        "",
        "// X(name, getter, codec, value, values, doc) for every field the core holds: the getter's",
        "// name, the codec that crosses it to Python (native/cardroom/fields.hpp, or the game's own),",
        "// its member(s) (g: the game, c: the core beside it), the native state's class attribute of",
        "// a code's Python values, the getter's doc. The binding expands it into the getters and the",
        "// load of a whole position from the reference state, each attribute read by name.",
        *macro(f"{m}_FIELDS(X)", fields),
        "",
    ]
    return "\n".join(lines)


STUB_BEGIN = "    # fields of {core}: generated from {module} (python -m cardroom.games.fieldgen)"
STUB_END = "    # end of the generated fields"


def generate_stubs(table: StateTable, module: str, text: str) -> str:
    """``text`` (``_core.pyi``) with the stubs of ``table``'s getters between their markers."""
    native = table.native
    if native is None:
        raise ValueError(f"{table.base} has no native core")
    begin = STUB_BEGIN.format(core=native.core, module=module)
    head, found, rest = text.partition(begin + "\n")
    _, ended, tail = rest.partition(STUB_END + "\n")
    if not found or not ended:
        raise ValueError(f"_core.pyi lacks the markers of {native.core}'s fields: {begin!r} ... {STUB_END!r}")
    stubs = []
    for f in table.fields:
        form = f.native_form()
        if form is not None:
            stubs.append(f"    {_getter(f, form)}: {_stub_type(f, form)}\n")
    return head + begin + "\n" + "".join(stubs) + STUB_END + "\n" + tail


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


SOURCE = Path(__file__).resolve().parents[3]
"""The source tree (``native/`` and ``src/``): the generated header and stubs are written there."""
STUBS = SOURCE / "src" / "cardroom" / "native" / "_core.pyi"


def header_path(table: StateTable) -> Path:
    """Where a table's generated header is (``native/cardroom/generated/``)."""
    assert table.native is not None
    return SOURCE / "native" / "cardroom" / "generated" / table.native.header


def generated(game: str, stubs: str) -> list[tuple[Path, str]]:
    """Every file a built-in game's table makes, with its text (``stubs``: ``_core.pyi``'s
    text, its other games' blocks as they are)."""
    table, module, path = paths(game)
    made = [(path, generate(table, module))]
    if table.native is not None:
        fields = module.rsplit(".", 1)[0] + ".fields"
        made.append((header_path(table), generate_header(table, fields)))
        made.append((STUBS, generate_stubs(table, fields, stubs)))
    return made


def main(argv: list[str] | None = None) -> int:
    """Write every built-in game's generated files from its table; ``--check`` only compares."""
    check = "--check" in (argv if argv is not None else sys.argv[1:])
    stale = []
    for game in GAMES:
        for path, text in generated(game, STUBS.read_text()):
            if path.exists() and path.read_text() == text:
                continue
            stale.append(str(path))
            if not check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
    if stale:
        print(("stale: " if check else "written: ") + ", ".join(stale))
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
