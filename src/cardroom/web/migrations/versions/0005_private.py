"""Private tables: those their creator kept out of the lobby's list (found by their link).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table_id = sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                         primary_key=True)
    op.create_table("private_tables", table_id)


def downgrade() -> None:
    op.drop_table("private_tables")
