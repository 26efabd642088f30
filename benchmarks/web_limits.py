"""What one abusive client can do to the web table, bounded in count and time, on loopback.

Starts ``cardroom serve`` on a free port with a new data folder and, from one loopback
address each, tries what issue 9 reported:

1. ``--creates`` table creations as fast as it can (at most ``--seconds``): how many were
   made, how many refused (429), and whether another address can still create one;
2. ``--half-open`` connections that send half a request and stop: how many the server took,
   how many it refused at once, and how many of its file descriptors are still open a little
   after the request timeout;
3. a WebSocket watcher of a busy table that stops reading: when the server's side of its
   socket is gone;
4. a second ``cardroom serve`` on the same data folder: its exit status and its message;
5. big texts in a create request: the size of the refusal, and of a summary whose bot seats
   were padded to their 200 characters.

With ``--issue 18`` it tries what issue 18 reported instead, each bounded to seconds:

6. creates from loopback, each with a made-up ``X-Forwarded-For``: how many were accepted;
7. close then rematch, again and again, from one create: how many tables it made;
8. one player with tab after tab on her own token while another's tab reconnects: how many
   of his reconnects took his seat;
9. tables whose bots search a "bottomless" deck (every card makes its player draw, one
   ISMCTS iteration takes half a minute) and whose human seats nobody sits at, while a person
   plays at a table with an ISMCTS bot: the person's actions per second (and alone, first),
   and the bottomless tables' actions;
10. 50 replays at once from one address while a table of heuristic bots plays: how many were
    answered and refused, the bots' actions per second meanwhile, the catalog's p50;
11. clients that stop reading, at a busy table: the server's resident memory before, at its
    most, and after they are gone (``--stuck`` of them, from ten addresses);
12. a second server on the same database by a ``file:`` URI and by a hard link: exit status;
13. the server killed (SIGKILL) while its bot workers think: whether the workers are gone;
14. a close while the database is read-only (``chattr +i``): its answer and the summary after.

    python benchmarks/web_limits.py
    python benchmarks/web_limits.py --issue 18
    python benchmarks/web_limits.py --issue 18 --only 11 --stuck 90
"""

from __future__ import annotations

import argparse
import base64
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REQUEST_TIMEOUT = 10.0  # the server's (cardroom.web.guard.REQUEST_TIMEOUT)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(port: int, method: str, path: str, body: Any = None,
         source: str = "127.0.0.1") -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        connection.close()


def serve(port: int, data: Path) -> subprocess.Popen[str]:
    cardroom = Path(sys.executable).with_name("cardroom")
    server = subprocess.Popen(
        [str(cardroom), "serve", "--port", str(port), "--data", str(data), "--bot-delay", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            call(port, "GET", "/api/catalog")
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start")


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def server_side_open(port: int, address: str) -> int:
    peer = "".join(reversed([f"{int(x):02X}" for x in address.split(".")]))
    lines = Path("/proc/net/tcp").read_text().splitlines()[1:]
    return sum(1 for line in lines
               if int(line.split()[1].split(":")[1], 16) == port and line.split()[2].startswith(peer + ":")
               and line.split()[3] == "01")


def creates(port: int, count: int, seconds: float) -> None:
    made = refused = other = 0
    start = time.monotonic()
    for _ in range(count):
        if time.monotonic() - start > seconds:
            break
        status, _ = call(port, "POST", "/api/tables", {"game": "baha"}, source="127.0.0.2")
        made += status == 200
        refused += status == 429
        other += status not in (200, 429)
    elapsed = time.monotonic() - start
    status, _ = call(port, "POST", "/api/tables", {"game": "baha"}, source="127.0.0.3")
    print(f"1. {made + refused + other} creates from one address in {elapsed:.1f} s: {made} made, "
          f"{refused} refused with 429, {other} other; another address then: {status}")


def half_open(port: int, pid: int, count: int) -> None:
    before = open_fds(pid)
    socks = []
    taken = refused = 0
    for k in range(count):
        sock = socket.socket()
        sock.bind(("127.0.0.4", 0))
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{" if k % 2
                     else b"GET /api/catalog HTTP/1.1\r\nHo")
        socks.append(sock)
    time.sleep(0.5)
    for sock in socks:
        sock.settimeout(0.01)
        try:
            refused += sock.recv(100).startswith(b"HTTP/1.1 503")
        except TimeoutError:
            taken += 1
        except ConnectionResetError:
            refused += 1
    during = open_fds(pid)
    time.sleep(REQUEST_TIMEOUT + 1)
    after = open_fds(pid)
    for sock in socks:
        sock.close()
    print(f"2. {count} half-sent requests from one address: {taken} held, {refused} refused at once "
          f"(503); server file descriptors {before} before, {during} while held, "
          f"{after} {REQUEST_TIMEOUT + 1:g} s later")


def slow_reader(port: int) -> None:
    body = {"game": "baha", "players": 3, "seats": ["random"] * 3, "rules": {"target": 10000}}
    status, table = call(port, "POST", "/api/tables", body, source="127.0.0.5")
    if status != 200:
        print(f"3. a watcher that stops reading: no table to watch (create answered {status})")
        return
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind(("127.0.0.6", 0))
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws/tables/{table['id']} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    sock.recv(12)
    hello = json.dumps({"type": "hello", "token": None}).encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[k % 4] for k, b in enumerate(hello))
    sock.sendall(bytes([0x81, 0x80 | len(hello)]) + mask + masked)
    start = time.monotonic()
    while server_side_open(port, "127.0.0.6") and time.monotonic() - start < 60:
        time.sleep(0.05)
    gone = server_side_open(port, "127.0.0.6") == 0
    print(f"3. a watcher that stops reading: the server's side of its socket "
          f"{'gone after' if gone else 'still open after'} {time.monotonic() - start:.1f} s")
    sock.close()


def second_server(data: Path) -> None:
    cardroom = Path(sys.executable).with_name("cardroom")
    second = subprocess.Popen([str(cardroom), "serve", "--port", "0", "--data", str(data)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              env=dict(os.environ, COLUMNS="300"))
    try:
        _, err = second.communicate(timeout=15)
        print(f"4. a second server on the same database: exit status {second.returncode}, {err.strip()!r}")
    except subprocess.TimeoutExpired:
        second.kill()
        second.wait(10)
        print("4. a second server on the same database: still serving after 15 s (stopped)")


def texts(port: int) -> None:
    status, answer = call(port, "POST", "/api/tables", {"game": "baha", "rules": {"scoring": "face" * 60000}},
                          source="127.0.0.7")
    refusal = len(json.dumps(answer))
    padded = "heuristic" + ":" * 191
    body = {"game": "baha", "players": 6, "seats": ["human"] + [padded] * 5}
    made, summary = call(port, "POST", "/api/tables", body, source="127.0.0.7")
    print(f"5. a 240,000-character rule value: {status}, the refusal {refusal} bytes; six seats padded "
          f"to 200 characters: {made}, the summary {len(json.dumps(summary))} bytes")


# -- issue 18 -----------------------------------------------------------------------------

BOTTOMLESS = Path(__file__).parent.parent / "tests" / "web" / "data" / "bottomless.toml"


def forwarded(port: int, count: int) -> None:
    answers = []
    for k in range(count):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            connection.request("POST", "/api/tables", body=json.dumps({"game": "baha"}).encode(),
                               headers={"Content-Type": "application/json", "X-Forwarded-For": f"10.{k}.0.1"})
            answers.append(connection.getresponse().status)
        finally:
            connection.close()
    print(f"6. {count} creates from 127.0.0.1, each with a made-up X-Forwarded-For: "
          f"{answers.count(200)} accepted, {answers.count(429)} refused (429)")


def rematch_chain(port: int, tries: int, seconds: float) -> None:
    body = {"game": "baha", "players": 3, "seats": ["random"] * 3, "rules": {"target": 10000}}
    status, table = call(port, "POST", "/api/tables", body, source="127.0.0.8")
    token = table["creator_token"]
    made = refused = 0
    start = time.monotonic()
    for _ in range(tries):
        if time.monotonic() - start > seconds:
            break
        call(port, "POST", f"/api/tables/{table['id']}/close", {"token": token}, source="127.0.0.8")
        status, answer = call(port, "POST", f"/api/tables/{table['id']}/rematch", {"token": token},
                              source="127.0.0.8")
        if status != 200:
            refused += 1
            continue
        made += 1
        table = answer
    elapsed = time.monotonic() - start
    print(f"7. close then rematch, {made + refused} times from one create in {elapsed:.1f} s: "
          f"{made} rematch tables made, {refused} refused (429)")


def ws_from(port: int, address: str, table_id: str) -> Any:
    from websockets.sync.client import connect

    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(address, 0))
    url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
    return connect(url, sock=sock, open_timeout=10, legacy=True)


def hello(ws: Any, token: str | None) -> str:
    """The first message's type after a hello (``welcome``, or the error's code)."""
    ws.send(json.dumps({"type": "hello", "token": token}))
    while True:
        message = json.loads(ws.recv(10))
        if message["type"] in ("welcome", "error"):
            return str(message["type"] if message["type"] == "welcome" else message["code"])


def seat_lockout(port: int, tabs: int, reconnects: int) -> None:
    body = {"game": "baha", "players": 3, "seats": ["human", "human", "random"], "name": "Ada"}
    _, table = call(port, "POST", "/api/tables", body, source="127.0.0.9")
    _, bo = call(port, "POST", f"/api/tables/{table['id']}/join", {"name": "Bo"}, source="127.0.0.15")
    hoard = []
    for _ in range(tabs):
        ws = ws_from(port, "127.0.0.9", table["id"])
        hello(ws, table["token"])
        hoard.append(ws)
    welcomed = 0
    for _ in range(reconnects):
        ws = ws_from(port, "127.0.0.15", table["id"])
        welcomed += hello(ws, bo["token"]) == "welcome"
        ws.close()
    held = 0
    for ws in hoard:
        try:
            ws.send(json.dumps({"type": "ping"}))
            while json.loads(ws.recv(2))["type"] != "pong":
                pass
            held += 1
        except Exception:  # closed by the server: made room for a newer tab
            pass
        ws.close()
    print(f"8. Ada opened {tabs} tabs on her seat: {held} still open; Bo's {reconnects} reconnects: "
          f"{welcomed} took his seat")


def pinned_bots(port: int, tables: int, seconds: float, after: float) -> None:
    deck = BOTTOMLESS.read_text()
    pinned = []
    for k in range(tables):
        body = {"game": "baebae", "players": 3, "deck_toml": deck, "rules": {"turn_limit": 100000},
                "seats": ["human", "ismcts:iterations=5000", "ismcts:iterations=5000"], "name": "Nobody",
                "timer": 1}
        status, table = call(port, "POST", "/api/tables", body, source=f"127.0.0.{20 + k}")
        if status == 200:
            pinned.append(table["id"])
    _, mine = call(port, "POST", "/api/tables", {"game": "baha", "players": 3, "name": "Ada",
                                                 "seats": ["human", "ismcts:iterations=100", "random"]},
                   source="127.0.0.16")
    ws = ws_from(port, "127.0.0.16", mine["id"])
    hello(ws, mine["token"])
    seq = 0
    acted: set[int] = set()
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        try:
            message = json.loads(ws.recv(0.2))
        except TimeoutError:
            continue
        if message["type"] != "update":
            continue
        seq = message["seq"]
        if message["moves"] and seq not in acted:
            acted.add(seq)
            ws.send(json.dumps({"type": "act", "action": message["moves"][0]["action"], "seq": seq}))
    ws.close()
    elapsed = time.monotonic() - start
    during = sum(_seq_of(port, t) for t in pinned)
    time.sleep(after)  # nobody else wants the worker now: the bounded searches move on
    later = sum(_seq_of(port, t) for t in pinned)
    if not pinned:
        print(f"9. alone on the server, a person's table with an ISMCTS bot took {seq} actions in "
              f"{elapsed:.0f} s ({seq / elapsed:.1f} a second)")
        return
    print(f"9. {len(pinned)} tables of bottomless ISMCTS bots (human seats nobody sits at) and a person's "
          f"table with an ISMCTS bot: the person's table took {seq} actions in {elapsed:.0f} s "
          f"({seq / elapsed:.1f} a second); the bottomless tables took {during} actions meanwhile "
          f"(their stand-ins' and bounded searches'), {later - during} in the {after:.0f} s after")


def _seq_of(port: int, table_id: str) -> int:
    """Actions taken at a table: the ``seq`` of a watcher's first update."""
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}", open_timeout=10, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        while True:
            message = json.loads(ws.recv(10))
            if message["type"] == "update":
                return int(message["seq"])


def replays(port: int, count: int, seconds: float) -> None:
    from concurrent.futures import ThreadPoolExecutor

    _, done = call(port, "POST", "/api/tables", {"game": "baha", "players": 3, "seats": ["random"] * 3,
                                                 "rules": {"target": 1}}, source="127.0.0.17")
    while call(port, "GET", f"/api/tables/{done['id']}")[1]["status"] != "over":
        time.sleep(0.2)
    _, busy = call(port, "POST", "/api/tables", {"game": "baha", "players": 3, "seats": ["heuristic"] * 3,
                                                 "rules": {"target": 10000}}, source="127.0.0.18")

    def replay(k: int) -> int:
        return call(port, "GET", f"/api/tables/{done['id']}/replay?start={k % 40}&count={1 + k // 40}",
                    source="127.0.0.19")[0]

    before = _seq_of(port, busy["id"])
    start = time.monotonic()
    latencies = []
    with ThreadPoolExecutor(count) as threads:
        answers = threads.map(replay, range(count))
        while time.monotonic() - start < seconds:
            t = time.monotonic()
            call(port, "GET", "/api/catalog", source="127.0.0.14")
            latencies.append(time.monotonic() - t)
            time.sleep(0.1)
        statuses = list(answers)
    moved = _seq_of(port, busy["id"]) - before
    elapsed = time.monotonic() - start
    latencies.sort()
    print(f"10. {count} replays at once from one address: {statuses.count(200)} answered, "
          f"{statuses.count(429)} refused (429), {statuses.count(503)} (503); meanwhile a table of three "
          f"heuristic bots took {moved} actions in {elapsed:.1f} s ({moved / elapsed:.0f} a second); the "
          f"catalog's p50 {1000 * latencies[len(latencies) // 2]:.0f} ms")


def rss(pid: int) -> float:
    """The resident memory of ``pid`` and its children (bot workers), MB."""
    total = 0
    for each in [pid, *children(pid)]:
        for line in Path(f"/proc/{each}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry.name))
            except (OSError, ValueError, IndexError):
                pass
    return out


def stuck_readers(port: int, pid: int, count: int, seconds: float) -> None:
    body = {"game": "baha", "players": 3, "seats": ["random"] * 3, "rules": {"target": 10000}}
    _, table = call(port, "POST", "/api/tables", body, source="127.0.0.5")
    before = rss(pid)
    socks = []
    for k in range(count):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.bind((f"127.0.1.{k % 10 + 1}", 0))
        sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall((f"GET /ws/tables/{table['id']} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                      f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                      "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        sock.recv(12)
        hello_frame = json.dumps({"type": "hello", "token": None}).encode()
        mask = os.urandom(4)
        sock.sendall(bytes([0x81, 0x80 | len(hello_frame)]) + mask
                     + bytes(b ^ mask[i % 4] for i, b in enumerate(hello_frame)))
        socks.append(sock)
    most = before
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        most = max(most, rss(pid))
        time.sleep(0.2)
    for sock in socks:
        sock.close()
    time.sleep(3)
    print(f"11. {count} clients that stop reading, from ten addresses, for {seconds:.0f} s: server memory "
          f"{before:.0f} MB before, {most:.0f} MB at most, {rss(pid):.0f} MB 3 s after they are gone")


def lock_names(data: Path) -> None:
    cardroom = Path(sys.executable).with_name("cardroom")
    database = data / "cardroom.db"
    link = data / "linked.db"
    os.link(database, link)
    names = (("a file: URI", f"sqlite:///file:{database}?uri=true"), ("a hard link", f"sqlite:///{link}"))
    for what, url in names:
        command = [str(cardroom), "serve", "--port", "0", "--db", url, "--data", str(data / "x")]
        second = subprocess.run(command, capture_output=True, text=True, timeout=30,
                                env=dict(os.environ, COLUMNS="300"))
        print(f"12. a second server on the same database by {what}: exit status {second.returncode}, "
              f"{second.stderr.strip()[:100]!r}")


def workers_outlive(server: subprocess.Popen[str], port: int) -> None:
    body = {"game": "baha", "players": 3, "seats": ["ismcts:iterations=5000"] * 3}
    call(port, "POST", "/api/tables", body, source="127.0.0.30")
    time.sleep(3)
    workers = children(server.pid)
    server.kill()
    server.wait(10)
    time.sleep(2)
    alive = [w for w in workers if Path(f"/proc/{w}").exists()
             and Path(f"/proc/{w}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"]
    print(f"13. the server killed (SIGKILL) with {len(workers)} child processes (bot workers): "
          f"{len(alive)} still running 2 s later")


def refused_close(port: int, data: Path) -> None:
    """A close while the database cannot be written (``chattr +i``: root, a file system that
    has it)."""
    body = {"game": "baha", "players": 3, "seats": ["human", "random", "random"], "name": "Ada"}
    _, table = call(port, "POST", "/api/tables", body, source="127.0.0.31")
    files = [str(data / "cardroom.db"), str(data / "cardroom.db-wal")]
    if subprocess.run(["chattr", "+i", *files], capture_output=True).returncode != 0:
        subprocess.run(["chattr", "-i", *files], capture_output=True)
        print("14. a close while the database is read-only: not tried (chattr +i is not allowed here)")
        return
    try:
        status, _ = call(port, "POST", f"/api/tables/{table['id']}/close", {"token": table["creator_token"]},
                         source="127.0.0.31")
        _, summary = call(port, "GET", f"/api/tables/{table['id']}", source="127.0.0.31")
    finally:
        subprocess.run(["chattr", "-i", *files], check=True)
    again, _ = call(port, "POST", f"/api/tables/{table['id']}/close", {"token": table["creator_token"]},
                    source="127.0.0.31")
    closed = str(summary["closed"]).lower()
    print(f"14. a close while the database is read-only: {status}, then the summary says status "
          f"{summary['status']!r}, closed {closed}; writable again, the close: {again}")


def issue18(port: int, data: Path, server: subprocess.Popen[str], args: argparse.Namespace) -> None:
    steps: dict[int, Any] = {
        6: lambda: forwarded(port, 30),
        7: lambda: rematch_chain(port, 60, 10.0),
        8: lambda: seat_lockout(port, 30, 20),
        9: lambda: (pinned_bots(port, 0, 20.0, 0.0), pinned_bots(port, 3, 20.0, 15.0)),
        11: lambda: stuck_readers(port, server.pid, args.stuck, 15.0),  # before 10: its busy table grows
        10: lambda: replays(port, 50, 5.0),
        12: lambda: lock_names(data),
        14: lambda: refused_close(port, data),
        13: lambda: workers_outlive(server, port),  # last: it kills the server
    }
    for number, step in steps.items():
        if not args.only or number in args.only:
            step()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--creates", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--half-open", type=int, default=300)
    parser.add_argument("--issue", type=int, choices=(9, 18), default=9,
                        help="what to try: what issue 9 reported (the default) or issue 18")
    parser.add_argument("--stuck", type=int, default=90, help="with --issue 18: clients that stop reading")
    parser.add_argument("--only", type=int, nargs="*", default=[], metavar="N",
                        help="with --issue 18: only these items (6 to 14)")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="cardroom-limits-") as tmp:
        server = serve(port, Path(tmp))
        try:
            if args.issue == 18:
                issue18(port, Path(tmp), server, args)
            else:
                creates(port, args.creates, args.seconds)
                half_open(port, server.pid, args.half_open)
                slow_reader(port)
                second_server(Path(tmp))
                texts(port)
        finally:
            if server.poll() is None:
                server.terminate()
                server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
