"""The designer's studio: decks opened in it, their versions, and the runs played on them
(cardroom.web.studio).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _deck_id(primary_key: bool = False) -> sa.Column[str]:
    return sa.Column("deck_id", sa.String(32), sa.ForeignKey("studio_decks.id", ondelete="CASCADE"),
                     primary_key=primary_key, nullable=False)


def upgrade() -> None:
    op.create_table(
        "studio_decks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("source", sa.String(100), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_table(
        "studio_versions",
        _deck_id(primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("digest", sa.String(80), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_table(
        "studio_runs",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(20), nullable=False),
        _deck_id(),
        sa.Column("versions", sa.JSON(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("report_html", sa.Text(), nullable=True),
        sa.Column("report_text", sa.Text(), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("finished", sa.Float(), nullable=True),
    )
    op.create_index("ix_studio_runs_deck_id", "studio_runs", ["deck_id"])
    op.create_index("ix_studio_runs_status", "studio_runs", ["status"])


def downgrade() -> None:
    for name in ("studio_runs", "studio_versions", "studio_decks"):
        op.drop_table(name)
