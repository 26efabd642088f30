"""The addresses each account signed in from, as digests (cardroom.web.accounts): there, the
account's shared back-off on wrong passwords does not hold, so strangers cannot lock it.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_addresses",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                  primary_key=True, nullable=False),
        sa.Column("address_hash", sa.String(64), primary_key=True),
        sa.Column("last", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("account_addresses")
