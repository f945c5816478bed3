"""Create the table of panel users (``python -m app create-user`` fills it).

Revision ID: 0000
Revises:
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0000"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``panel_users``, its e-mail addresses unique."""
    op.create_table(
        "panel_users",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False
        ),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("is_active", sa.Boolean(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.func.now(),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_panel_users")),
    )
    op.create_index(op.f("ix_panel_users_email"), "panel_users", ["email"], unique=True)


def downgrade() -> None:
    """Drop ``panel_users``."""
    op.drop_table("panel_users")
