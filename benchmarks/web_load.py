"""Load on the web table: N tables, M WebSocket clients each, on loopback, bounded in time.

Starts ``cardroom serve`` on a free loopback port with a new SQLite database, creates
``--tables`` tables of ``--game`` whose first ``--clients`` seats are people and the rest
bots, and connects one WebSocket client per person. Each client plays a random legal move
when its turn comes: at once (the hardest load), or after ``--think`` seconds on average.
For every accepted action the clock runs from the moment the acting client sends it to the
moment each *other* client of the table receives the update that carries it (all clients
live in this process, so one clock serves). Games are long (``LONG_GAME``) so the load holds.
The run stops after ``--seconds`` and prints actions per second and the p50, p99 and maximum
latency; ``--json`` prints the same as JSON.

    python benchmarks/web_load.py --tables 50 --clients 4 --seconds 30
    python benchmarks/web_load.py --tables 200 --think 0.5 --seconds 30
    python benchmarks/web_load.py --tables 1 --think 0.5 --search-tables 50 --seconds 30

``--search-tables N`` adds N tables of ISMCTS bots only (``--search-bot``), searching all the
while in the background; they are not measured, but the actions they took are counted.

The clients share the machine with the server: on a 2-core machine the load generator
itself takes part of the CPU, so the figures are an upper bound on latency. The run reports
the CPU seconds the server (with its bot workers) and the clients used, and the load average
before and after, so a figure can be read against what else the machine was doing.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

GOAL_P99_MS = 100.0
LONG_GAME = {"baha": {"target": 10000}, "baebae": {"rounds": 100}}
"""Rules that keep a game going for the whole run, so the load does not fall as games end."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def address_of(k: int) -> str:
    """The loopback address table ``k``'s people connect from: the server limits what one
    address may do (tables it creates, connections it holds), as it would for real people."""
    return f"127.1.{k // 200}.{k % 200 + 1}"


def api(base: str, method: str, path: str, body: dict[str, Any] | None = None,
        source: str = "127.0.0.1") -> Any:
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        text = answer.read()
        if answer.status != 200:
            raise SystemExit(f"{method} {path}: {answer.status} {text.decode(errors='replace')}")
        return json.loads(text)
    finally:
        connection.close()


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user and system) used so far by ``pid`` and every process below it."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    total = 0.0
    for proc, seconds in used.items():
        up = proc
        while up not in (pid, 0, 1) and up in parents:
            up = parents[up]
        if up == pid:
            total += seconds
    return total


def start_server(port: int, data: Path, bot_workers: int) -> subprocess.Popen[bytes]:
    cardroom = Path(sys.executable).with_name("cardroom")
    server = subprocess.Popen(
        [str(cardroom), "serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(data)]
        + (["--bot-workers", str(bot_workers)] if bot_workers != 1 else []),  # so older servers run too
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped: {server.stderr.read().decode() if server.stderr else ''}")
        try:
            api(base, "GET", "/api/catalog")
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not answer within 30 s")


class Table:
    """The clients of one table, and when each action was sent."""

    def __init__(self, table_id: str, clients: int) -> None:
        self.id = table_id
        self.sent: dict[int, float] = {}  # seq of the update an action produces -> send time
        self.received: dict[int, int] = {}  # seq -> how many other clients have it
        self.actor: dict[int, int] = {}  # seq -> which client acted
        self.clients = clients


async def client(url: str, token: str, index: int, table: Table, rng: random.Random,
                 stop: asyncio.Event, latencies: list[float], counts: dict[str, int], think: float,
                 source: str, window: list[float]) -> None:
    """One person at a table; actions sent before ``window[0]`` (the end of the warm-up) are
    played but not timed or counted."""
    acted = -1  # the seq last acted on: a repeated update (a seat connecting) is not a new turn
    async with websockets.connect(url, max_size=2**22, local_addr=(source, 0)) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
            except TimeoutError:
                continue
            now = time.perf_counter()
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "error":
                counts["errors"] += 1
                code = str(message.get("code"))
                counts["error:" + code] = counts.get("error:" + code, 0) + 1
                continue
            if kind == "welcome":
                counts["welcomed"] += 1
            if kind != "update":
                continue
            seq = message["seq"]
            sent = table.sent.get(seq)
            if sent is not None and sent >= window[0] and table.actor.get(seq) != index:
                latencies.append(now - sent)
            if message["view"].get("phase") == "over" or message["table"].get("status") == "over":
                counts["games_over"] += index == 0
                return
            moves = message.get("moves") or []
            if moves and seq != acted:
                acted = seq
                move = moves[rng.randrange(len(moves))]
                if think > 0:
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                table.sent[seq + 1] = time.perf_counter()
                table.actor[seq + 1] = index
                counts["actions"] += table.sent[seq + 1] >= window[0]
                await ws.send(json.dumps({"type": "act", "action": move["action"], "seq": seq}))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="cardroom-load-") as tmp:
        server = start_server(port, Path(tmp), args.bot_workers)
        try:
            searching = [
                api(base, "POST", "/api/tables", {
                    "game": args.game, "players": args.players, "rules": LONG_GAME[args.game],
                    "seats": [args.search_bot] * args.players,
                }, source=address_of(args.tables + k))["id"]
                for k in range(args.search_tables)
            ]
            seats = ["human"] * args.clients + ["heuristic"] * (args.players - args.clients)
            tables = []
            for n in range(args.tables):
                summary = api(base, "POST", "/api/tables", {
                    "game": args.game, "players": args.players, "rules": LONG_GAME[args.game], "seats": seats,
                }, source=address_of(n))
                tokens = [api(base, "POST", f"/api/tables/{summary['id']}/join",
                              {"name": f"P{k}"}, source=address_of(n))["token"] for k in range(args.clients)]
                tables.append((Table(summary["id"], args.clients), tokens))
            stop = asyncio.Event()
            latencies: list[float] = []
            counts = {"actions": 0, "errors": 0, "games_over": 0, "welcomed": 0}
            window = [float("inf")]
            rng = random.Random(args.seed)
            tasks = [
                asyncio.create_task(client(f"ws://127.0.0.1:{port}/ws/tables/{t.id}", token, k, t,
                                           random.Random(rng.random()), stop, latencies, counts,
                                           args.think, address_of(n), window))
                for n, (t, tokens) in enumerate(tables) for k, token in enumerate(tokens)
            ]
            # The clock starts once every client is seated and the warm-up has passed: the
            # figures are of play, not of hundreds of clients connecting at once.
            ready_by = time.perf_counter() + 120
            while counts["welcomed"] < len(tasks) and time.perf_counter() < ready_by:
                await asyncio.sleep(0.1)
            await asyncio.sleep(args.warmup)
            load_before = os.getloadavg()
            start = window[0] = time.perf_counter()
            server_cpu = cpu_seconds(server.pid)
            client_cpu = time.process_time()
            done, _ = await asyncio.wait(tasks, timeout=args.seconds)
            stop.set()
            elapsed = time.perf_counter() - start
            server_cpu = cpu_seconds(server.pid) - server_cpu
            client_cpu = time.process_time() - client_cpu
            load_after = os.getloadavg()
            await asyncio.wait(tasks, timeout=5)
            for task in tasks:
                task.cancel()
            failures = [t.exception() for t in done if not t.cancelled() and t.exception()]
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        search_actions = 0
        if searching:
            with sqlite3.connect(Path(tmp) / "cardroom.db") as db:
                marks = ",".join("?" * len(searching))
                search_actions = db.execute(
                    f"SELECT COUNT(*) FROM actions WHERE table_id IN ({marks})", searching
                ).fetchone()[0]
    ms = sorted(x * 1000 for x in latencies)

    def pct(p: float) -> float:
        return ms[min(len(ms) - 1, int(p / 100 * len(ms)))] if ms else float("nan")

    return {
        "game": args.game, "tables": args.tables, "think": args.think, "clients_per_table": args.clients,
        "players": args.players, "warmup": args.warmup, "seconds": round(elapsed, 2),
        "actions": counts["actions"],
        "actions_per_second": round(counts["actions"] / elapsed, 1),
        "deliveries": len(ms), "p50_ms": round(pct(50), 2), "p99_ms": round(pct(99), 2),
        "max_ms": round(ms[-1], 2) if ms else None, "mean_ms": round(statistics.fmean(ms), 2) if ms else None,
        "errors": counts["errors"],
        "error_codes": {k[6:]: v for k, v in counts.items() if k.startswith("error:")},
        "client_failures": [repr(f) for f in failures][:5],
        "games_over": counts["games_over"], "goal_p99_ms": GOAL_P99_MS,
        "goal_met": bool(ms) and pct(99) < GOAL_P99_MS, "cpus": os.cpu_count(),
        "search_tables": args.search_tables, "search_bot": args.search_bot,
        "search_actions": search_actions, "bot_workers": args.bot_workers,
        "server_cpu_s": round(server_cpu, 1), "client_cpu_s": round(client_cpu, 1),
        "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in load_after],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--clients", type=int, default=4, help="people (WebSocket clients) per table")
    parser.add_argument("--players", type=int, default=4, help="seats per table (the rest are bots)")
    parser.add_argument("--game", default="baha", choices=["baha", "baebae"])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a client waits before its move (0: at once, the hardest load)")
    parser.add_argument("--search-tables", type=int, default=0,
                        help="tables of search bots only, searching in the background (not measured)")
    parser.add_argument("--search-bot", default="ismcts", help="the bot spec at every seat of those tables")
    parser.add_argument("--bot-workers", type=int, default=1, help="the server's --bot-workers")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds of play after every client is seated before the clock starts")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.clients <= args.players:
        parser.error("--clients must be from 1 to --players")
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{result['tables']} {result['game']} tables x {result['clients_per_table']} clients, "
              f"think {result['think']} s, measured {result['seconds']} s after a {result['warmup']} s "
              f"warm-up, on {result['cpus']} cores")
        print(f"actions: {result['actions']} ({result['actions_per_second']}/s), "
              f"updates timed: {result['deliveries']}, "
              f"errors: {result['errors']} {result['error_codes'] or ''}")
        print(f"latency action -> other clients: p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms, "
              f"max {result['max_ms']} ms (goal p99 < {GOAL_P99_MS:.0f} ms: "
              f"{'met' if result['goal_met'] else 'NOT met'})")
        if result["search_tables"]:
            print(f"background: {result['search_tables']} tables of {result['search_bot']} only, "
                  f"{result['search_actions']} actions taken there, bot workers {result['bot_workers']}")
        print(f"CPU seconds over the run: server (with bot workers) {result['server_cpu_s']}, "
              f"clients {result['client_cpu_s']}; load average before {result['load_before']}, "
              f"after {result['load_after']}")
        if result["client_failures"]:
            print("client failures:", *result["client_failures"], sep="\n  ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
