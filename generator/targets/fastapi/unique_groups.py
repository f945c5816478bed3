"""Alembic operations for the unique groups of a changed table (batch operations).

A group that goes is dropped in the first batch, before its columns are renamed or
dropped; a new one is made in the last batch, once its columns exist.
"""

from __future__ import annotations

from ...regen.migrations import TableChange
from ..pysource import call, literal


def dropped_groups(change: TableChange) -> list[str]:
    """``batch_op.drop_constraint`` of each group the change drops."""
    dropped, _ = change.unique_groups()
    return [
        call(
            "batch_op.drop_constraint",
            [f"op.f({literal(name)})", 'type_="unique"'],
            indent=2,
        )
        for name, _ in dropped
    ]


def created_groups(change: TableChange) -> list[str]:
    """``batch_op.create_unique_constraint`` of each group the change makes."""
    _, created = change.unique_groups()
    return [
        call(
            "batch_op.create_unique_constraint",
            [f"op.f({literal(name)})", literal(list(group))],
            indent=2,
        )
        for name, group in created
    ]
