"""The constraints of a changed table, as batch operations: foreign keys and unique
groups.

A group that goes is dropped in the first batch, before its columns are renamed or
dropped; a new one is made in the last batch, once its columns exist.
"""

from __future__ import annotations

from ...regen.migrations import TableChange
from ..pysource import call, literal
from .db_columns import Column


def _fk_name(table: str, name: str, target: str) -> str:
    return f"fk_{table}_{name}_{target}"


def drop_foreign_key(table: str, col: Column) -> str:
    assert col.foreign_key is not None
    name = col.fk_name or _fk_name(table, col.name, col.foreign_key[0])
    return call(
        "batch_op.drop_constraint",
        [f"op.f({literal(name)})", 'type_="foreignkey"'],
        indent=2,
    )


def create_foreign_key(table: str, col: Column) -> str:
    assert col.foreign_key is not None
    target, key, action = col.foreign_key
    return call(
        "batch_op.create_foreign_key",
        [
            f"op.f({literal(col.fk_name or _fk_name(table, col.name, target))})",
            literal(target),
            literal([col.name]),
            literal([key]),
            f"ondelete={literal(action)}",
        ],
        indent=2,
    )


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
    """``batch_op.create_unique_constraint`` of each group the change makes, and of
    each unique field added to an adopted table (unique by a constraint there, named
    as the models' naming convention names it)."""
    _, created = change.unique_groups()
    table = change.after.table
    adopted = [
        call(
            "batch_op.create_unique_constraint",
            [
                f"op.f({literal(f'uq_{table}_{f.column_name}')})",
                literal([f.column_name]),
            ],
            indent=2,
        )
        for f in change.added
        if f.stored is not None and f.stored.unique == ""
    ]
    return adopted + [
        call(
            "batch_op.create_unique_constraint",
            [
                f"op.f({literal(name)})",
                literal([change.after.column_of(n) for n in group]),
            ],
            indent=2,
        )
        for name, group in created
    ]
