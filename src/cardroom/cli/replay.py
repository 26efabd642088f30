"""``cardroom replay``: rebuild games from records; ``--verify`` checks they replay exactly;
``--narrate`` tells a game event by event, from one seat's view or with every card shown."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from cardroom.cli.base import guard
from cardroom.cli.consoles import make_console
from cardroom.cli.options import UsageError
from cardroom.record import RecordError, load, replay_checked, verify, with_decks
from cardroom.seats import bot_title, record_names
from cardroom.text import plural, shorten, terminal_safe

__all__ = ["narration", "replay", "run_replay", "seat_number"]


def narration(record: dict[str, Any], seat: int | None, where: str = "record") -> list[str]:
    """The game of ``record`` told one line an event: as ``seat`` saw it, or every card shown
    when ``seat`` is ``None``. The events come from replaying the record, not from its log, and
    the log and result the record carries must agree with them."""
    state = replay_checked(record, where)
    names = record_names(record["seats"])
    if seat is not None and not 0 <= seat < len(names):
        raise RecordError(f"{where}: --seat {seat}: the seats are 0 to {len(names) - 1}")
    tell = state.rules.spec.narrate
    log = state.log if seat is None else state.view_log(seat)
    return [line for event in log if (line := tell(event, names, state.rules)) is not None]


def _narrate(files: list[Path], seat: int | None, console: Console, decks: list[str]) -> int:
    code = 0
    for path in files:
        try:
            record = with_decks(load(path), decks, str(path))
            lines = narration(record, seat, str(path))
        except RecordError as err:
            console.print(Text.assemble(("FAIL ", "bold red"), terminal_safe(str(err))))
            code = 1
            continue
        names = record_names(record["seats"])
        # A bot's name says its kind; a person's is followed by what they were.
        seats = ", ".join(
            name if name.startswith(f"{bot_title(str(s['agent']))} ") else f"{name} ({s['agent']})"
            for name, s in zip(names, record["seats"], strict=True)
        )
        view = "every card shown"
        if seat is not None:
            view = f"as {names[seat]} (seat {seat}) saw it"
        heading = f": {record['game']}, seed {record['seed']}, {view}; seats {seats}"
        # What a record says reaches the terminal escaped: no ESC sequence, link or RLO acts.
        console.print(Text.assemble((terminal_safe(str(path)), "bold"), terminal_safe(heading)))
        for line in lines:
            console.print(Text(terminal_safe(line)))
    return code


def run_replay(
    files: list[Path], *, verify: bool, json_out: bool, console: Console, narrate: bool = False,
    seat: int | None = None, decks: list[str] | None = None,
) -> int:
    """Return 0 when every record replays to the log and result it carries (with ``verify``, it
    must carry a log), else 1.
    With ``narrate``, print each game one line an event (as ``seat`` saw it, if given).
    ``decks``: the deck files records written before records carried their decks name by path
    (a record's own paths are never read)."""
    if narrate:
        return _narrate(files, seat, console, decks or [])
    verdicts = []
    for path in files:
        try:
            record = with_decks(load(path), decks or [], str(path))
        except RecordError as err:
            verdicts.append({"file": str(path), "ok": False, "message": str(err)})
            continue
        if verify:
            verdict = _verify(record, str(path))
            verdicts.append({"file": str(path), "ok": verdict.ok, "message": verdict.message})
        else:
            try:
                state = replay_checked(record, str(path))  # what is shown is what replays
            except RecordError as err:
                verdicts.append({"file": str(path), "ok": False, "message": str(err)})
                continue
            outcome = f"totals {state.scores}"
            if state.is_over:
                outcome += f", winner seat {state.winner}"
            else:
                outcome += ", not finished"
            verdicts.append({"file": str(path), "ok": True, "message": f"{path}: {record['game']}, "
                             f"{plural(len(record['actions']), 'action')}, {outcome}"})
    if json_out:
        sys.stdout.write(json.dumps(verdicts, indent=2) + "\n")
    else:
        for v in verdicts:
            mark = "[green]ok[/]  " if v["ok"] else "[bold red]FAIL[/]"
            console.print(f"{mark} {escape(str(v['message']))}", highlight=False)
    return 0 if all(v["ok"] for v in verdicts) else 1


_verify = verify


def seat_number(seat: str | None) -> int | None:
    """``--seat``: a seat's number, or ``None`` for ``all`` (every card shown)."""
    if seat is None or seat.strip().lower() == "all":
        return None
    if not seat.strip().isdecimal():
        raise UsageError(f"--seat takes a seat's number (from 0) or all, not {shorten(seat, 20)!r}")
    return int(seat)


def replay(
    files: Annotated[list[Path], typer.Argument(help="Record files.", metavar="FILE")],
    verify: Annotated[bool, typer.Option("--verify", help="Check each record replays exactly.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print verdicts as JSON.")] = False,
    narrate: Annotated[
        bool,
        typer.Option("--narrate", help="Tell each game event by event: every card shown, or --seat's view."),
    ] = False,
    seat: Annotated[
        str | None,
        typer.Option(help="With --narrate: the game as this seat saw it (all: every card).", metavar="N|all"),
    ] = None,
    deck: Annotated[
        list[str] | None,
        typer.Option("--deck", help="A deck file an old record names by path (once for each, in order); "
                                    "a record's own paths are never read.", metavar="FILE"),
    ] = None,
) -> None:
    """Replay game records; with --verify, say for each whether it reproduces its log; with
    --narrate, tell the game event by event."""
    with guard():
        if seat is not None and not narrate:
            raise UsageError("--seat chooses whose view --narrate tells: give --narrate too")
        if narrate and (verify or json_out):
            raise UsageError(
                "--narrate tells a game; --verify and --json check records: give one or the other"
            )
        code = run_replay(files, verify=verify, json_out=json_out, console=make_console(), narrate=narrate,
                          seat=seat_number(seat), decks=deck or [])
    raise typer.Exit(code)
