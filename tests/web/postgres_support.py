"""A throwaway PostgreSQL cluster for the tests: Debian's binaries (``make test`` installs the
``postgresql`` package), ``initdb`` into a temporary folder, ``pg_ctl start`` on 127.0.0.1 and a
free port, run as the ``postgres`` user when the tests run as root (PostgreSQL refuses root)."""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

__all__ = ["PostgresCluster", "postgres_bin"]


def postgres_bin() -> Path | None:
    """The folder of the newest installed PostgreSQL's server binaries, if any."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresCluster:
    """A cluster of its own in a temporary folder; :meth:`database` makes a fresh database."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="cardroom-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._user: str | None = None
        if os.geteuid() == 0:
            self._user = "postgres" if _has_user("postgres") else "nobody"
            entry = pwd.getpwnam(self._user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self._names = itertools.count(1)
        self._run("initdb", "-D", str(self.data), "-U", "cardroom", "-A", "trust", "-E", "UTF8",
                  "--no-sync", "--locale=C")
        self._options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} -c fsync=off "
                         "-c synchronous_commit=off -c full_page_writes=off -c max_connections=60")
        self._run("pg_ctl", "-D", str(self.data), "-o", self._options, "-l", str(self.root / "log"),
                  "-w", "-t", "30", "start")

    def restart(self) -> None:
        """Stop the cluster cleanly (``-m fast``: sessions ended, the log written out) and start
        it again on the same port."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-o", self._options, "-l",
                  str(self.root / "log"), "-w", "-t", "30", "restart")

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bindir / tool), *args]
        if self._user is not None:
            command = ["runuser", "-u", self._user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=self.root)
        if done.returncode != 0:
            log = self.root / "log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{tool} failed: {done.stdout}{done.stderr}{tail}")

    @property
    def admin_url(self) -> str:
        return f"postgresql+psycopg://cardroom@127.0.0.1:{self.port}/postgres"

    def database(self) -> str:
        """A new, empty database in the cluster: its SQLAlchemy URL."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=cardroom dbname=postgres",
                             autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql+psycopg://cardroom@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True
