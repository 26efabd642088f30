"""Both games' native batches make their result lists in the core with the cyclic collector
paused (native/cardroom/pylists.hpp), and put it back as they found it: on, off, or after a
refused batch; and the lists they hand out are fresh ones, one a game, the caller may change."""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

import pytest
from native_support import needs_native

from cardroom.engine import RulesError
from cardroom.games import baebae, baha

pytestmark = needs_native


def baha_batch() -> tuple[Callable[..., Any], Any, str]:
    from cardroom.games.baha.native import random_games

    return random_games, baha.Rules(players=4), "moons"


def baebae_batch() -> tuple[Callable[..., Any], Any, str]:
    from cardroom.games.baebae.native import random_games

    return random_games, baebae.Rules(players=4, rounds=1), "blocked_rounds"


@pytest.mark.parametrize("batch", [baha_batch, baebae_batch], ids=["baha", "baebae"])
def test_a_batch_leaves_the_cyclic_collector_as_it_found_it(batch: Callable[[], Any]) -> None:
    random_games, rules, extra = batch()
    assert gc.isenabled()
    found = random_games(rules, 30, 5)
    assert gc.isenabled()
    gc.disable()
    try:
        assert random_games(rules, 30, 5).totals == found.totals
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(RulesError):  # a refused batch leaves it as it was too
        random_games(rules, -1)
    assert gc.isenabled()
    # fresh lists and dicts, one a game, that the caller may change freely
    assert len({id(row) for row in found.totals}) == 30 and len({id(e) for e in found.extras}) == 30
    other = dict(found.extras[1])
    found.totals[0].append(1)
    found.extras[0][extra] = 99
    assert len(found.totals[1]) == 4 and found.extras[1] == other and extra in other
