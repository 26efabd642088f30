"""``cardroom deck validate|show|new``: check, preview and copy deck files.

The decks are reached only through the deck contract of the game that takes them (its spec's
``decks``, a :class:`~cardroom.games.contracts.DeckSupport`): this module names no game."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cardroom import games
from cardroom.cli.base import guard
from cardroom.cli.consoles import make_console
from cardroom.cli.options import UsageError, game_spec
from cardroom.games.contracts import DeckSupport
from cardroom.text import plural, terminal_safe

__all__ = ["deck_games", "deck_new", "deck_show", "deck_support", "deck_validate", "run_new", "run_show",
           "run_validate"]


def deck_games() -> list[str]:
    """The registered games that take decks."""
    return [spec.name for spec in games.specs() if spec.decks is not None]


def deck_support(game: str | None = None) -> DeckSupport:
    """The decks of ``game``; without one, of the one registered game that takes decks (when
    several do, ``--game`` must say which)."""
    takers = deck_games()
    if game is None:
        if len(takers) == 1:
            game = takers[0]
        else:
            raise UsageError(f"several games take decks ({', '.join(takers)}): say which with --game"
                             if takers else "no game takes decks")
    spec = game_spec(game)
    if spec.decks is None:
        raise UsageError(f"{spec.title} takes no decks; the games that do: {', '.join(takers)}")
    return spec.decks


def run_validate(files: list[str], *, json_out: bool, console: Console, game: str | None = None) -> int:
    """0 when every deck is valid, 1 otherwise; each deck's verdict, then each problem on a line.

    A name may join several decks with commas (``base.toml,extras.toml``), as the ``deck``
    option does: they are checked shuffled together.
    """
    support = deck_support(game)
    verdicts = [_verdict(support, name) for name in files]
    if json_out:
        sys.stdout.write(json.dumps(verdicts, indent=2, ensure_ascii=False) + "\n")
    else:
        for v in verdicts:
            mark = "[green]ok[/]  " if v["ok"] else "[bold red]FAIL[/]"
            console.print(f"{mark} {escape(str(v['message']))}", highlight=False)
            for problem in v["problems"]:
                console.print(f"     {escape(problem)}", highlight=False)
    return 0 if all(v["ok"] for v in verdicts) else 1


def _verdict(support: DeckSupport, name: str) -> dict[str, Any]:
    """One deck (or several joined by commas) checked: its figures, or every problem found."""
    try:
        deck = support.find(name)
    except support.error as err:
        problems = str(err).splitlines()
        found = "1 problem" if len(problems) == 1 else f"{len(problems)} problems"
        return {"file": name, "ok": False, "problems": problems, "message": f"{name}: {found}"}
    players = deck.players
    verdict: dict[str, Any] = {
        "file": name, "ok": players is not None, "name": deck.title, "cards": deck.size,
        "designs": deck.designs, "actions": deck.actions, "digest": deck.digest,
        "players": {"min": players[0], "max": players[1]} if players else None, "problems": [],
    }
    figures = (f"{name}: {deck.title!r}, {plural(deck.size, 'card')}, {deck.actions} with actions, "
               f"types {', '.join(deck.types) or 'none'}")
    if players:
        low, high = players
        many = f"{low} players" if low == high else f"{low} to {high} players"
        verdict["message"] = f"{figures}; enough for {many} with the default hand size"
    else:
        verdict["message"] = figures
        verdict["problems"] = [deck.unplayable or f"{name}: too few cards for any game"]
    return verdict


def run_show(name: str | None, *, json_out: bool, console: Console, game: str | None = None) -> None:
    """A deck's cards (``name``; ``None``: the game's default deck) as a table, or JSON. Every
    row has ``key``, ``name``, ``copies`` and ``text``; the other columns show what a game's
    rows add (BAEBAE's rank and suit, types, marks, flags), empty where they have none."""
    support = deck_support(game)
    name = support.default if name is None else name
    deck = support.find(name)
    rows = support.rows(name)
    if json_out:
        out = {"name": deck.title, "description": deck.description, "types": list(deck.types),
               "digest": deck.digest, "cards": rows}
        sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
        return
    title = Text(terminal_safe(f"{deck.title} — {plural(deck.size, 'card')}"))
    table = Table(title=title, title_justify="left", show_lines=False)
    table.add_column("Card", no_wrap=True)
    table.add_column("Name", ratio=2)
    table.add_column("Types", ratio=1)
    table.add_column("Marks", ratio=1)
    table.add_column("Action", ratio=4)
    table.add_column("Flags", ratio=1)
    for row in rows:
        colour = "red" if row.get("red") else "bold"
        has_face = "rank" in row and "symbol" in row
        face = f"{row['rank']}{row['symbol']}" if has_face else escape(str(row["key"]))
        label = f"[{colour}]{face}[/]"
        if row["copies"] > 1:
            label += f" x{row['copies']}"
        flags = []
        if row.get("optional"):
            flags.append("optional")
        if not row.get("can_win", True):
            flags.append("cannot win")
        if row.get("on_start"):
            flags.append("on start")
        # A deck's texts reach the terminal escaped: no ESC sequence, link or RLO acts.
        types = Text(terminal_safe(", ".join(row.get("types", ()))))
        table.add_row(label, Text(terminal_safe(row["name"])), types, ", ".join(row.get("marks", ())),
                      Text(terminal_safe(row["text"])), ", ".join(flags))
    if deck.description:
        console.print(Text(terminal_safe(deck.description)))
    console.print(table)
    console.print(Text(terminal_safe(f"types: {', '.join(deck.types)}; hash {deck.digest}")))


_NAME_LINE = re.compile(r'^name\s*=.*$', re.MULTILINE)


def run_new(name: str, *, source: str, out: Path | None, console: Console, game: str | None = None) -> Path:
    """``cardroom deck new NAME --from DECK``: an editable copy of a deck (a project deck's name
    or a file) under a new name, written to ``out`` (default: the name as a file name, ``.toml``),
    never over a file that exists; the copy is checked as ``deck validate`` checks it."""
    support = deck_support(game)
    found = support.path(source)
    path = found if found is not None else Path(source)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        names = ", ".join(support.names())
        raise UsageError(f"--from {source}: not a project deck ({names}) nor a readable deck file "
                         f"({getattr(err, 'strerror', None) or err})") from None
    support.parse(text, str(path))  # the source itself must be a good deck
    before = _NAME_LINE.search(text.split("[[", 1)[0])
    line = f"name = {json.dumps(name, ensure_ascii=False)}"
    renamed = f"{line}\n{text}" if before is None else text[:before.start()] + line + text[before.end():]
    where = out if out is not None else Path(_file_name(name))
    try:
        copy = support.parse(renamed, str(where))
    except support.error as err:
        raise UsageError(f"deck new {name!r}: {err}") from None
    if copy.title != name:
        raise UsageError(f"deck new: the copy's name reads {copy.title!r}, not {name!r}")
    try:
        with where.open("x", encoding="utf-8") as file:  # never over a file that exists
            file.write(renamed)
    except FileExistsError:
        raise UsageError(f"{where} already exists: give another --out, or remove it first") from None
    except OSError as err:
        raise UsageError(f"cannot write {where}: {err.strerror or err}") from None
    console.print(f"wrote {escape(str(where))}: {escape(name)!r}, a copy of {escape(source)} "
                  f"({plural(copy.size, 'card')}); edit it, then cardroom deck validate {escape(str(where))}",
                  highlight=False)
    return where


def _file_name(name: str) -> str:
    """A deck's name as a file name: ``My Deck`` -> ``my-deck.toml``."""
    slug = "".join(c if c.isalnum() else "-" for c in name.lower())
    slug = "-".join(part for part in slug.split("-") if part)
    return f"{slug or 'deck'}.toml"


DeckGameOpt = Annotated[
    str | None,
    typer.Option("--game", "-g", metavar="GAME",
                 help="The game whose decks these are (needed when several games take decks)."),
]


def deck_validate(
    files: Annotated[list[str], typer.Argument(help="Deck files (or project deck names).", metavar="DECK")],
    json_out: Annotated[bool, typer.Option("--json", help="Print the verdicts as JSON.")] = False,
    game: DeckGameOpt = None,
) -> None:
    """Check deck files: each one is valid, or every problem is named with its card and field."""
    with guard():
        code = run_validate(files, json_out=json_out, console=make_console(), game=game)
    raise typer.Exit(code)


def deck_show(
    file: Annotated[
        str | None, typer.Argument(help="A deck file or a project deck's name (default: the game's own).",
                                   metavar="DECK")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the cards as JSON.")] = False,
    game: DeckGameOpt = None,
) -> None:
    """Show a deck's cards as a table: rank, suit, name, types, marks, action and flags."""
    with guard():
        run_show(file, json_out=json_out, console=make_console(), game=game)


def deck_new(
    name: Annotated[str, typer.Argument(help="The new deck's name (as the lobby and reports show it).",
                                        metavar="NAME")],
    source: Annotated[str, typer.Option("--from", help="The deck to copy: a project deck's name or a file.",
                                        metavar="DECK")] = "sample",
    out: Annotated[
        Path | None,
        typer.Option(help="The file to write (default: the name as a file name, e.g. my-deck.toml); never "
                          "one that exists.", metavar="FILE"),
    ] = None,
    game: DeckGameOpt = None,
) -> None:
    """Write an editable copy of a deck under a new name, e.g. cardroom deck new "My Deck" --from sample."""
    with guard():
        run_new(name, source=source, out=out, console=make_console(), game=game)
