"""Statements that move data rather than change columns: a table renamed with its
key's constraint and sequence, a key's column renamed, enum values moved
(``renamed_values``), one UPDATE written the way black writes it."""

from __future__ import annotations

from ...model import ir
from ...regen.column_changes import moved_values, values_widen
from ...regen.migrations import SchemaDiff, TableChange
from ..pysource import INDENT, LINE_LENGTH, call, literal
from .storage import migration_type


def execute_chain(chain: list[str]) -> str:
    """``op.execute(a.b().c())``, or with one call of the chain per line, as black."""
    one_line = f"op.execute({''.join(chain)})"
    if len(INDENT + one_line) <= LINE_LENGTH:
        return one_line
    inner = "\n" + INDENT * 2
    return f"op.execute({inner}{inner.join(chain)}\n{INDENT})"


def rename_table_lines(change: TableChange) -> list[str]:
    """``op.rename_table``, and on PostgreSQL the key's constraint and sequence."""
    if change.before.table == change.after.table:
        return []
    old, new = change.before.table, change.after.table
    renames = [
        f'ALTER TABLE "{new}" RENAME CONSTRAINT "pk_{old}" TO "pk_{new}"',
        f'ALTER SEQUENCE IF EXISTS "{old}_{change.before.key_column}_seq" '
        f'RENAME TO "{new}_{change.after.key_column}_seq"',
    ]
    body = "".join(f"\n{INDENT * 2}op.execute({literal(sql)})" for sql in renames)
    return [
        call("op.rename_table", [literal(old), literal(new)], indent=1),
        f'if op.get_bind().dialect.name == "postgresql":{body}',
    ]


def sql_name(name: str) -> str:
    """A column name in PostgreSQL's SQL: quoted unless lower case (``"ArtistId"``)."""
    return name if name == name.lower() else f'"{name}"'


def key_rename_lines(change: TableChange, diff: SchemaDiff) -> list[str]:
    """The key's column renamed in the first batch (its ``column:`` changed); the
    foreign keys that refer to it are dropped and made again by their tables'
    own changes."""
    before, after = change.before.key_field, change.after.key_field
    if before.column_name == after.column_name:
        return []
    args = [
        f"new_column_name={literal(after.column_name)}",
        f"existing_type={migration_type(after, diff.after)}",
        "existing_nullable=False",
    ]
    return [
        call("batch_op.alter_column", [literal(before.column_name), *args], indent=2)
    ]


def moved_value_lines(change: TableChange, *, widening: bool) -> list[str]:
    """UPDATEs that move rows of renamed or retired enum values (``renamed_values``).

    Into a narrower column they run first, on the old table and column; into a
    wider one after the column changed (the new values may not fit before).
    """
    lines = []
    table = change.after.table if widening else change.before.table
    for before, after in change.kept:
        if values_widen(before, after) != widening:
            continue
        field = after if widening else before
        for old, new in moved_values(before, after):
            name = literal(field.column_name)
            chain = [
                "table.update()",
                f".where(table.c[{name}] == {literal(old)})",
                f".values({{{name}: {literal(new)}}})",
            ]
            lines += [table_of(table, field), execute_chain(chain)]
    return lines


def table_of(table: str, field: ir.Field) -> str:
    return call(
        "sa.table",
        [
            literal(table),
            call(
                "sa.column",
                [literal(field.column_name), migration_type(field, None)],
                indent=1,
            ),
        ],
        indent=1,
        prefix="table = ",
    )
