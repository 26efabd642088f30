"""The web table's database schema as alembic migrations, run at server start (store.migrate).

One revision file in ``versions/`` per change of the schema, each naming the one before it
(``down_revision``); docs/web.md says how a new table is added.
"""
