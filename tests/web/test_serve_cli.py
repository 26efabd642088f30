"""``cardroom serve`` refuses a bad database or address with one clear line."""

from __future__ import annotations

import socket
from pathlib import Path

from typer.testing import CliRunner

from cardroom.cli.main import app


def test_bad_database_url(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--db", "nonsense://x", "--data", str(tmp_path / "d")])
    assert result.exit_code == 2
    assert "--database nonsense://x" in result.output and "Traceback" not in result.output


def test_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["serve", "--port", str(port), "--data", str(tmp_path / "d")])
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.output


def test_database_is_the_long_name_and_log_json_an_option(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--database", "nonsense://y", "--log-json",
                                      "--data", str(tmp_path / "d")])
    assert result.exit_code == 2
    assert "--database nonsense://y" in result.output and "Traceback" not in result.output
