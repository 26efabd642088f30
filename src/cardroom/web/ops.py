"""What a server tells its operators: Prometheus metrics (``/metrics``) and JSON log lines.

The metrics are counts over the whole server and nothing else: no table id, no seat, no name,
no card, no action, so that ``/metrics`` tells nobody what a hand holds or who plays where.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

__all__ = ["ServerMetrics", "JsonFormatter", "use_json_logs", "CONTENT_TYPE"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""Prometheus's text exposition format."""

STATUSES = ("waiting", "running", "over")

# From a fast bot move (under a millisecond) to a slow commit on a busy disk or network.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class _Live(Collector):
    """The gauges read when scraped: tables by status and open WebSocket connections."""

    def __init__(self, statuses: Callable[[], Iterable[str]], connections: Callable[[], int]) -> None:
        self._statuses = statuses
        self._connections = connections

    def collect(self) -> Iterator[Metric]:
        counts = dict.fromkeys(STATUSES, 0)
        for status in self._statuses():
            counts[status if status in counts else "running"] += 1
        tables = GaugeMetricFamily("cardroom_tables", "Tables this server holds, by status.",
                                   labels=["status"])
        for status, count in counts.items():
            tables.add_metric([status], count)
        yield tables
        yield GaugeMetricFamily("cardroom_connections", "Open WebSocket connections to tables.",
                                value=self._connections())


class ServerMetrics:
    """One server's metrics, in a registry of its own (two servers in one process, as in the
    tests, do not mix)."""

    def __init__(self, statuses: Callable[[], Iterable[str]], connections: Callable[[], int]) -> None:
        self.registry = CollectorRegistry()
        self.actions = Counter("cardroom_actions", "Actions taken and stored, by who chose them.",
                               ["by"], registry=self.registry)
        self.latency = Histogram(
            "cardroom_action_seconds",
            "Time to apply an action, store it and queue the updates to the table's connections.",
            buckets=LATENCY_BUCKETS, registry=self.registry)
        self.refused = Counter("cardroom_refused_writes", "Actions the database refused to store.",
                               registry=self.registry)
        self.leases = Counter("cardroom_lease_changes", "Tables this server took (or lost) the lease "
                              "of, in a cluster (--redis).", ["change"], registry=self.registry)
        self.registry.register(_Live(statuses, connections))
        for by in ("human", "bot"):  # both series from the start, at 0
            self.actions.labels(by=by)
        for change in ("taken", "lost"):
            self.leases.labels(change=change)

    def acted(self, by: str, started: float) -> None:
        """An action (``by``: ``human`` or a bot spec) stored and sent, begun at ``started``
        (``time.perf_counter``)."""
        self.actions.labels(by="human" if by == "human" else "bot").inc()
        self.latency.observe(time.perf_counter() - started)

    def lease(self, change: str) -> None:
        """A table's lease ``taken`` or ``lost`` by this server (cardroom.web.cluster)."""
        self.leases.labels(change=change).inc()

    def text(self) -> bytes:
        return generate_latest(self.registry)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, and
    ``error`` with the traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def use_json_logs(level: int = logging.INFO) -> logging.Handler:
    """Send Cardroom's and Uvicorn's log lines to standard error as JSON (``serve --log-json``)."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    for name in ("cardroom", "uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.propagate = False
        logger.setLevel(level)
    return handler
