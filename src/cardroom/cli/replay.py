"""``cardroom replay``: rebuild games from records; ``--verify`` checks they replay exactly."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from cardroom.record import RecordError, load, replay, verify
from cardroom.text import plural

__all__ = ["run_replay"]


def run_replay(files: list[Path], *, verify: bool, json_out: bool, console: Console) -> int:
    """Return 0 when every record loads (and, with ``verify``, replays exactly), else 1."""
    verdicts = []
    for path in files:
        try:
            record = load(path)
        except RecordError as err:
            verdicts.append({"file": str(path), "ok": False, "message": str(err)})
            continue
        if verify:
            verdict = _verify(record, str(path))
            verdicts.append({"file": str(path), "ok": verdict.ok, "message": verdict.message})
        else:
            try:
                state = replay(record, str(path))
            except RecordError as err:
                verdicts.append({"file": str(path), "ok": False, "message": str(err)})
                continue
            outcome = f"totals {state.scores}"
            if state.is_over:
                outcome += f", winner seat {getattr(state, 'winner', None)}"
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
