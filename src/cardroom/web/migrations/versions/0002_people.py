"""What people did to a table besides playing: creators, departures, closures, rematches.

Revision ID: 0002
Revises: 0001

A database from before alembic may hold some of these already (the store once added missing
tables on start): each is made only where it is missing.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _table_id() -> sa.Column[str]:
    return sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                     primary_key=True)


def upgrade() -> None:
    have = set(sa.inspect(op.get_bind()).get_table_names())
    if "creators" not in have:
        op.create_table("creators", _table_id(), sa.Column("token_hash", sa.String(64), nullable=False))
    if "departures" not in have:
        op.create_table("departures", _table_id(), sa.Column("seat", sa.Integer(), primary_key=True),
                        sa.Column("after", sa.Integer(), nullable=False))
    if "closures" not in have:
        op.create_table("closures", _table_id(), sa.Column("after", sa.Integer(), nullable=False))
    if "rematches" not in have:
        op.create_table("rematches", _table_id(), sa.Column("rematch_id", sa.String(32), nullable=False))


def downgrade() -> None:
    for name in ("rematches", "closures", "departures", "creators"):
        op.drop_table(name)
