"""A throwaway Redis server for the tests: Debian's ``redis-server`` binary (``make test``
installs the package), on 127.0.0.1 and a free port, no file written, stopped at the end."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

__all__ = ["RedisServer", "redis_bin"]


def redis_bin() -> Path | None:
    """Debian's ``redis-server``, if installed."""
    found = shutil.which("redis-server") or ("/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists()
                                             else None)
    return Path(found) if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    """``redis-server`` in a temporary folder, on loopback only, nothing saved to disk."""

    def __init__(self, binary: Path) -> None:
        self.binary = binary
        self.root = Path(tempfile.mkdtemp(prefix="cardroom-redis-"))
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start (or start again, on the same port) and wait until it answers."""
        self.proc = subprocess.Popen(
            [str(self.binary), "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", str(self.root), "--protected-mode", "yes"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.root,
        )
        end = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        try:
            self.kill()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
