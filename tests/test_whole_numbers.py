"""One whole-number check: ``True`` is an ``int`` to Python and is refused in words rather than
read as 1, by :func:`cardroom.engine.is_whole`, :func:`~cardroom.engine.whole_index` and
:func:`~cardroom.engine.check_whole` (one wording for every refusal of a number), which every
place calls instead of writing the check again."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from cardroom import games, rl
from cardroom.agents import AgentError, make
from cardroom.engine import RulesError, check_whole, is_whole, whole_index
from cardroom.games import make_rules

SRC = Path(__file__).resolve().parents[1] / "src" / "cardroom"
COPIED = re.compile(r"isinstance\(([^,]+), bool\) or not isinstance\(\1, (?:int|SupportsIndex)\)"
                    r"|isinstance\(([^,]+), int\) and not isinstance\(\2, bool\)")
NOT_YET = {
    "engine.py": "the one check itself",
}
"""Files whose copies are left to the sessions that rework them."""


@pytest.mark.parametrize("value", [True, False, 1.0, "3", None])
def test_a_bool_or_anything_but_an_int_is_not_whole(value: object) -> None:
    assert not is_whole(value)
    assert whole_index(value) is None


def test_an_int_or_what_stands_for_one_is_whole() -> None:
    assert is_whole(3) and is_whole(-2)
    assert whole_index(np.int64(7)) == 7 and whole_index(5) == 5
    assert not is_whole(np.int64(7))  # a numpy integer is an index, not an int


def test_check_whole_names_the_value_the_bounds_and_what_was_given() -> None:
    assert check_whole(6, "players", 2, 6) == 6
    with pytest.raises(RulesError, match=r"^players must be a whole number from 2 to 6, not True$"):
        check_whole(True, "players", 2, 6)
    with pytest.raises(AgentError, match=r"^rungs must be a whole number from 1 \(or none\), not 0$"):
        check_whole(0, "rungs", 1, error=AgentError, note=" (or none)")
    with pytest.raises(RulesError, match=r"^seed must be a whole number, not 'x'$"):
        check_whole("x", "seed")


def test_the_fronts_refuse_true_for_a_number_in_the_one_wording() -> None:
    with pytest.raises(RulesError, match=r"^players must be a whole number from \d+ to \d+, not True$"):
        make_rules(games.names()[0], {"players": True})
    with pytest.raises(AgentError, match=r"^ismcts: iterations must be a whole number from 1, not True "):
        make("ismcts", seed=0, iterations=True)


def test_the_check_is_not_written_again_outside_the_files_left_to_other_work() -> None:
    copies = []
    for path in sorted(SRC.rglob("*.py")):
        name = path.relative_to(SRC).as_posix()
        if name in NOT_YET:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if COPIED.search(line):
                copies.append(f"{name}:{number}")
    assert copies == [], "call cardroom.engine.is_whole / whole_index / check_whole instead"


def test_the_vector_env_refuses_true_for_a_count_or_a_row_in_the_one_wording() -> None:
    with pytest.raises(rl.EnvError, match=r"^num_envs must be a whole number from 1, not True$"):
        rl.vector_env(games.names()[0], num_envs=True)
    envs = rl.vector_env(games.names()[0], num_envs=2, seed=1)
    envs.reset()
    with pytest.raises(rl.EnvError, match=r"^row must be a whole number from 0 to 1, not True$"):
        envs.load_row(True, seed=1)
