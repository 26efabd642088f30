"""``cardroom serve``: the web table (docs/web.md) under Uvicorn."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from cardroom.cli.base import guard, titles
from cardroom.cli.consoles import make_console

__all__ = ["HELP", "WS_MAX_BYTES", "run_serve", "serve"]

WS_MAX_BYTES = 64 * 1024
"""WebSocket frames larger than this close the connection; up to it, a message above the
protocol's 4 KiB is answered with an error (docs/web.md)."""


def run_serve(
    *, host: str, port: int, db: str | None, data: Path, bot_delay: float, console: Console,
    bot_workers: int = 1, forwarded_allow_ips: str | None = None, log_json: bool = False,
    redis: str | None = None, advertise: str | None = None, quick_wait: float | None = None,
    away_after: float | None = None,
) -> int:
    """Serve until interrupted; 0 on a clean stop. ``forwarded_allow_ips``: the proxies whose
    ``X-Forwarded-For`` is believed (none by default: every bound per address then counts the
    address the connection comes from). ``redis``: this server is one of a cluster
    (cardroom.web.cluster), reached by the others at ``advertise`` (default: where it listens)."""
    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from cardroom.cli.options import UsageError
    from cardroom.web.app import create_app
    from cardroom.web.guard import is_loopback, server_config
    from cardroom.web.store import DatabaseDamaged, DatabaseInUse

    trusted = _proxies(forwarded_allow_ips)
    if log_json:
        from cardroom.web.ops import use_json_logs

        use_json_logs()
    if advertise is not None and not advertise.startswith(("http://", "https://")):
        raise UsageError(f"--advertise: give the address the other servers reach this one at, as "
                         f"http://HOST:PORT, not {advertise!r:.60}")
    try:
        app = create_app(db, data, bot_delay=bot_delay, bot_workers=bot_workers, local_only=is_loopback(host),
                         redis_url=redis, quick_wait=quick_wait, away_after=away_after)
    except (DatabaseInUse, DatabaseDamaged, ValueError) as err:
        raise UsageError(str(err)) from None
    except ImportError as err:  # a database whose driver is not installed (psycopg)
        raise UsageError(f"--database {db}: its driver is not installed ({err}); for PostgreSQL, "
                         "pip install 'cardroom[postgres]'") from None
    except SQLAlchemyError as err:
        raise UsageError(f"--database {db or 'default'}: cannot open the database ({err.__class__.__name__}: "
                         f"{str(err).splitlines()[0]})") from None
    except OSError as err:
        raise UsageError(f"--data {data}: cannot use the data folder ({err})") from None
    if redis is not None:
        _reach_redis(app, redis)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        # before the address is printed: a client that reads it at once is queued, not refused
        sock.listen(2048)
    except OSError as err:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {err.strerror or err}") from None
    port = sock.getsockname()[1]  # the port chosen when --port 0
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    shown = f"[{shown}]" if ":" in shown else shown
    if redis is not None:
        app.state.manager.address = (advertise or f"http://{shown}:{port}").rstrip("/")
    if trusted is not None:  # their clients are bounded where they connect (docs/web.md)
        import ipaddress

        app.state.gate.exempt = tuple(ipaddress.ip_network(p, strict=False) for p in trusted.split(",")
                                      if p != "*")
    console.print(
        f"Cardroom web table: open [bold]http://{escape(shown)}:{port}/[/] "
        f"(data in {escape(str(data))}; Ctrl-C stops)",
        highlight=False,
    )
    # --log-json: Uvicorn keeps the JSON handlers (use_json_logs) instead of its own.
    logs: dict[str, Any] = {"log_config": None} if log_json else {}
    config = server_config(app, forwarded_allow_ips=trusted, ws_max_size=WS_MAX_BYTES, log_level="warning",
                           **logs)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
    return 0


def _reach_redis(app: Any, url: str) -> None:
    """Refuse to start when the cluster's Redis does not answer."""
    from redis.exceptions import RedisError

    from cardroom.cli.options import UsageError

    try:
        app.state.cluster.leases.redis.ping()
    except RedisError as err:
        app.state.manager.store.close()
        raise UsageError(f"--redis {url}: Redis does not answer ({err})") from None


def _proxies(text: str | None) -> str | None:
    """``--forwarded-allow-ips`` checked: addresses or networks by commas (``*``: any)."""
    import ipaddress

    from cardroom.cli.options import UsageError

    if text is None or not text.strip():
        return None
    parts = [p.strip() for p in text.split(",") if p.strip()]
    for part in parts:
        if part == "*":
            continue
        try:
            ipaddress.ip_network(part, strict=False)
        except ValueError:
            raise UsageError(f"--forwarded-allow-ips: {part!r:.60} is not an address or a network "
                             "(give e.g. 127.0.0.1,10.0.0.0/8, or * for any)") from None
    return ",".join(parts)


HELP = f"Start the web table: a lobby, tables of {titles()} for people and bots, replays."
"""``serve --help``: the registry's games by their titles."""


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.", metavar="ADDRESS")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535, metavar="PORT")] = 8000,
    db: Annotated[
        str | None,
        typer.Option("--database", "--db",
                     help="Database: a SQLAlchemy URL, sqlite:///FILE or postgresql+psycopg://USER@HOST/NAME "
                          "(default: cardroom.db in --data).", metavar="URL"),
    ] = None,
    data: Annotated[
        Path, typer.Option(help="Data folder: the database and uploaded decks.", metavar="FOLDER")
    ] = Path(
        "cardroom-data"
    ),
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits before each move, so people can follow.", min=0, max=60,
                            metavar="SECONDS")
    ] = 0.6,
    bot_workers: Annotated[
        int, typer.Option(help="Processes the search bots (ismcts) think in, for all tables.", min=1, max=64)
    ] = 1,
    quick_wait: Annotated[
        float, typer.Option(help="Seconds a table made by Play now waits for people before bots take its "
                                 "free seats.", min=0, max=120, metavar="SECONDS")
    ] = 5.0,
    away_after: Annotated[
        float, typer.Option(help="Seconds a player of a running game may be disconnected before a bot plays "
                                 "their seat (until they come back).", min=1, max=3600, metavar="SECONDS")
    ] = 30.0,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(help="Proxies whose X-Forwarded-For is believed (addresses or networks, by commas; "
                          "default: none).", metavar="ADDRESSES"),
    ] = None,
    log_json: Annotated[
        bool, typer.Option("--log-json", help="Write the log as JSON lines (time, level, logger, message).")
    ] = False,
    redis: Annotated[
        str | None,
        typer.Option(help="Redis of a cluster of servers on one PostgreSQL --database (redis://HOST:PORT/0): "
                          "each table is owned by one of them.", metavar="URL"),
    ] = None,
    advertise: Annotated[
        str | None,
        typer.Option(help="With --redis: where the other servers reach this one (default: http://HOST:PORT "
                          "it listens on).", metavar="URL"),
    ] = None,
) -> None:
    """Start the web table: a lobby, tables of the games for people and bots, replays."""
    with guard():
        code = run_serve(host=host, port=port, db=db, data=data, bot_delay=bot_delay, bot_workers=bot_workers,
                         console=make_console(), forwarded_allow_ips=forwarded_allow_ips,
                         log_json=log_json, redis=redis, advertise=advertise,
                         quick_wait=quick_wait, away_after=away_after)
    raise typer.Exit(code)
