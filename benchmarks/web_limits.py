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

    python benchmarks/web_limits.py
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
    sock.sendall((f"GET /ws/tables/{table['id']} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--creates", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--half-open", type=int, default=300)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="cardroom-limits-") as tmp:
        server = serve(port, Path(tmp))
        try:
            creates(port, args.creates, args.seconds)
            half_open(port, server.pid, args.half_open)
            slow_reader(port)
            second_server(Path(tmp))
            texts(port)
        finally:
            server.terminate()
            server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
