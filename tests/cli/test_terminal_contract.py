"""One ``run_play`` contract: every game's terminal renderer (its spec's ``terminal``) and the
dispatcher take the arguments of games.contracts.TerminalRenderer, and document it once."""

from __future__ import annotations

import inspect

import pytest

from cardroom import games
from cardroom.cli import play
from cardroom.games.contracts import TerminalRenderer

CONTRACT = [p for p in inspect.signature(TerminalRenderer.__call__).parameters.values() if p.name != "self"]


@pytest.mark.parametrize("name", [n for n in games.names() if games.get(n).terminal is not None])
def test_each_renderer_takes_the_contracts_arguments(name: str) -> None:
    run_play = games.get(name).load("terminal")
    params = inspect.signature(run_play).parameters
    for want in CONTRACT:
        got = params[want.name]
        assert (got.kind, got.default) == (want.kind, want.default), want.name
    extra = [p for p in params.values() if p.name not in {w.name for w in CONTRACT}]
    assert all(p.default is not inspect.Parameter.empty for p in extra)  # only optional additions


def test_the_contract_is_written_once() -> None:
    """The words of the contract live in TerminalRenderer; the renderers point to it."""
    words = "it may raise ``EOFError``"
    assert words in (TerminalRenderer.__call__.__doc__ or "")
    for function in [play.run_play, *(games.get(n).load("terminal") for n in play.terminal_games())]:
        assert words not in (function.__doc__ or ""), function.__module__
        assert "TerminalRenderer" in (function.__doc__ or ""), function.__module__
