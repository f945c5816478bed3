"""Create the history of changes: one row per record created, updated or deleted.

Revision ID: 0000c
Revises: 0000b
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0000c"
down_revision: str | None = "0000b"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``panel_history``."""
    op.create_table(
        "panel_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=True),
        sa.Column("user_login", sa.String(254), nullable=False),
        sa.Column("resource", sa.String(100), nullable=False),
        sa.Column("record_key", sa.String(200), nullable=False),
        sa.Column("record_label", sa.String(200), nullable=False),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("changes", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_panel_history")),
    )
    op.create_index(op.f("ix_panel_history_at"), "panel_history", ["at"])
    op.create_index(
        "ix_panel_history_record",
        "panel_history",
        ["resource", "record_key", "at"],
    )


def downgrade() -> None:
    """Drop ``panel_history``."""
    op.drop_table("panel_history")
