"""Create the tables logins share across workers: the throttle and revoked tokens.

Revision ID: 0000a
Revises: 0000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0000a"
down_revision: str | None = "0000"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``panel_login_attempts`` and ``panel_revoked_tokens``."""
    op.create_table(
        "panel_login_attempts",
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_panel_login_attempts")),
    )
    op.create_index(
        op.f("ix_panel_login_attempts_expires_at"),
        "panel_login_attempts",
        ["expires_at"],
    )
    op.create_table(
        "panel_revoked_tokens",
        sa.Column("jti", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("jti", name=op.f("pk_panel_revoked_tokens")),
    )
    op.create_index(
        op.f("ix_panel_revoked_tokens_expires_at"),
        "panel_revoked_tokens",
        ["expires_at"],
    )


def downgrade() -> None:
    """Drop both tables."""
    op.drop_table("panel_revoked_tokens")
    op.drop_table("panel_login_attempts")
