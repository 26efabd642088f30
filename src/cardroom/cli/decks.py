"""``cardroom deck validate|show``: check and preview BAEBAE deck files."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cardroom.games.baebae.deck import Deck, DeckError, combine, find_deck
from cardroom.games.baebae.effects import SUIT_SYMBOLS
from cardroom.games.baebae.rules import MIN_PLAYERS, hand_size_for, players_for
from cardroom.text import plural, terminal_safe

__all__ = ["run_validate", "run_show", "deck_rows"]


def run_validate(files: list[str], *, json_out: bool, console: Console) -> int:
    """0 when every deck is valid, 1 otherwise; each deck's verdict, then each problem on a line.

    A name may join several decks with commas (``base.toml,extras.toml``), as the ``deck``
    option does: they are checked shuffled together.
    """
    verdicts = [_verdict(name) for name in files]
    if json_out:
        sys.stdout.write(json.dumps(verdicts, indent=2, ensure_ascii=False) + "\n")
    else:
        for v in verdicts:
            mark = "[green]ok[/]  " if v["ok"] else "[bold red]FAIL[/]"
            console.print(f"{mark} {escape(str(v['message']))}", highlight=False)
            for problem in v["problems"]:
                console.print(f"     {escape(problem)}", highlight=False)
    return 0 if all(v["ok"] for v in verdicts) else 1


def _verdict(name: str) -> dict[str, Any]:
    """One deck (or several joined by commas) checked: its figures, or every problem found."""
    problems: list[str] = []
    parts = []
    for spec in (p.strip() for p in name.split(",")):
        try:
            parts.append(find_deck(spec))
        except DeckError as err:
            problems.extend(err.problems)
    if not problems:
        try:
            deck = combine(parts)
        except DeckError as err:
            problems.extend(err.problems)
    if problems:
        found = "1 problem" if len(problems) == 1 else f"{len(problems)} problems"
        return {"file": name, "ok": False, "problems": problems, "message": f"{name}: {found}"}
    actions = sum(1 for c in deck.cards if c.has_action)
    players = players_for(deck.size)
    verdict: dict[str, Any] = {
        "file": name, "ok": bool(players), "name": deck.name, "cards": deck.size,
        "designs": len(deck.cards), "actions": actions, "digest": deck.digest,
        "players": {"min": players[0], "max": players[-1]} if players else None, "problems": [],
    }
    figures = (f"{name}: {deck.name!r}, {plural(deck.size, 'card')}, {actions} with actions, "
               f"types {', '.join(sorted(deck.types)) or 'none'}")
    if players:
        many = f"{players[0]} players" if len(players) == 1 else f"{players[0]} to {players[-1]} players"
        verdict["message"] = f"{figures}; enough for {many} with the default hand size"
    else:
        verdict["message"] = figures
        verdict["problems"] = [
            f"{name}: too few cards for any game ({plural(deck.size, 'card')}; {MIN_PLAYERS} players need "
            f"{MIN_PLAYERS * hand_size_for(MIN_PLAYERS) + 1} with the default hand size: every hand "
            f"and a starter card); to add these cards to another deck, check them together: "
            f"base.toml,{name}"
        ]
    return verdict


def deck_rows(deck: Deck) -> list[dict[str, Any]]:
    """Each card design as a JSON-ready row."""
    return [
        {
            "key": c.key, "rank": c.rank_text, "suit": c.suit_text, "name": c.name,
            "types": sorted(c.types), "marks": sorted(c.marks), "copies": c.copies,
            "action": c.text, "optional": c.optional, "can_win": c.can_win, "on_start": c.on_start,
            "steps": [s.op for s in c.effects],
        }
        for c in deck.cards
    ]


def run_show(name: str, *, json_out: bool, console: Console) -> None:
    deck = find_deck(name)
    rows = deck_rows(deck)
    if json_out:
        out = {"name": deck.name, "description": deck.description, "types": sorted(deck.types),
               "digest": deck.digest, "cards": rows}
        sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
        return
    title = Text(terminal_safe(f"{deck.name} — {plural(deck.size, 'card')}"))
    table = Table(title=title, title_justify="left", show_lines=False)
    table.add_column("Card", no_wrap=True)
    table.add_column("Name", ratio=2)
    table.add_column("Types", ratio=1)
    table.add_column("Marks", ratio=1)
    table.add_column("Action", ratio=4)
    table.add_column("Flags", ratio=1)
    for card, row in zip(deck.cards, rows, strict=True):
        colour = "red" if card.suit in (1, 2) else "bold"
        label = f"[{colour}]{row['rank']}{SUIT_SYMBOLS[card.suit]}[/]"
        if card.copies > 1:
            label += f" x{card.copies}"
        flags = []
        if card.optional:
            flags.append("optional")
        if not card.can_win:
            flags.append("cannot win")
        if card.on_start:
            flags.append("on start")
        # A deck's texts reach the terminal escaped: no ESC sequence, link or RLO acts.
        table.add_row(label, Text(terminal_safe(card.name)), Text(terminal_safe(", ".join(row["types"]))),
                      ", ".join(row["marks"]), Text(terminal_safe(card.text)), ", ".join(flags))
    if deck.description:
        console.print(Text(terminal_safe(deck.description)))
    console.print(table)
    console.print(Text(terminal_safe(f"types: {', '.join(sorted(deck.types))}; hash {deck.digest}")))
