"""The one refusal every part of the web table raises.

A :class:`Refusal` carries its HTTP status, the reason in words, a wait for a refusal that
passes (429, 503; sent as ``Retry-After``) and, for a deck, its problems each placed at its
card and field. The tables' :class:`~cardroom.web.live.TableError`, the accounts'
:class:`~cardroom.web.accounts.AccountError`, the studio's :class:`~cardroom.web.studio.StudioError`,
a bound's :class:`~cardroom.web.bounded.Refused` and a WebSocket message's
:class:`~cardroom.web.protocol.ProtocolError` are its kinds; the application answers them all
with one handler (``cardroom.web.app``), a WebSocket's with an ``error`` message.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Refusal", "sendable"]


class Refusal(Exception):
    """A request that cannot be granted: ``status`` is the HTTP status to answer."""

    def __init__(self, status: int, message: str, retry_after: float | None = None,
                 problems: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        """For a refusal that passes (429, 503): seconds to wait, sent as ``Retry-After``."""
        self.problems = problems
        """A deck's problems, each placed at its card and field (``None``: none to say)."""


def sendable(text: str) -> str:
    """``text`` as UTF-8 can carry it: a lone surrogate from a JSON escape (``"\\ud800"``)
    echoed in a message is written as its escape instead of failing the answer."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
