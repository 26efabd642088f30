"""The settings of one web table server, as one object (``cardroom.web.app.application``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["Settings", "DEFAULT_BOT_DELAY"]

DEFAULT_BOT_DELAY = 0.6
"""Seconds before each bot move, so people can follow the play."""


@dataclass(frozen=True)
class Settings:
    """How one server is set up; ``cardroom serve`` makes it from its options."""

    db_url: str | None
    """The database, any SQLAlchemy URL (``None``: ``data_dir/cardroom.db``)."""
    data_dir: Path
    """The data folder (made if missing)."""
    bot_delay: float = DEFAULT_BOT_DELAY
    """The pause in seconds before each bot move, so people can follow the play."""
    bot_workers: int = 1
    """The processes the search bots think in."""
    local_only: bool = False
    """A server listening on loopback: requests that name another host are refused
    (``guard.SiteGuard``)."""
    redis_url: str | None = None
    """Makes this server one of a cluster on a shared PostgreSQL database
    (``cardroom.web.cluster``; its address for the others is set on ``app.state.manager``)."""
    quick_wait: float | None = None
    """Seconds a table made by Play now waits for people before bots take its free seats
    (``None``: ``cardroom.web.play.QUICK_WAIT``)."""
    studio_workers: int = 1
    """The processes each run of the designer's studio plays its games in (1: in the run's own
    thread)."""
    away_after: float | None = None
    """Seconds a person of a running game may be without a connection before a stand-in plays
    their seat (``None``: ``cardroom.web.play.AWAY_AFTER``)."""
