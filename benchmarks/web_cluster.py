"""Several ``cardroom serve`` on one PostgreSQL and one Redis (cardroom.web.cluster), on loopback,
bounded in time. A throwaway PostgreSQL cluster and redis-server of the benchmark's own
(Debian's binaries, as the tests use: tests/web/postgres_support.py, redis_support.py).

``load``: ``--servers`` nodes, ``--tables`` tables of four people, each person a WebSocket
client (``web_load.py``'s) that moves after ``--think`` seconds on average. Table ``n`` is made
at node ``n % servers`` and its ``k``-th person joins and connects through node
``(n + k) % servers``, as a balancer in front would spread them: with two nodes, half the
people reach their table through the other node, which relays them. Prints actions per
second, the p50/p99/max latency from an action to the other clients' update, and the CPU
seconds of the nodes and of PostgreSQL and Redis over the measured time.

    python benchmarks/web_cluster.py load --servers 2 --tables 400 --think 2 --seconds 30

``failover``: two nodes, ``--tables`` tables of four people playing fast; ``--kills`` times,
every ``--every`` seconds, the node holding most tables is killed (``SIGKILL``) and started again
on its port. Clients connect again by themselves (to the next node). For every table and kill,
the time from the kill to the table's next action is its resume time (max and p99 printed);
at the end every action a client saw acknowledged (the update it produced came back) is
looked for in the database at its seq with its seat and move, every table's seqs are checked
to run 1..N with none twice, and every seat's stored token to be the one its person holds.

    python benchmarks/web_cluster.py failover --tables 40 --kills 10 --every 6

``restarts``: two nodes, ``--tables`` tables playing fast; after ``--every`` seconds Redis is
killed and started again, empty (nothing of it is saved); ``--every`` seconds later PostgreSQL
is restarted (``pg_ctl restart -m fast``). Prints, for each, the longest time a table went
without an action around it, the errors the clients were sent (by code), the connections
that ended, and at the end the same checks of acknowledged actions as ``failover``.

    python benchmarks/web_cluster.py restarts --tables 20 --every 8
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets
from web_load import LONG_GAME, Table, address_of, api, client, cpu_seconds, free_port

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))

from postgres_support import PostgresCluster, postgres_bin  # noqa: E402
from redis_support import RedisServer, redis_bin  # noqa: E402

GOAL_P99_MS = 100.0
GOAL_RESUME_S = 5.0


class Node:
    def __init__(self, port: int, data: Path, database: str, redis_url: str) -> None:
        self.port, self.data, self.database, self.redis_url = port, data, database, redis_url
        self.base = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        cardroom = Path(sys.executable).with_name("cardroom")
        self.proc = subprocess.Popen(
            [str(cardroom), "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--data", str(self.data), "--database", self.database, "--redis", self.redis_url,
             "--forwarded-allow-ips", "127.0.0.1", "--bot-delay", "0", "--log-json"],
            stdout=subprocess.DEVNULL, stderr=open(self.data.with_suffix(".log"), "ab"),  # noqa: SIM115
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"the node stopped: {self.data.with_suffix('.log').read_text()[-2000:]}")
            try:
                api(self.base, "GET", "/healthz")
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("the node did not answer within 30 s")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class Parts:
    """PostgreSQL and Redis of the benchmark's own."""

    def __init__(self) -> None:
        pg, rs = postgres_bin(), redis_bin()
        if pg is None or rs is None:
            raise SystemExit("needs Debian's postgresql and redis-server (make postgres redis)")
        self.pg = PostgresCluster(pg)
        try:
            self.redis = RedisServer(rs)
        except BaseException:
            self.pg.stop()
            raise
        self.database = self.pg.database()

    def cpu(self) -> float:
        postmaster = int((self.pg.data / "postmaster.pid").read_text().split()[0])
        assert self.redis.proc is not None
        return cpu_seconds(postmaster) + cpu_seconds(self.redis.proc.pid)

    def stop(self) -> None:
        try:
            self.redis.stop()
        finally:
            self.pg.stop()


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


async def run_load(args: argparse.Namespace) -> dict[str, Any]:
    parts = Parts()
    nodes: list[Node] = []
    try:
        with tempfile.TemporaryDirectory(prefix="cardroom-cluster-") as tmp:
            for k in range(args.servers):
                nodes.append(Node(free_port(), Path(tmp) / f"n{k}", parts.database, parts.redis.url))
            tables = []
            for n in range(args.tables):
                at = nodes[n % len(nodes)].base
                summary = await asyncio.to_thread(api, at, "POST", "/api/tables", {
                    "game": "baha", "players": 4, "rules": LONG_GAME["baha"], "seats": ["human"] * 4,
                }, address_of(n))
                tokens = []
                for k in range(4):
                    via = nodes[(n + k) % len(nodes)].base
                    joined = await asyncio.to_thread(api, via, "POST", f"/api/tables/{summary['id']}/join",
                                                     {"name": f"P{k}"}, address_of(n))
                    tokens.append(joined["token"])
                tables.append((Table(summary["id"], 4), tokens))
            stop = asyncio.Event()
            latencies: list[float] = []
            counts = {"actions": 0, "errors": 0, "games_over": 0, "welcomed": 0}
            window = [float("inf")]
            rng = random.Random(args.seed)
            tasks = [
                asyncio.create_task(client(
                    f"ws://127.0.0.1:{nodes[(n + k) % len(nodes)].port}/ws/tables/{t.id}", token, k, t,
                    random.Random(rng.random()), stop, latencies, counts, args.think, address_of(n), window))
                for n, (t, tokens) in enumerate(tables) for k, token in enumerate(tokens)
            ]
            ready_by = time.perf_counter() + 120
            while counts["welcomed"] < len(tasks) and time.perf_counter() < ready_by:
                await asyncio.sleep(0.1)
            await asyncio.sleep(args.warmup)
            load_before = os.getloadavg()
            start = window[0] = time.perf_counter()
            pids = [n.proc.pid for n in nodes if n.proc is not None]
            node_cpu = sum(cpu_seconds(p) for p in pids)
            parts_cpu = parts.cpu()
            client_cpu = time.process_time()
            done, _ = await asyncio.wait(tasks, timeout=args.seconds)
            stop.set()
            elapsed = time.perf_counter() - start
            node_cpu = sum(cpu_seconds(p) for p in pids) - node_cpu
            parts_cpu = parts.cpu() - parts_cpu
            client_cpu = time.process_time() - client_cpu
            load_after = os.getloadavg()
            await asyncio.wait(tasks, timeout=5)
            for task in tasks:
                task.cancel()
            failures = [t.exception() for t in done if not t.cancelled() and t.exception()]
            for node in nodes:
                node.stop()
    finally:
        for node in nodes:
            node.kill()
        parts.stop()
    ms = [x * 1000 for x in latencies]
    actions = counts["actions"]
    return {
        "mode": "load", "servers": args.servers, "tables": args.tables, "think": args.think,
        "seconds": round(elapsed, 2), "actions": actions, "actions_per_second": round(actions / elapsed, 1),
        "deliveries": len(ms), "p50_ms": round(pct(ms, 50), 2), "p99_ms": round(pct(ms, 99), 2),
        "max_ms": round(max(ms), 2) if ms else None,
        "mean_ms": round(statistics.fmean(ms), 2) if ms else None,
        "errors": counts["errors"],
        "error_codes": {k[6:]: v for k, v in counts.items() if k.startswith("error:")},
        "client_failures": [repr(f) for f in failures][:5], "goal_p99_ms": GOAL_P99_MS,
        "goal_met": bool(ms) and pct(ms, 99) < GOAL_P99_MS,
        "node_cpu_s": round(node_cpu, 1), "postgres_redis_cpu_s": round(parts_cpu, 1),
        "client_cpu_s": round(client_cpu, 1),
        "node_cpu_ms_per_action": round(1000 * node_cpu / actions, 3) if actions else None,
        "all_server_cpu_ms_per_action":
            round(1000 * (node_cpu + parts_cpu) / actions, 3) if actions else None,
        "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in load_after],
        "cpus": os.cpu_count(),
    }


class Watched:
    """One table in the failover run: its newest seq, and when it moved again after each kill."""

    def __init__(self, table_id: str, tokens: list[str]) -> None:
        self.id = table_id
        self.tokens = tokens
        self.seq = 0
        self.marks: list[list[float | None]] = []  # [kill time, seq then, resumed at]
        self.moved: list[float] = []  # when its seq went forward

    def saw(self, seq: int, now: float) -> None:
        if seq > self.seq:
            self.moved.append(now)
        self.seq = max(self.seq, seq)
        for mark in self.marks:
            if mark[2] is None and seq > float(mark[1] or 0):
                mark[2] = now


async def player(nodes: list[Node], table: Watched, k: int, rng: random.Random, stop: asyncio.Event,
                 acked: list[tuple[str, int, int, int]], counts: dict[str, int], think: float,
                 source: str) -> None:
    """One person: plays, and connects again (to the next node) whenever the connection ends."""
    which = k
    while not stop.is_set():
        node = nodes[which % len(nodes)]
        which += 1
        pending: tuple[int, int] | None = None
        acted = -1
        try:
            async with websockets.connect(f"ws://127.0.0.1:{node.port}/ws/tables/{table.id}", open_timeout=5,
                                          local_addr=(source, 0), max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello", "token": table.tokens[k]}))
                while not stop.is_set():
                    try:
                        raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
                    except TimeoutError:
                        continue
                    message = json.loads(raw)
                    if message.get("type") == "welcome":
                        counts["connects"] += 1
                    if message.get("type") == "error":
                        code = "error:" + str(message.get("code"))
                        counts[code] = counts.get(code, 0) + 1
                        if message.get("code") == "server_error" and pending is not None:
                            # "nothing changed, try again": as a person would, a moment later
                            await asyncio.sleep(0.2)
                            again = {"type": "act", "action": pending[1], "seq": pending[0]}
                            await ws.send(json.dumps(again))
                    if message.get("type") != "update":
                        continue
                    seq = message["seq"]
                    table.saw(seq, time.monotonic())
                    if pending is not None and seq == pending[0] + 1:
                        acked.append((table.id, seq, k, pending[1]))
                        pending = None
                    moves = message.get("moves") or []
                    if moves and seq != acted:
                        acted = seq
                        move = moves[rng.randrange(len(moves))]["action"]
                        await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                        pending = (seq, move)
                        await ws.send(json.dumps({"type": "act", "action": move, "seq": seq}))
        except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as err:
            counts["dropped"] += 1
            kind = "ended:" + type(err).__name__
            counts[kind] = counts.get(kind, 0) + 1
        await asyncio.sleep(rng.uniform(0.2, 0.5))  # a retry, milder than a storm (the page waits 1 s)


def taken_over(r: Any, victim: str | None, tables: int, since: float) -> float | None:
    """Seconds from ``since`` until no lease names ``victim`` and every table has one (the
    servers' part of a failover, without the clients'); ``None`` if not within 20 s."""
    while time.monotonic() - since < 20:
        holders = [r.get(key) for key in r.scan_iter("cardroom:lease:*")]
        if victim not in holders and sum(1 for h in holders if h) >= tables:
            return round(time.monotonic() - since, 2)
        time.sleep(0.05)
    return None


async def run_failover(args: argparse.Namespace) -> dict[str, Any]:
    import redis

    parts = Parts()
    nodes: list[Node] = []
    kills: list[float] = []
    takeovers: list[float | None] = []
    try:
        with tempfile.TemporaryDirectory(prefix="cardroom-failover-") as tmp:
            for k in range(2):
                nodes.append(Node(free_port(), Path(tmp) / f"n{k}", parts.database, parts.redis.url))
            tables = []
            for n in range(args.tables):
                summary = api(nodes[n % 2].base, "POST", "/api/tables", {
                    "game": "baha", "players": 4, "rules": LONG_GAME["baha"], "seats": ["human"] * 4,
                }, address_of(n))
                tokens = [api(nodes[(n + k) % 2].base, "POST", f"/api/tables/{summary['id']}/join",
                              {"name": f"P{k}"}, address_of(n))["token"] for k in range(4)]
                tables.append(Watched(summary["id"], tokens))
            stop = asyncio.Event()
            acked: list[tuple[str, int, int, int]] = []
            counts = {"connects": 0, "dropped": 0}
            rng = random.Random(args.seed)
            tasks = [asyncio.create_task(player(nodes, t, k, random.Random(rng.random()), stop, acked, counts,
                                                args.think, address_of(n)))
                     for n, t in enumerate(tables) for k in range(4)]
            await asyncio.sleep(args.warmup)
            load_before = os.getloadavg()
            r = redis.Redis.from_url(parts.redis.url, decode_responses=True)
            for _ in range(args.kills):
                owners: dict[str, int] = {}
                for key in r.scan_iter("cardroom:lease:*"):
                    holder = r.get(key)
                    if holder:
                        owners[holder] = owners.get(holder, 0) + 1
                addresses = {r.get(f"cardroom:node:{h}"): n for h, n in owners.items()}
                victim = max(nodes, key=lambda node: addresses.get(node.base, 0))
                victim_id = next((h for h in owners if r.get(f"cardroom:node:{h}") == victim.base), None)
                for t in tables:
                    t.marks.append([None, float(t.seq), None])
                now = time.monotonic()
                victim.kill()
                for t in tables:
                    t.marks[-1][0] = now
                kills.append(now)
                watch = asyncio.create_task(asyncio.to_thread(taken_over, r, victim_id, len(tables), now))
                await asyncio.to_thread(victim.start)
                takeovers.append(await watch)
                await asyncio.sleep(max(0.0, args.every - (time.monotonic() - now)))
            await asyncio.sleep(2)
            stop.set()
            await asyncio.wait(tasks, timeout=5)
            for task in tasks:
                task.cancel()
            load_after = os.getloadavg()
            r.close()
            for node in nodes:
                node.stop()
        found = checks(parts.database, tables, acked)
    finally:
        for node in nodes:
            node.kill()
        parts.stop()
    resumes = [float(m[2]) - float(m[0]) for t in tables for m in t.marks
               if m[0] is not None and m[2] is not None]
    unresumed = sum(1 for t in tables for m in t.marks if m[2] is None)
    per_kill = [round(max((float(t.marks[i][2]) - float(t.marks[i][0]) for t in tables
                           if t.marks[i][2] is not None and t.marks[i][0] is not None), default=0.0), 2)
                for i in range(len(kills))]
    return {
        "mode": "failover", "tables": args.tables, "kills": len(kills), "every_s": args.every,
        "think": args.think, "resume_max_s": round(max(resumes), 2) if resumes else None,
        "resume_p99_s": round(pct(resumes, 99), 2) if resumes else None,
        "resume_p50_s": round(pct(resumes, 50), 2) if resumes else None,
        "resumes": len(resumes), "never_resumed": unresumed, "resume_max_per_kill_s": per_kill,
        "takeover_per_kill_s": takeovers,
        "goal_resume_s": GOAL_RESUME_S,
        "goal_met": bool(resumes) and max(resumes) < GOAL_RESUME_S and unresumed == 0,
        **found,
        "connects": counts["connects"], "dropped_connections": counts["dropped"],
        "ended_by": {k[6:]: v for k, v in counts.items() if k.startswith("ended:")},
        "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in load_after],
        "cpus": os.cpu_count(),
    }


def checks(database: str, tables: list[Watched], acked: list[tuple[str, int, int, int]]) -> dict[str, int]:
    """Acknowledged actions looked for in the database, seqs without a gap or a twin, seats
    holding their holders' tokens."""
    import psycopg

    from cardroom.web.live import hash_token

    with psycopg.connect(database.replace("postgresql+psycopg", "postgresql")) as c:
        rows = c.execute("SELECT table_id, seq, seat, action FROM actions").fetchall()
        seats = c.execute("SELECT table_id, seat, token_hash FROM seats").fetchall()
    stored = {(t, s): (seat, a) for t, s, seat, a in rows}
    by_table: dict[str, list[int]] = {}
    for t, s, _seat, _a in rows:
        by_table.setdefault(t, []).append(s)
    held = {(t.id, k): hash_token(tok) for t in tables for k, tok in enumerate(t.tokens)}
    return {
        "acknowledged": len(acked),
        "acknowledged_lost": sum(1 for t, s, seat, a in acked if stored.get((t, s)) != (seat, a)),
        "actions_stored": len(rows),
        "tables_with_a_gap_or_twice": sum(1 for seqs in by_table.values()
                                          if sorted(seqs) != list(range(1, len(seqs) + 1))),
        "seats_not_their_holders": sum(1 for t, seat, h in seats
                                       if (t, seat) in held and held[(t, seat)] != h),
    }


def stall_around(tables: list[Watched], at: float, span: float) -> float:
    """The longest time any table went without an action, over the ``span`` seconds from ``at``."""
    worst = 0.0
    for t in tables:
        times = [at] + [x for x in t.moved if at < x < at + span] + [at + span]
        later = [x for x in t.moved if x >= at + span]
        if len(times) == 2 and later:
            times[-1] = later[0]
        worst = max(worst, max(b - a for a, b in zip(times, times[1:], strict=False)))
    return worst


async def run_restarts(args: argparse.Namespace) -> dict[str, Any]:
    parts = Parts()
    nodes: list[Node] = []
    try:
        with tempfile.TemporaryDirectory(prefix="cardroom-restarts-") as tmp:
            for k in range(2):
                nodes.append(Node(free_port(), Path(tmp) / f"n{k}", parts.database, parts.redis.url))
            tables = []
            for n in range(args.tables):
                summary = api(nodes[n % 2].base, "POST", "/api/tables", {
                    "game": "baha", "players": 4, "rules": LONG_GAME["baha"], "seats": ["human"] * 4,
                }, address_of(n))
                tokens = [api(nodes[(n + k) % 2].base, "POST", f"/api/tables/{summary['id']}/join",
                              {"name": f"P{k}"}, address_of(n))["token"] for k in range(4)]
                tables.append(Watched(summary["id"], tokens))
            stop = asyncio.Event()
            acked: list[tuple[str, int, int, int]] = []
            counts = {"connects": 0, "dropped": 0}
            rng = random.Random(args.seed)
            tasks = [asyncio.create_task(player(nodes, t, k, random.Random(rng.random()), stop, acked, counts,
                                                args.think, address_of(n)))
                     for n, t in enumerate(tables) for k in range(4)]
            await asyncio.sleep(args.every)
            load_before = os.getloadavg()
            seen: dict[str, Any] = {}
            for part in ("redis", "postgresql"):
                before = dict(counts)
                at = time.monotonic()
                if part == "redis":
                    parts.redis.kill()
                    await asyncio.sleep(1.0)  # down a second, then back empty
                    await asyncio.to_thread(parts.redis.start)
                else:
                    await asyncio.to_thread(parts.pg.restart)
                took = time.monotonic() - at
                await asyncio.sleep(max(0.0, args.every - took))
                seen[part] = {
                    "down_s": round(took, 2),
                    "longest_stall_s": round(stall_around(tables, at, args.every), 2),
                    "errors": {k[6:]: counts.get(k, 0) - before.get(k, 0) for k in counts
                               if k.startswith("error:") and counts.get(k, 0) - before.get(k, 0)},
                    "connections_ended": counts["dropped"] - before["dropped"],
                }
            stop.set()
            await asyncio.wait(tasks, timeout=5)
            for task in tasks:
                task.cancel()
            load_after = os.getloadavg()
            for node in nodes:
                node.stop()
        found = checks(parts.database, tables, acked)
    finally:
        for node in nodes:
            node.kill()
        parts.stop()
    return {"mode": "restarts", "tables": args.tables, "every_s": args.every, "think": args.think, **seen,
            **found, "load_before": [round(x, 2) for x in load_before],
            "load_after": [round(x, 2) for x in load_after], "cpus": os.cpu_count()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    load = sub.add_parser("load")
    load.add_argument("--servers", type=int, default=2)
    load.add_argument("--tables", type=int, default=400)
    load.add_argument("--think", type=float, default=2.0)
    load.add_argument("--seconds", type=float, default=30.0)
    load.add_argument("--warmup", type=float, default=5.0)
    load.add_argument("--seed", type=int, default=1)
    fail = sub.add_parser("failover")
    fail.add_argument("--tables", type=int, default=40)
    fail.add_argument("--kills", type=int, default=10)
    fail.add_argument("--every", type=float, default=6.0)
    fail.add_argument("--think", type=float, default=0.05)
    fail.add_argument("--warmup", type=float, default=3.0)
    fail.add_argument("--seed", type=int, default=1)
    restarts = sub.add_parser("restarts")
    restarts.add_argument("--tables", type=int, default=20)
    restarts.add_argument("--every", type=float, default=8.0)
    restarts.add_argument("--think", type=float, default=0.05)
    restarts.add_argument("--seed", type=int, default=1)
    for each in (load, fail, restarts):
        each.add_argument("--json", action="store_true")
    args = parser.parse_args()
    run = {"load": run_load, "failover": run_failover, "restarts": run_restarts}[args.mode]
    result = asyncio.run(run(args))
    if args.json or result["mode"] == "restarts":
        print(json.dumps(result, indent=2))
        return 0
    if result["mode"] == "load":
        print(f"{result['servers']} node(s), {result['tables']} tables of four, think {result['think']} s, "
              f"measured {result['seconds']} s, {result['cpus']} cores")
        print(f"actions: {result['actions']} ({result['actions_per_second']}/s), updates timed "
              f"{result['deliveries']}, errors {result['errors']} {result['error_codes'] or ''}")
        print(f"latency action -> other clients: p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms, "
              f"max {result['max_ms']} ms (goal p99 < {GOAL_P99_MS:.0f} ms: "
              f"{'met' if result['goal_met'] else 'NOT met'})")
        print(f"CPU s: nodes {result['node_cpu_s']} ({result['node_cpu_ms_per_action']} ms an action), "
              f"PostgreSQL + Redis {result['postgres_redis_cpu_s']} (all servers "
              f"{result['all_server_cpu_ms_per_action']} ms an action), clients {result['client_cpu_s']}; "
              f"load average before {result['load_before']}, after {result['load_after']}")
        if result["client_failures"]:
            print("client failures:", *result["client_failures"], sep="\n  ")
    else:
        print(f"{result['kills']} kills (SIGKILL of the node holding most tables, every "
              f"{result['every_s']} s), "
              f"{result['tables']} tables of four playing (think {result['think']} s)")
        print(f"resume after a kill: max {result['resume_max_s']} s, p99 {result['resume_p99_s']} s, "
              f"p50 {result['resume_p50_s']} s over {result['resumes']} table-kills; never resumed "
              f"{result['never_resumed']} (goal < {GOAL_RESUME_S:.0f} s: "
              f"{'met' if result['goal_met'] else 'NOT met'})")
        print(f"the slowest table of each kill: {result['resume_max_per_kill_s']} s")
        print(f"every lease of the killed node taken by the other, after each kill: "
              f"{result['takeover_per_kill_s']} s")
        print(f"acknowledged actions {result['acknowledged']}, lost {result['acknowledged_lost']}; "
              f"actions stored {result['actions_stored']}; tables with a seq missing or twice "
              f"{result['tables_with_a_gap_or_twice']}; seats whose stored token is not their holder's "
              f"{result['seats_not_their_holders']}")
        print(f"connections: {result['connects']} welcomes, {result['dropped_connections']} ended by a kill "
              f"or refused ({result['ended_by']}); load average before {result['load_before']}, "
              f"after {result['load_after']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
