"""How every front and every record names a seat: one naming for the web table, the terminal
and the narration of records.

A seat keeps the game's number (0 to n-1, as the rules, records, ``--seat`` and actions such as
``target 2`` number them). A player who gave a name is called by it; a bot by its kind and its
seat (``Heuristic 2``), so two bots of one kind are told apart; anyone else by the seat
(``Seat 2``). Each front may add its own word for its reader ("you"), never another number.

>>> seat_name(2, agent="heuristic")
'Heuristic 2'
>>> seat_name(1, agent="ismcts:iterations=300")
'ISMCTS 1'
>>> seat_name(0, name="Ada", agent="human")
'Ada'
>>> seat_name(3)
'Seat 3'
>>> record_names([{"name": "Ada", "agent": "human"}, {"name": "Seat 1", "agent": "heuristic"}])
['Ada', 'Heuristic 1']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["BOT_TITLES", "bot_title", "seat_name", "record_names", "seat_entries"]

BOT_TITLES = {"random": "Random", "heuristic": "Heuristic", "ismcts": "ISMCTS", "policy": "Policy"}
"""Bots' kinds as people read them; another kind is shown as its spec's name, capitalised."""

_NOT_BOTS = frozenset({"", "human", "unknown"})


def bot_title(spec: str) -> str:
    """A bot's kind from its spec (``ismcts:iterations=300`` is ``ISMCTS``)."""
    kind = spec.split(":", 1)[0].strip()
    return BOT_TITLES.get(kind, kind[:1].upper() + kind[1:])


def seat_name(seat: int, name: str | None = None, agent: str | None = None) -> str:
    """The name of ``seat`` for people: the player's ``name``; else a bot's kind and the seat
    (``agent`` is a bot spec); else ``Seat N``."""
    if name:
        return name
    if agent is not None and agent.split(":", 1)[0].strip() not in _NOT_BOTS:
        return f"{bot_title(agent)} {seat}"
    return f"Seat {seat}"


def _generic(name: Any, seat: int) -> bool:
    return not isinstance(name, str) or not name or name == f"Seat {seat}"


def record_names(seats: Sequence[Mapping[str, Any]]) -> list[str]:
    """The names a record's ``seats`` are told by. A bot that a record names only by its seat
    (``{"name": "Seat 2", "agent": "heuristic"}``, as older records do) is called as the fronts
    call it (``Heuristic 2``)."""
    out = []
    for seat, entry in enumerate(seats):
        name = entry.get("name")
        agent = entry.get("agent")
        agent = agent if isinstance(agent, str) else None
        out.append(seat_name(seat, None if _generic(name, seat) else str(name), agent))
    return out


def seat_entries(names: Sequence[str | None], agents: Sequence[str | None]) -> list[dict[str, Any]]:
    """A record's ``seats``: each seat's name (by :func:`seat_name`) and agent (``human`` for a
    person, else the bot's spec)."""
    return [
        {"name": seat_name(seat, name, agent), "agent": agent or "unknown"}
        for seat, (name, agent) in enumerate(zip(names, agents, strict=True))
    ]
