"""docs/results.md's cluster recipe against a real Ray head (``ray start --head``) on loopback,
with Ray's token authentication on, as recent Ray turns it on: Cardroom joins it given the
token, and says in words, within seconds, what to set when it is not given it.

The head runs in a session of its own, in a temporary home and temporary folder, and is ended
by its process group's id; it never touches the machine's ~/.ray or another Ray."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq
import pytest

RAY = Path(sys.executable).with_name("ray")
GAME = ["baha", "--games", "12", "--seed", "5", "--agents", "heuristic"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _env(home: Path, **ray: str) -> dict[str, str]:
    """This process's environment without any Ray setting of its own (a local ray.init earlier in
    the same process sets RAY_AUTH_MODE), in the given home, with the given Ray settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    return {**env, "HOME": str(home), **ray}


@dataclass(frozen=True)
class Head:
    address: str
    token: str
    home: Path  # a home whose ~/.ray/auth_token is the cluster's token


@pytest.fixture(scope="module")
def head() -> Iterator[Head]:
    # a short folder: Ray's socket paths under it must stay under the system's limit
    root = Path(tempfile.mkdtemp(prefix="cr-ray-"))
    home = root / "home"
    (home / ".ray").mkdir(parents=True)
    token = secrets.token_hex(32)
    (home / ".ray" / "auth_token").write_text(token)
    port = _free_port()
    command = [str(RAY), "start", "--head", "--node-ip-address=127.0.0.1", f"--port={port}",
               "--num-cpus=1", "--object-store-memory=80000000", "--include-dashboard=false",
               f"--dashboard-port={_free_port()}", f"--dashboard-agent-listen-port={_free_port()}",
               f"--temp-dir={root / 't'}",
               "--disable-usage-stats"]
    # the recipe's head: token authentication on, its token in the home's ~/.ray/auth_token
    starting = subprocess.Popen(command, env=_env(home, RAY_AUTH_MODE="token"), start_new_session=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        output, _ = starting.communicate(timeout=90)
        assert starting.returncode == 0, output
        yield Head(f"127.0.0.1:{port}", token, home)
    finally:
        # every process of the head is in the session `ray start` began (ray stop would end
        # every Ray on the machine)
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(starting.pid, sig)
            except ProcessLookupError:
                break
            time.sleep(1)
        shutil.rmtree(root, ignore_errors=True)


def _simulate(head: Head, folder: Path, **ray: str) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "cardroom.cli.main", "simulate", *GAME, "--out", str(folder),
                           "--ray-address", head.address],
                          env=_env(head.home, **ray), capture_output=True, text=True, timeout=120)
    return done, time.monotonic() - started


def test_without_the_token_mode_the_refusal_says_what_to_set(head: Head, tmp_path: Path) -> None:
    """The token is in this machine's ~/.ray/auth_token, but Ray sends it to a given address only
    with RAY_AUTH_MODE=token: the words say so, quickly, and nothing is written."""
    folder = tmp_path / "out"
    done, seconds = _simulate(head, folder)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "asks for Ray's token authentication" in done.stderr and "RAY_AUTH_MODE=token" in done.stderr
    assert "Traceback" not in done.stderr
    assert seconds < 15  # ray.init alone retries for 20 s
    assert not folder.exists()


def test_a_wrong_token_or_none_is_told(head: Head, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    done, seconds = _simulate(head, folder, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=secrets.token_hex(32))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "not the cluster's" in done.stderr and "RAY_AUTH_TOKEN" in done.stderr
    assert seconds < 15 and not folder.exists()
    # token mode and no token anywhere (Ray's own request would abort the process)
    nowhere = tmp_path / "empty-home"
    nowhere.mkdir()
    done, seconds = _simulate(Head(head.address, head.token, nowhere), folder, RAY_AUTH_MODE="token")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "has no Ray token" in done.stderr and "ray get-auth-token" in done.stderr
    assert seconds < 15 and not folder.exists()


def test_the_recipe_plays_on_the_cluster(head: Head, tmp_path: Path) -> None:
    """RAY_AUTH_MODE=token and the cluster's token (here in ~/.ray/auth_token): the games are
    played on the head's cluster, and the tables are the ones a single process writes."""
    done, _ = _simulate(head, tmp_path / "ray", RAY_AUTH_MODE="token")
    assert done.returncode == 0, done.stdout + done.stderr
    manifest = (tmp_path / "ray" / "manifest.json").read_text()
    assert f'"address": "{head.address}"' in manifest and '"ray": true' in manifest
    alone = subprocess.run([sys.executable, "-m", "cardroom.cli.main", "simulate", *GAME, "--workers", "1",
                            "--out", str(tmp_path / "one")], capture_output=True, text=True, timeout=120)
    assert alone.returncode == 0, alone.stderr
    for path in sorted((tmp_path / "one").glob("*.parquet")):
        assert pq.read_table(tmp_path / "ray" / path.name).equals(pq.read_table(path)), path.name

