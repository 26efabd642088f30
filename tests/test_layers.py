"""The layering of docs/architecture.md, enforced: ``cards, text <- engine <- games <- agents <-
match, record <- the fronts``, read from the import statements of every module of ``src``.

- no module imports one of a higher layer (the games import no front, no agent, no match);
- outside ``cardroom.games``, only a game's adapter files (:data:`ADAPTERS`) import a game's
  package: the fronts reach a game through its spec;
- no two modules import each other (directly or around a longer circle); the one edge allowed
  against the grain is a game's rules class making its state in ``new_game``
  (:data:`FACTORIES`, a function-local import);
- no module imports a private name (``_x``) of another, nor reads one off another module's
  object (``state._advance()``): inside a game, the state's other modules (its interpreter,
  codec, views, determinize) call only the engine's State protocol and the moves its package
  declares in ``games/<game>/interface.py`` (:func:`interface_breaks`).

The checks are plain functions of a module map, so the tests below also show them failing on
a map with a violation.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("cardroom", "cardroom.text", "cardroom.cards"),
    ("cardroom.engine",),
    ("cardroom.games", "cardroom.native"),
    ("cardroom.agents",),
    ("cardroom.match", "cardroom.record"),
    ("cardroom.sim", "cardroom.analysis", "cardroom.cli", "cardroom.web", "cardroom.rl", "cardroom.openspiel"),
)
"""The layers, lowest first: a module may import its own layer and those below."""

ADAPTERS = frozenset({
    "cardroom.agents.baha_heuristic", "cardroom.agents.baebae_heuristic",
    "cardroom.cli.play.baha", "cardroom.cli.play.baebae", "cardroom.cli.play.baebae_narration",
    "cardroom.analysis.games.baha", "cardroom.analysis.games.baebae",
    "cardroom.analysis.games.baebae_compare", "cardroom.analysis.games.baebae_designs",
})
"""The per-game adapter files of the fronts (a spec names each): the only modules outside
``cardroom.games`` that import a game's package."""

FACTORIES = frozenset({
    ("cardroom.games.baha.rules", "cardroom.games.baha.state"),
    ("cardroom.games.baebae.rules", "cardroom.games.baebae.state"),
    ("cardroom.games.baha.rules", "cardroom.games.baha.native"),
    ("cardroom.games.baebae.rules", "cardroom.games.baebae.native"),
})
"""Function-local imports allowed against a module's own imports: ``Rules.new_game`` makes the state
(on the engine chosen: a game's native state is its package's ``native`` module)."""

GAMES = "cardroom.games"


@dataclass(frozen=True)
class Import:
    source: str
    target: str
    name: str | None
    """The name imported from ``target`` when it is not a module itself."""
    line: int
    local: bool
    """Inside a function: run when called, not when the module is imported."""


def module_names(src: Path) -> dict[str, Path]:
    names = {}
    for path in src.rglob("*.py"):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def imports_of(module: str, tree: ast.AST, modules: Iterable[str]) -> list[Import]:
    """The ``cardroom`` imports of ``module`` run at import time or in functions (not those
    under ``if TYPE_CHECKING``)."""
    known = set(modules)
    skipped: set[int] = set()
    local: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for n in ast.walk(node))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            local.update(id(n) for n in ast.walk(node) if n is not node)

    def owner(name: str) -> str:
        while name not in known and "." in name:
            name = name.rsplit(".", 1)[0]
        return name

    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        pairs: list[tuple[str, str | None]] = []
        if isinstance(node, ast.Import):
            pairs = [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            pairs = [(f"{node.module}.{a.name}", None) if f"{node.module}.{a.name}" in known else (node.module, a.name)
                     for a in node.names]
        for target, name in pairs:
            if target.split(".")[0] == "cardroom" and owner(target) != module:
                found.append(Import(module, owner(target), name, node.lineno, id(node) in local))
    return found


def module_trees(src: Path = SRC) -> dict[str, ast.Module]:
    return {module: ast.parse(path.read_text()) for module, path in module_names(src).items()}


def all_imports(src: Path = SRC) -> list[Import]:
    names = module_names(src)
    return [i for module, path in names.items() for i in imports_of(module, ast.parse(path.read_text()), names)]


def layer_of(module: str) -> int:
    best, depth = -1, -1
    for level, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and prefix.count(".") > depth:
                best, depth = level, prefix.count(".")
    return best


def game_package(module: str) -> str | None:
    """``cardroom.games.baha`` for any module of Baha's package; ``None`` outside the games'
    packages (the registry and the contracts are the games' common layer)."""
    parts = module.split(".")
    if module.startswith(GAMES + ".") and len(parts) >= 3 and parts[2] not in ("contracts", "tensor", "fieldgen"):
        return ".".join(parts[:3])
    return None


def layer_breaks(imports: Iterable[Import]) -> list[str]:
    return [f"{i.source}:{i.line} imports {i.target}, a higher layer" for i in imports
            if layer_of(i.target) > layer_of(i.source)]


def game_breaks(imports: Iterable[Import], adapters: frozenset[str] = ADAPTERS) -> list[str]:
    return [f"{i.source}:{i.line} imports {i.target}: outside the games only their adapters name a game"
            for i in imports
            if game_package(i.target) and not i.source.startswith(GAMES + ".") and i.source not in adapters]


def private_breaks(imports: Iterable[Import]) -> list[str]:
    return [f"{i.source}:{i.line} imports the private name {i.name} of {i.target}" for i in imports
            if i.name is not None and i.name.startswith("_") and not i.name.startswith("__")]


def _defined_names(tree: ast.AST) -> set[str]:
    """The names a module defines or assigns anywhere (functions, classes, attributes, slots)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
              and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            names.add(node.attr)  # its own object's (another's, ``state._x = ...``, is not defined here)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
            names.add(node.value)  # __slots__ and field tables name attributes as text
    return names


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_attribute_breaks(trees: Mapping[str, ast.AST]) -> list[str]:
    """Private attributes read off another object (``state._advance``, not ``self._x``)
    that the reading module does not define itself: another module's private names."""
    out = []
    for module, tree in trees.items():
        own = _defined_names(tree)
        # the standard library's and other packages' modules (``os._exit`` is os's public API)
        outside = {alias.asname or alias.name.split(".")[0] for node in ast.walk(tree)
                   if isinstance(node, ast.Import) for alias in node.names
                   if not alias.name.startswith("cardroom")}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls", *outside))):
                out.append(f"{module}:{node.lineno} reads the private {ast.unparse(node)} of another module")
    return out


def _members(tree: ast.AST, classes: Callable[[str], bool]) -> set[str]:
    """The methods, properties and annotated fields of the classes of ``tree`` whose names
    ``classes`` accepts."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and classes(node.name):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    out.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    out.add(item.target.id)
    return out


def _methods(tree: ast.AST, classes: Callable[[str], bool]) -> set[str]:
    return {item.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and classes(node.name)
            for item in node.body if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)}


def interface_breaks(trees: Mapping[str, ast.AST]) -> list[str]:
    """Inside each game's package, the other modules call on its state only the engine's
    ``State`` protocol and the members of the package's declared interface
    (``games/<game>/interface.py``, none when it has no such module); a class's own
    factories (``BaebaeState.start``) are the rules' to call."""
    protocol = _members(trees["cardroom.engine"], lambda name: name == "State")
    out = []
    for state_module in sorted(m for m in trees if m.startswith(GAMES + ".") and m.endswith(".state")):
        package = state_module.rsplit(".", 1)[0]
        methods = _methods(trees[state_module], lambda name: name.endswith("State"))
        declared = _members(trees.get(package + ".interface", ast.Module(body=[], type_ignores=[])), lambda _: True)
        inside = {m: tree for m, tree in trees.items() if m.startswith(package + ".") and m != state_module}
        # The check reads names, not types: a name that another class of the package also
        # declares as a field (a decision's ``card``) is that field's.
        fields = {name for tree in inside.values() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                  for item in node.body if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
                  for name in [item.target.id]}
        for module, tree in inside.items():
            for node in ast.walk(tree):
                if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                        and node.value.id not in ("self", "cls") and not node.value.id[0].isupper()
                        and node.attr in methods - fields and node.attr not in protocol | declared):
                    out.append(f"{module}:{node.lineno} calls {ast.unparse(node)}, which is not in the "
                               f"State protocol nor in {package}.interface")
    return out


def circles(imports: Iterable[Import], allowed: frozenset[tuple[str, str]] = FACTORIES) -> list[list[str]]:
    """The groups of modules that import each other (strongly connected, more than one)."""
    graph: dict[str, set[str]] = {}
    for i in imports:
        if not (i.local and (i.source, i.target) in allowed):
            graph.setdefault(i.source, set()).add(i.target)
            graph.setdefault(i.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


@pytest.fixture(scope="module")
def imports() -> list[Import]:
    return all_imports()


def test_every_module_has_a_layer(imports: list[Import]) -> None:
    assert [m for m in module_names(SRC) if layer_of(m) < 0] == []


def test_no_module_imports_a_higher_layer(imports: list[Import]) -> None:
    assert layer_breaks(imports) == []


def test_the_games_import_no_front(imports: list[Import]) -> None:
    fronts = ("sim", "analysis", "agents", "match", "cli", "web", "rl", "openspiel", "record")
    assert [i for i in imports if i.source.startswith(GAMES)
            and i.target.split(".")[1] in fronts] == []


def test_outside_the_games_only_their_adapter_files_name_a_game(imports: list[Import]) -> None:
    assert game_breaks(imports) == []


def test_no_two_modules_import_each_other(imports: list[Import]) -> None:
    assert circles(imports) == []


def test_no_module_imports_a_private_name_of_another(imports: list[Import]) -> None:
    assert private_breaks(imports) == []


def test_no_module_reads_a_private_attribute_of_another() -> None:
    assert private_attribute_breaks(module_trees()) == []


def test_a_games_modules_use_its_state_only_through_the_declared_interface() -> None:
    assert interface_breaks(module_trees()) == []


def test_the_contracts_need_only_the_standard_library_and_the_engine() -> None:
    tree = ast.parse((SRC / "cardroom/games/contracts.py").read_text())
    roots = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
             for alias in node.names}
    roots |= {node.module.split(".")[0] for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and node.module}
    inside = {node.module for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cardroom")}
    import sys

    assert roots - {"cardroom"} <= set(sys.stdlib_module_names) | {"__future__"}
    assert inside <= {"cardroom.engine"}


# -- the checks fail on a violation -----------------------------------------------------------

def _map_with(extra: Mapping[str, str], tmp_path: Path) -> list[Import]:
    """The imports of ``src`` with some modules' text replaced (a deliberate violation)."""
    names = module_names(SRC)
    out = []
    for module, path in names.items():
        text = extra.get(module, path.read_text())
        out += imports_of(module, ast.parse(text), names)
    return out


def test_a_game_importing_a_front_is_caught(tmp_path: Path) -> None:
    rules = (SRC / "cardroom/games/baha/rules.py").read_text() + "\nimport cardroom.sim.results\n"
    broken = _map_with({"cardroom.games.baha.rules": rules}, tmp_path)
    assert any("cardroom.games.baha.rules" in b and "cardroom.sim.results" in b for b in layer_breaks(broken))


def test_a_front_naming_a_game_is_caught(tmp_path: Path) -> None:
    catalog = (SRC / "cardroom/web/catalog.py").read_text() + "\nfrom cardroom.games.baebae.deck import find_deck\n"
    broken = _map_with({"cardroom.web.catalog": catalog}, tmp_path)
    assert [b for b in game_breaks(broken) if b.startswith("cardroom.web.catalog")]


def test_a_circle_and_a_private_import_are_caught(tmp_path: Path) -> None:
    engine = (SRC / "cardroom/engine.py").read_text() + "\ndef f():\n    from cardroom.cards import _PARSE\n"
    cards = (SRC / "cardroom/cards.py").read_text() + "\nimport cardroom.engine\n"
    broken = _map_with({"cardroom.engine": engine, "cardroom.cards": cards}, tmp_path)
    assert ["cardroom.cards", "cardroom.engine"] in circles(broken)
    assert any("_PARSE" in b for b in private_breaks(broken))


def test_a_private_move_or_an_undeclared_one_is_caught() -> None:
    trees = module_trees()
    views = (SRC / "cardroom/games/baebae/views.py").read_text()
    trees["cardroom.games.baebae.views"] = ast.parse(views + "\ndef f(state):\n    state._end_game()\n")
    assert any("state._end_game" in b for b in private_attribute_breaks(trees))
    assert any("state._end_game" in b for b in interface_breaks(trees))
    interface = (SRC / "cardroom/games/baebae/interface.py").read_text()
    trees["cardroom.games.baebae.interface"] = ast.parse(interface.replace("def advance(", "def advanced("))
    assert any("state.advance" in b for b in interface_breaks(trees))
