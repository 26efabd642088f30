"""A person's table while other clients abuse the studio and the hints, on loopback, bounded in time.

Starts ``cardroom serve`` on a free loopback port with a new data folder and, for each phase,
a new table of four: a person (a WebSocket client of this process, moving at once) and three
heuristic bots (``--bot-delay 0``). For each of the person's actions it times the
acknowledgement (from the ``act`` sent to the update that carries it) and the bots' moves after
it (from that update to the next, one per bot). A table is measured for ``--seconds`` alone,
then under each abuse, each from clients in another process, each client from a loopback
address of its own:

- ``check``: ``--clients`` clients posting a deck of about 240 KiB to ``POST /api/studio/check``,
  each again as soon as it is answered (refused or not);
- ``deck``: ``--clients`` clients reading that deck, opened once in the studio, with
  ``GET /api/studio/decks/{id}``, the same way;
- ``hints``: ``--hint-seats`` seats, each at a table of its own with bots, asking for a hint
  (``{"type": "hint"}``) again as soon as one is answered, never moving.

For each phase it prints the person's acknowledgement and the bots' moves (p50, p90, max),
the abusers' answers by status, and the load average before and after; ``--json`` prints the
same as JSON. The goal: under each abuse, the acknowledgement's p50 within twice its figure
alone.

    python benchmarks/web_abuse.py
    python benchmarks/web_abuse.py --seconds 20 --clients 6 --hint-seats 10
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import http.client
import json
import multiprocessing
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import websockets

GAME = "baha"
"""The measured table's game (its heuristic bot moves in a millisecond or two)."""
LONG = {"target": 10000}
"""Its rules: a game that lasts the whole run."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(port: int, method: str, path: str, body: bytes | None = None, source: str = "127.0.0.1",
         connection: http.client.HTTPConnection | None = None) -> tuple[int, bytes]:
    own = connection is None
    connection = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=60,
                                                          source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        if own:
            connection.close()


def big_deck() -> tuple[dict[str, Any], str]:
    """The project's first studio deck, every card's texts and actions made as long as the
    checker allows, to about 240 KiB: its form, and its deck file."""
    from cardroom.web.studio import editors

    editing = next(iter(editors().values()))
    form = editing.form_of(editing.project_text(editing.project_decks()[0]), "the deck")
    limits = editing.limits
    types = [f"Kind{k:02d}".ljust(limits.type, "x") for k in range(limits.types)]
    draw = '{step = "draw", who = "next", count = 1}'
    option = ('{label = "' + "Option".ljust(50, "o") + '", effects = [' + ", ".join([draw] * 3) + "]}")
    choose = "options = [" + ", ".join([option] * 6) + "]"
    form = copy.deepcopy(form)
    form["types"] = types
    form["description"] = "d" * limits.description
    for card in form["cards"]:
        card["name"] = (card["name"] + " " + "n" * limits.card_name)[:limits.card_name]
        card["types"] = types
        card["action"]["text"] = "t" * limits.text
        card["action"]["steps"] = [{"step": "choose", "fields": choose}] * 3
    return form, editing.checked(form)


def serve(port: int, data: Path) -> subprocess.Popen[str]:
    cardroom = Path(sys.executable).with_name("cardroom")
    server = subprocess.Popen(
        [str(cardroom), "serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(data),
         "--bot-delay", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, CARDROOM_TABLES_PER_ADDRESS="100"),
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            call(port, "GET", "/healthz")
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start")


def cpu_seconds(pid: int) -> float:
    """CPU seconds of ``pid`` and the processes below it (its worker processes)."""
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    with_children = Path(f"/proc/{pid}/task")
    if with_children.exists():
        for task in with_children.iterdir():
            children = task / "children"
            if children.exists():
                pids += [int(x) for x in children.read_text().split()]
    for each in pids:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


# -- the abusers (in a process of their own) -------------------------------------------------


def _abuse_http(port: int, method: str, path: str, body: bytes | None, clients: int, seconds: float,
                out: Any) -> None:
    counts: dict[str, int] = {}
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def one(k: int) -> None:
        source = f"127.0.3.{k + 1}"
        while time.monotonic() < stop:
            try:
                status, _ = call(port, method, path, body, source=source)
                key = str(status)
            except OSError as err:
                key = type(err).__name__
                time.sleep(0.05)
            with lock:
                counts[key] = counts.get(key, 0) + 1

    threads = [threading.Thread(target=one, args=(k,)) for k in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.put(counts)


def _abuse_hints(port: int, seats: list[tuple[str, str, str]], seconds: float, out: Any) -> None:
    from websockets.sync.client import connect

    counts: dict[str, int] = {}
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def one(table_id: str, token: str, source: str) -> None:
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}", max_size=2**24,
                     source_address=(source, 0)) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            seq = None
            while seq is None:
                message = json.loads(ws.recv(timeout=30))
                if message["type"] == "update" and message.get("moves"):
                    seq = message["seq"]
            while time.monotonic() < stop:
                ws.send(json.dumps({"type": "hint", "seq": seq}))
                try:
                    message = json.loads(ws.recv(timeout=max(0.01, stop - time.monotonic())))
                except TimeoutError:
                    break
                key = message["type"] if message["type"] != "error" else f"error:{message['code']}"
                with lock:
                    counts[key] = counts.get(key, 0) + 1

    threads = [threading.Thread(target=one, args=seat) for seat in seats]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.put(counts)


# -- the measured table ----------------------------------------------------------------------


async def measure(port: int, table_id: str, token: str, seconds: float) -> dict[str, list[float]]:
    """The person's acknowledgements and the bots' moves, in ms, over ``seconds``."""
    acks: list[float] = []
    bots: list[float] = []
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}", max_size=2**24) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent: tuple[int, float] | None = None
        last_update: dict[str, Any] | None = None
        last = time.perf_counter()
        stop = time.perf_counter() + seconds
        while time.perf_counter() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop - time.perf_counter()))
            except TimeoutError:
                break
            now = time.perf_counter()
            message = json.loads(raw)
            if message.get("type") == "error" and sent is not None and last_update is not None:
                # refused (a stale seq, say): the move is made again on the newest position
                message, sent = last_update, None
            if message.get("type") != "update":
                continue
            last_update = message
            seq = message["seq"]
            if sent is not None and seq > sent[0]:
                acks.append(1000 * (now - sent[1]))
                sent = None
            elif sent is None and seq > 0:
                bots.append(1000 * (now - last))
            last = now
            moves = message.get("moves") or []
            if moves and sent is None:
                sent = (seq, time.perf_counter())
                await ws.send(json.dumps({"type": "act", "action": moves[0]["action"], "seq": seq}))
    return {"ack": acks, "bot": bots}


def pct(values: list[float], p: float) -> float | None:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))], 2) if ordered else None


def table(port: int, source: str) -> tuple[str, str]:
    body = json.dumps({"game": GAME, "players": 4, "rules": LONG, "name": "Ada",
                       "seats": ["human", "heuristic", "heuristic", "heuristic"]}).encode()
    status, text = call(port, "POST", "/api/tables", body, source=source)
    if status != 200:
        raise SystemExit(f"a table could not be made: {status} {text[:300]!r}")
    made = json.loads(text)
    return made["id"], made["token"]


def run(args: argparse.Namespace) -> dict[str, Any]:
    form, text = big_deck()
    form_bytes = json.dumps(form).encode()
    phases: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="cardroom-abuse-") as tmp:
        port = free_port()
        server = serve(port, Path(tmp))
        context = multiprocessing.get_context("spawn")
        try:
            table_id, token = table(port, "127.0.2.1")
            status, opened = call(port, "POST", "/api/studio/decks",
                                  json.dumps({"deck_toml": text, "deck_file": "big.toml"}).encode(),
                                  source="127.0.2.2")
            if status != 200:
                raise SystemExit(f"the big deck could not be opened: {status} {opened[:300]!r}")
            deck_id = json.loads(opened)["id"]
            seats = []
            for k in range(args.hint_seats):
                hint_table, hint_token = table(port, f"127.0.4.{k + 1}")
                seats.append((hint_table, hint_token, f"127.0.4.{k + 1}"))
            asyncio.run(measure(port, table_id, token, 2.0))  # warm up: every import, every thread
            abuses: list[tuple[str, Any, tuple[Any, ...]]] = [
                ("alone", None, ()),
                ("check", _abuse_http, (port, "POST", "/api/studio/check", form_bytes, args.clients)),
                ("deck", _abuse_http, (port, "GET", f"/api/studio/decks/{deck_id}", None, args.clients)),
                ("hints", _abuse_hints, (port, seats)),
            ]
            for index, (name, target, targs) in enumerate(abuses):
                if args.only and name not in args.only and name != "alone":
                    continue
                if index:  # a new game each phase: a long one still ends after some thousands of moves
                    table_id, token = table(port, f"127.0.2.{10 + index}")
                    asyncio.run(measure(port, table_id, token, 0.5))
                load_before = os.getloadavg()
                cpu_before = cpu_seconds(server.pid)
                queue = context.Queue()
                abuser = None
                if target is not None:
                    abuser = context.Process(target=target, args=(*targs, args.seconds + 1.0, queue))
                    abuser.start()
                    time.sleep(1.0)  # the abuse under way before the table is timed
                began = time.perf_counter()
                timed = asyncio.run(measure(port, table_id, token, args.seconds))
                elapsed = time.perf_counter() - began
                counts = {}
                if abuser is not None:
                    counts = queue.get(timeout=120)
                    abuser.join(30)
                cpu = cpu_seconds(server.pid) - cpu_before
                phases.append({
                    "abuse": name, "acks": len(timed["ack"]),
                    "ack_p50_ms": pct(timed["ack"], 50), "ack_p90_ms": pct(timed["ack"], 90),
                    "ack_max_ms": pct(timed["ack"], 100),
                    "bot_p50_ms": pct(timed["bot"], 50), "bot_p90_ms": pct(timed["bot"], 90),
                    "bot_max_ms": pct(timed["bot"], 100),
                    "abusers": counts, "server_cpu_s": round(cpu, 1), "seconds": round(elapsed, 1),
                    "load_before": [round(x, 2) for x in load_before],
                    "load_after": [round(x, 2) for x in os.getloadavg()],
                })
        finally:
            server.terminate()
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
    alone = phases[0]["ack_p50_ms"] or 0.0
    for phase in phases[1:]:
        phase["goal_met"] = phase["ack_p50_ms"] is not None and phase["ack_p50_ms"] <= 2 * alone
    return {"deck_file_kib": len(text.encode()) // 1024, "form_kib": len(form_bytes) // 1024,
            "clients": args.clients, "hint_seats": args.hint_seats, "cpus": os.cpu_count(), "phases": phases}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="each phase's measured time")
    parser.add_argument("--clients", type=int, default=6, help="studio abusers (check, deck)")
    parser.add_argument("--hint-seats", type=int, default=10, help="seats asking for hints")
    parser.add_argument("--only", nargs="*", choices=("check", "deck", "hints"), help="only these abuses")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"a deck file of {result['deck_file_kib']} KiB (its form {result['form_kib']} KiB); "
          f"{result['clients']} studio abusers, {result['hint_seats']} hint seats; {result['cpus']} cores")
    for p in result["phases"]:
        goal = "" if p.get("goal_met", True) else "  (NOT within twice alone)"
        print(f"{p['abuse']:>6}: ack p50 {p['ack_p50_ms']} ms, p90 {p['ack_p90_ms']}, max {p['ack_max_ms']} "
              f"({p['acks']} actions); bots p50 {p['bot_p50_ms']} ms, p90 {p['bot_p90_ms']}, "
              f"max {p['bot_max_ms']}; "
              f"abusers {p['abusers'] or '-'}; server CPU {p['server_cpu_s']} s in {p['seconds']} s; "
              f"load {p['load_before']} -> {p['load_after']}{goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
