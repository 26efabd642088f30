"""A table stored before the rules had ``stream`` is rebuilt on the Twister it was dealt on."""

from __future__ import annotations

import pytest

from cardroom.games import make_rules
from cardroom.web.play import TablePlay


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_a_stored_table_without_a_stream_is_rebuilt_on_the_twister(game: str) -> None:
    stored = {k: v for k, v in make_rules(game).to_dict().items() if k not in ("stream", "deck", "deck_files")}
    rebuilt = TablePlay._rules(None, game, stored, None, None, stored=True)  # type: ignore[arg-type]
    assert rebuilt.to_dict()["stream"] == "twister"
    assert rebuilt.new_game(5).log == make_rules(game, {**stored, "stream": "twister"}).new_game(5).log
    # a stored table that names its stream keeps it; a new table's rules take the default
    assert TablePlay._rules(None, game, {**stored, "stream": "splitmix"}, None, None,  # type: ignore[arg-type]
                            stored=True).to_dict()["stream"] == "splitmix"
    assert TablePlay._rules(None, game, {}, None, None).to_dict()["stream"] == "splitmix"  # type: ignore[arg-type]
