"""The web table: a FastAPI server where people and bots play Baha and BAEBAE (docs/web.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["create_app"]

if TYPE_CHECKING:
    from cardroom.web.app import create_app
else:

    def create_app(*args: Any, **kwargs: Any) -> Any:
        """See :func:`cardroom.web.app.create_app` (imported on first use)."""
        from cardroom.web.app import create_app as make

        return make(*args, **kwargs)
