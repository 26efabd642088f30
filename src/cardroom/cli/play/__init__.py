"""``cardroom play GAME``: a person at seat 0 against bots, in the terminal, drawn with Rich.

The package holds what every game's terminal shares and one renderer per game:

- :mod:`cardroom.cli.play.session`: seats and bots, the read-answer loop (``quit``, ``help``,
  ``show``, numbered moves), the screen's common words, records and clean stops;
- one module per game (:mod:`~cardroom.cli.play.baha`, :mod:`~cardroom.cli.play.baebae`): how
  that game's hand, table and events look, and how a person's words become an action.

A game's renderer is found through the registry: its spec's ``terminal`` names a ``run_play``
function, a :class:`cardroom.games.contracts.TerminalRenderer` (the one contract of its
arguments, result and errors). A game without one cannot be played here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from cardroom import games
from cardroom.engine import Rules, RulesError

__all__ = ["run_play", "terminal_games"]


def terminal_games() -> list[str]:
    """The registered games that have a terminal renderer."""
    return [name for name in games.names() if games.get(name).terminal is not None]


def run_play(
    rules: Rules,
    *,
    seed: int | None,
    bots: str,
    name: str | None,
    record_path: Path | None,
    console: Console,
    ask: Callable[[str], str] | None = None,
) -> int:
    """Play a game of ``rules`` with the game's own renderer, found through its spec: the
    contract of :class:`cardroom.games.contracts.TerminalRenderer` (arguments, exit status,
    errors); a game with no terminal renderer is a ``RulesError`` naming those that have one.

    >>> import io
    >>> first = games.get(games.names()[0])
    >>> out = io.StringIO()
    >>> run_play(first.make_rules(), seed=3, bots="random", name="Ada", record_path=None,
    ...          console=Console(file=out), ask=lambda prompt: "quit")
    0
    >>> out.getvalue().splitlines()[-1]
    'You left the game.'
    """
    spec = games.get(rules.game)
    if spec.terminal is None:
        can = ", ".join(terminal_games())
        raise RulesError(f"{spec.title} cannot be played in the terminal; the games that can: {can}")
    play = spec.load("terminal")
    return play(rules, seed=seed, bots=bots, name=name, record_path=record_path, console=console, ask=ask)
