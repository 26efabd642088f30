"""Each state field declared once (games/<game>/fields.py): the generated bases are up to
date, the states declare no field of their own, and clone and pickling follow the table."""

from __future__ import annotations

import ast
import dataclasses
import pickle
import random
from pathlib import Path

import pytest

from cardroom import games
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
