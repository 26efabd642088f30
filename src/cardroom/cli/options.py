"""What several commands share of their options: the usage error, rules from ``--rule`` and
``--players``, ``--deck`` as the rules option ``deck`` (read through the game's deck contract),
a line-up of bots without a person, a ``--workers`` count a machine has.

The commands' modules (:mod:`~cardroom.cli.simulate`, :mod:`~cardroom.cli.analyze`,
:mod:`~cardroom.cli.serve`...) import these from here, so none imports another's for them."""

from __future__ import annotations

from typing import Any

from cardroom import games
from cardroom.engine import CardroomInputError
from cardroom.games import GameSpec

__all__ = ["PEOPLE_PLAY", "UsageError", "bots_only", "check_workers", "game_spec", "parse_rule_options",
           "with_deck"]


class UsageError(CardroomInputError):
    """A bad argument: printed as one line, exit status 2."""


def game_spec(game: str | GameSpec) -> GameSpec:
    """The spec of the game a command was given by name (its ``GAME`` argument, ``--game``):
    where the command line looks a game up; a spec already found is used as it is."""
    return game if isinstance(game, GameSpec) else games.get(game)


def parse_rule_options(game: str | GameSpec, players: int | None, rules: list[str] | None) -> Any:
    """Rules of ``game`` (its spec, or the name a command was given) from ``--players`` and
    ``--rule KEY=VALUE`` options."""
    options: dict[str, Any] = {}
    for item in rules or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise UsageError(f"--rule takes KEY=VALUE, e.g. --rule target=50; got {item!r}")
        options[key.strip()] = value.strip()
    if players is not None:
        if "players" in options:
            raise UsageError("give the number of players once: --players or --rule players=N")
        options["players"] = players
    spec = game_spec(game)
    if spec.decks is not None and "deck" in options:
        # The command line may read files: deck files become their content, as rules hold them.
        options.update(spec.decks.read(options["deck"], None))
    return spec.make_rules(options)


def with_deck(game: str | GameSpec, rules: list[str] | None, decks: list[str] | None) -> list[str] | None:
    """``--deck`` options as the rules option ``deck`` (several files joined by commas)."""
    if not decks:
        return rules
    spec = game_spec(game)
    if not spec.decks:
        decked = " and ".join(taker.title for taker in games.specs() if taker.decks)
        raise UsageError(f"--deck is for {decked}; {spec.name} has no deck files")
    if any(r.partition("=")[0].strip() == "deck" for r in rules or []):
        raise UsageError("give the deck once: --deck FILE or --rule deck=FILE")
    return [*(rules or []), "deck=" + ",".join(decks)]


PEOPLE_PLAY = "people play with cardroom play or at the web table (cardroom serve)"
"""Where people play, as a line-up of bots that names ``human`` is told (:func:`bots_only`)."""


def bots_only(specs: str | None, option: str, person: str) -> None:
    """Refuse ``human`` in a line-up of bots (``--bots``, ``--agents``), in a person's words:
    a person is not made from a spec on a command line. ``person`` says where people play."""
    from cardroom.agents import AGENTS

    if specs is None:
        return
    if any(spec.strip().partition(":")[0].strip() == "human" for spec in specs.split(",")):
        bots = ", ".join(name for name, kind in AGENTS.items() if kind.seeded)
        raise UsageError(f"{option}: human is not a bot: {person}; the bots are {bots} "
                         f"(options after colons, e.g. ismcts:seconds=1)")


def check_workers(workers: int) -> None:
    """Refuse a ``--workers`` count no machine has (it would start that many processes)."""
    import os

    from cardroom.sim.tournament import MAX_WORKERS

    if not 0 <= workers <= MAX_WORKERS:
        raise UsageError(
            f"--workers {workers}: give 0 (one per core; this machine has {os.cpu_count() or 1}) or a count "
            f"up to {MAX_WORKERS}; Cardroom never starts more processes than cores or games"
        )

