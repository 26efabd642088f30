"""Who each rated game rated (cardroom.web.accounts): the bound on the rated games two accounts
play together in a day is counted from it.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rated_players",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                  primary_key=True),
    )
    op.create_index("ix_rated_players_account_id", "rated_players", ["account_id"])


def downgrade() -> None:
    op.drop_table("rated_players")
