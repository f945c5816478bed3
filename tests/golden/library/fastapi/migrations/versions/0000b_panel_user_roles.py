"""Give each panel user a role: what they may do in the panel.

Users from before roles existed become ``admin`` (they could do everything), as
does anyone added without a role by other means.

Revision ID: 0000b
Revises: 0000a
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0000b"
down_revision: str | None = "0000a"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add ``panel_users.role``."""
    with op.batch_alter_table("panel_users") as table:
        table.add_column(
            sa.Column("role", sa.String(64), nullable=False, server_default="admin")
        )


def downgrade() -> None:
    """Drop ``panel_users.role``."""
    with op.batch_alter_table("panel_users") as table:
        table.drop_column("role")
