"""Each state field declared once (games/<game>/fields.py): the generated bases are up to
date, the states declare no field of their own, and clone and pickling follow the table."""

from __future__ import annotations

import ast
import dataclasses
import pickle
import random
from pathlib import Path

import pytest

from cardroom import games, native
from cardroom.games import fieldgen
from cardroom.games.fieldgen import Field

SRC = Path(__file__).resolve().parents[1] / "src" / "cardroom" / "games"


@pytest.mark.parametrize("game", fieldgen.GAMES)
def test_the_generated_base_is_what_the_table_makes(game: str) -> None:
    table, module, path = fieldgen.paths(game)
    assert path.read_text() == fieldgen.generate(table, module), "run python -m cardroom.games.fieldgen"


@pytest.mark.parametrize("game", fieldgen.GAMES)
def test_a_field_added_to_the_table_changes_the_base(game: str) -> None:
    table, module, path = fieldgen.paths(game)
    more = dataclasses.replace(table, fields=(*table.fields, Field("extra", "int")))
    text = fieldgen.generate(more, module)
    assert text != path.read_text()
    assert "    extra: int" in text and "other.extra = self.extra" in text and '"extra"' in text


def test_a_table_naming_a_field_twice_is_refused() -> None:
    table, _, _ = fieldgen.paths("baha")
    with pytest.raises(ValueError, match="declared twice"):
        dataclasses.replace(table, fields=(*table.fields, table.fields[5]))


@pytest.mark.parametrize("game", fieldgen.GAMES)
def test_the_state_declares_no_field_of_its_own(game: str) -> None:
    tree = ast.parse((SRC / game / "state.py").read_text())
    states = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name.endswith("State")]
    assert len(states) == 1
    annotated = [item.target for item in states[0].body if isinstance(item, ast.AnnAssign)]
    assert annotated == []
    assert not [n for n in tree.body if isinstance(n, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "_FIELDS" for t in n.targets)]


@pytest.mark.parametrize("game", fieldgen.GAMES)
def test_clone_and_pickle_follow_the_table(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDROOM_ENGINE", "python")  # the table is the Python state's (native keeps its own)
    table, _, _ = fieldgen.paths(game)
    state = games.get(game).make_rules().new_game(3)
    for _ in range(12):
        state.apply(state.legal_actions()[0])
    state.determinize(0, random.Random(1))  # fills the determinize cache
    other = state.clone()
    back = pickle.loads(pickle.dumps(state))
    for f in table.fields:
        mine, theirs, again = getattr(state, f.name), getattr(other, f.name), getattr(back, f.name)
        if f.copy == "list":
            assert theirs == mine and theirs is not mine, f.name
        elif f.copy == "same":
            assert theirs is mine, f.name
        if f.pickle is None and f.name != "rules":
            assert again == mine, f.name
    assert other.det_cache == {} and back.det_cache == {} and state.det_cache


NATIVE = [game for game in fieldgen.GAMES if fieldgen.paths(game)[0].native is not None]
"""The games whose table declares the native core's side too."""


@pytest.mark.parametrize("game", NATIVE)
def test_the_generated_header_and_stubs_are_what_the_table_makes(game: str) -> None:
    for path, text in fieldgen.generated(game, fieldgen.STUBS.read_text()):
        assert path.read_text() == text, f"{path} is stale: run python -m cardroom.games.fieldgen"


@pytest.mark.parametrize("game", NATIVE)
def test_a_field_added_to_the_table_reaches_the_native_core(game: str) -> None:
    # one line of the table makes the struct's member, the getter and load (the X list), the
    # stub, the native face's annotation and the reference's value
    table, module, _ = fieldgen.paths(game)
    more = dataclasses.replace(table, fields=(*table.fields, Field("extra", "int", native="int64")))
    fields = module.rsplit(".", 1)[0] + ".fields"
    header = fieldgen.generate_header(more, fields)
    members = header.split("_GAME_MEMBERS \\\n", 1)[1].split("\n\n", 1)[0]
    assert "    int64_t extra = 0; \\\n" in members + " \\\n"
    assert 'X(extra, "extra", Int, g.extra, "",' in header
    assert "    extra: int\n" in fieldgen.generate_stubs(more, fields, fieldgen.STUBS.read_text())
    python = fieldgen.generate(more, module)
    assert "        native.extra,\n" in python and "    extra: int\n" in python.split("NativeFields:", 1)[1]


def test_a_field_the_native_core_cannot_keep_is_refused() -> None:
    table, module, _ = fieldgen.paths("baha")
    kept = dataclasses.replace(table, fields=(*table.fields, Field("extra", "int")))
    with pytest.raises(ValueError, match="extra has no native form"):
        fieldgen.generate_header(kept, "cardroom.games.baha.fields")
    with pytest.raises(ValueError, match="native form 'long' is none of"):
        dataclasses.replace(table, fields=(*table.fields, Field("extra", "int", native="long")))


def _plain(value: object) -> object:
    """A field's value compared by what it holds: a list item by item, an object of slots (an
    interpreter frame, which has no ``==``) slot by slot."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    slots = getattr(type(value), "__slots__", None)
    if slots and not dataclasses.is_dataclass(value) and type(value).__eq__ is object.__eq__:
        return (type(value).__name__, *(_plain(getattr(value, name)) for name in slots))
    return value


@pytest.mark.skipif(not native.available(), reason="the native core is not built")
@pytest.mark.parametrize("game", NATIVE)
def test_every_field_crosses_the_native_core_and_back(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The native state's reference (every field read by name through its getters) is the Python
    # engine's state, field by field; that state loaded into a native world (every field set by
    # name) reads back the same.
    table, _, _ = fieldgen.paths(game)
    kept = [f.name for f in table.fields if f.native != ""]  # not the caches
    spec = games.get(game)
    for seed in range(3):
        monkeypatch.setenv("CARDROOM_ENGINE", "python")
        python = spec.make_rules().new_game(seed)
        monkeypatch.setenv("CARDROOM_ENGINE", "native")
        fast = spec.make_rules().new_game(seed)
        assert type(fast) is not type(python)
        for step in range(90):
            if python.is_over:
                break
            if step % 9 == 0:
                expected = [_plain(getattr(python, f)) for f in kept]
                ref = fast.reference()
                assert [_plain(getattr(ref, f)) for f in kept] == expected, (seed, step)
                world = fast._from_reference(python)
                again = world.reference()
                assert [_plain(getattr(again, f)) for f in kept] == expected, (seed, step)
            action = random.Random(seed * 100 + step).choice(python.legal_actions())
            python.apply(action)
            fast.apply(action)
