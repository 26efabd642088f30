"""Accounts, their sessions, the seats they took, and ratings per game (cardroom.web.accounts).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _account_id(primary_key: bool = False) -> sa.Column[int]:
    return sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                     primary_key=primary_key, nullable=False)


def _table_id() -> sa.Column[str]:
    return sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                     primary_key=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("folded", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        _account_id(),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
    )
    op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
    op.create_table(
        "account_seats",
        _table_id(),
        sa.Column("seat", sa.Integer(), primary_key=True),
        _account_id(),
    )
    op.create_index("ix_account_seats_account_id", "account_seats", ["account_id"])
    op.create_table(
        "ratings",
        _account_id(primary_key=True),
        sa.Column("game", sa.String(20), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
    )
    op.create_table("rated_games", _table_id(), sa.Column("at", sa.Float(), nullable=False))


def downgrade() -> None:
    for name in ("rated_games", "ratings", "account_seats", "account_sessions", "accounts"):
        op.drop_table(name)
