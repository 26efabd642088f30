"""The studio's versions keep their size and who saved them (the address, and the account if
one was signed in), so that what one address or account keeps is bounded (cardroom.web.studio).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("studio_versions") as batch:
        batch.add_column(sa.Column("size", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("address", sa.String(64), nullable=True))
        batch.add_column(sa.Column("account", sa.Integer(), nullable=True))
    op.create_index("ix_studio_versions_address", "studio_versions", ["address"])
    op.create_index("ix_studio_versions_account", "studio_versions", ["account"])


def downgrade() -> None:
    op.drop_index("ix_studio_versions_account", "studio_versions")
    op.drop_index("ix_studio_versions_address", "studio_versions")
    with op.batch_alter_table("studio_versions") as batch:
        for name in ("account", "address", "size"):
            batch.drop_column(name)
