"""``cardroom replay``: rebuild games from records; ``--verify`` checks they replay exactly;
``--narrate`` tells a game event by event, from one seat's view or with every card shown."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from cardroom import games
from cardroom.record import RecordError, load, replay_checked, verify, with_decks
from cardroom.seats import bot_title, record_names
from cardroom.text import plural, terminal_safe

__all__ = ["run_replay", "narration"]


def narration(record: dict[str, Any], seat: int | None, where: str = "record") -> list[str]:
    """The game of ``record`` told one line an event: as ``seat`` saw it, or every card shown
    when ``seat`` is ``None``. The events come from replaying the record, not from its log, and
    the log and result the record carries must agree with them."""
    state = replay_checked(record, where)
    names = record_names(record["seats"])
    if seat is not None and not 0 <= seat < len(names):
        raise RecordError(f"{where}: --seat {seat}: the seats are 0 to {len(names) - 1}")
    tell = games.get(record["game"]).narrate  # replay() has checked the game is known
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
