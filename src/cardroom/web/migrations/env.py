"""Alembic's environment for the web table: migrations run on the connection the store gives
(``config.attributes["connection"]``), never on a URL of their own. Alembic runs this file
(``store.migrate``); importing it otherwise does nothing."""

from __future__ import annotations

from alembic import context

from cardroom.web.schema import Base  # every row of the web table (schema.py), in one metadata


def run_migrations() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "config", None) is not None:  # run by alembic, not imported
    run_migrations()
