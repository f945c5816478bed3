"""Alembic operations that change one table in place, its rows kept.

Column types, indexes and foreign keys come from :mod:`.storage`, so a migrated
database has the tables a fresh one gets from ``0001_initial``. Per changed table
the steps run in an order both SQLite (batch mode: the table is rebuilt) and
PostgreSQL accept:

1. drop the indexes that go away (outside the batch: SQLite has ``DROP INDEX``);
2. batch A: drop unique groups and foreign keys, change types (columns stay nullable
   for now), rename, drop and add columns (added ones nullable);
3. fill the NULLs of columns that become NOT NULL, with the default or a zero value;
4. batch B: make those columns NOT NULL, create the new foreign keys (a new foreign
   key must not share a batch with the rename of its column) and unique groups;
5. create the new indexes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...model import ir
from ...regen.migrations import SchemaDiff, TableChange
from ..columns import indexed, is_integer_key
from ..pysource import call, literal
from .constraints import (
    create_foreign_key,
    created_groups,
    drop_foreign_key,
    dropped_groups,
)
from .data_moves import (
    execute_chain,
    key_rename_lines,
    moved_value_lines,
    rename_table_lines,
    sql_name,
    table_of,
)
from .db_columns import Column, column, fill_value, pg_type
from .storage import migration_type, server_default

# A batch that adds a column the database fills with an expression (``now()``)
# rebuilds the table on SQLite, whose ADD COLUMN cannot.
SQLITE_REBUILDS = '"always" if op.get_context().dialect.name == "sqlite" else "auto"'


def _index_name(table: str, name: str) -> str:
    return f"ix_{table}_{name}"


@dataclass(frozen=True)
class _Pair:
    before: Column
    after: Column
    field: ir.Field  # the field after the change


def _pairs(change: TableChange, diff: SchemaDiff) -> list[_Pair]:
    return [
        _Pair(column(b, diff.before), column(a, diff.after), a)
        for b, a in change.kept
        if not a.is_key
    ]


def altered_columns(change: TableChange, diff: SchemaDiff) -> list[str]:
    """Names of kept columns whose storage changed (a rename alone is not one)."""
    if _same_storage(change, diff):
        return []
    return [
        p.after.name
        for p in _pairs(change, diff)
        if _storage(p.before) != _storage(p.after)
    ]


def _table_renamed(change: TableChange) -> bool:
    return change.before.table != change.after.table


def _dropped_indexes_of(change: TableChange, diff: SchemaDiff) -> list[tuple[str, str]]:
    """Each dropped index's column and name (an adopted table's: its real one)."""
    moved = _table_renamed(change)
    table = change.before.table
    columns = [column(f, diff.before) for f in change.dropped if indexed(f)]
    columns += [
        p.before
        for p in _pairs(change, diff)
        if p.before.index and (moved or _index_changes(p))
    ]
    return [(c.name, c.index_name or _index_name(table, c.name)) for c in columns]


def _unkeyed_columns(change: TableChange, diff: SchemaDiff) -> set[str]:
    """Columns whose foreign key the first batch drops."""
    names = {f.column_name for f in change.dropped if f.relation}
    names |= {
        p.before.name
        for p in _pairs(change, diff)
        if p.before.foreign_key and _foreign_key_moves(change, p)
    }
    return names


def _dropped_indexes(change: TableChange, diff: SchemaDiff) -> list[str]:
    """Indexes dropped before the table changes; those of a column whose foreign key
    goes are dropped after it, in the batch (MySQL keeps an index its key needs)."""
    table = change.before.table
    keyed = _unkeyed_columns(change, diff)
    return [
        call(
            "op.drop_index",
            [f"op.f({literal(index)})", f"table_name={literal(table)}"],
            indent=1,
        )
        for n, index in _dropped_indexes_of(change, diff)
        if n not in keyed
    ]


def _created_indexes(change: TableChange, diff: SchemaDiff) -> list[str]:
    table = change.after.table
    moved = _table_renamed(change)
    made = [(f.column_name, f.unique) for f in change.added if indexed(f)]
    made += [
        (p.after.name, p.after.unique)
        for p in _pairs(change, diff)
        if p.after.index and (moved or _index_changes(p))
    ]
    return [
        call(
            "op.create_index",
            [
                f"op.f({literal(_index_name(table, name))})",
                literal(table),
                literal([name]),
                *(["unique=True"] if unique else []),
            ],
            indent=1,
        )
        for name, unique in made
    ]


def _storage(col: Column) -> tuple[object, ...]:
    return (
        col.type,
        col.nullable,
        col.index,
        col.unique,
        col.foreign_key,
        col.default_sql,
    )


def _index_changes(p: _Pair) -> bool:
    """Whether a kept column's index is dropped and made again (name or kind)."""
    before, after = p.before, p.after
    return (before.index, before.unique, before.name) != (
        after.index,
        after.unique,
        after.name,
    )


def _alter(name: str, args: list[str]) -> str:
    return call("batch_op.alter_column", [literal(name), *args], indent=2)


def _foreign_key_moves(change: TableChange, p: _Pair) -> bool:
    """Whether a kept column's foreign key is dropped and created again."""
    return _table_renamed(change) or (
        p.before.foreign_key != p.after.foreign_key or p.before.name != p.after.name
    )


def _first_batch(change: TableChange, diff: SchemaDiff) -> list[str]:
    """Foreign keys dropped, types changed, columns renamed, dropped and added."""
    table = change.before.table  # constraint names still say the old table
    lines = [
        drop_foreign_key(table, column(f, diff.before))
        for f in change.dropped
        if f.relation
    ]
    lines += [
        drop_foreign_key(table, p.before)
        for p in _pairs(change, diff)
        if p.before.foreign_key and _foreign_key_moves(change, p)
    ]
    keyed = _unkeyed_columns(change, diff)
    lines += [
        f"batch_op.drop_index(op.f({literal(index)}))"
        for name, index in _dropped_indexes_of(change, diff)
        if name in keyed
    ]
    for p in _pairs(change, diff):
        loosen = not p.before.nullable and p.after.nullable
        if p.before.type != p.after.type or loosen:
            args = [f"existing_type={p.before.full_type}"]
            if p.before.type != p.after.type:
                using = f"{sql_name(p.before.name)}::{pg_type(p.after.type)}"
                args += [
                    f"type_={p.after.full_type}",
                    f"postgresql_using={literal(using)}",
                ]
            if loosen:
                args.append("nullable=True")
            lines.append(_alter(p.before.name, args))
        if p.before.default_sql != p.after.default_sql:
            filled = server_default(p.field) or ["server_default=None"]
            args = [f"existing_type={p.before.full_type}", *filled]
            lines.append(_alter(p.before.name, args))
    lines += key_rename_lines(change, diff)
    # MySQL renames with CHANGE COLUMN, which restates the whole column.
    lines += [
        _alter(
            p.before.name,
            [
                f"new_column_name={literal(p.after.name)}",
                f"existing_type={p.after.full_type}",
                f"existing_nullable={p.after.nullable}",
            ],
        )
        for p in _pairs(change, diff)
        if p.before.name != p.after.name
    ]
    lines += [f"batch_op.drop_column({literal(f.column_name)})" for f in change.dropped]
    lines += [
        call(
            "batch_op.add_column",
            [
                call(
                    "sa.Column",
                    [
                        literal(f.column_name),
                        migration_type(f, diff.after),
                        "nullable=True",
                        *server_default(f),
                    ],
                    indent=3,
                )
            ],
            indent=2,
        )
        for f in change.added
    ]
    return lines


def _tightened(change: TableChange, diff: SchemaDiff) -> list[ir.Field]:
    """Fields that end NOT NULL but are nullable after the first batch."""
    fields = [f for f in change.added if not f.column_nullable]
    fields += [
        p.field
        for p in _pairs(change, diff)
        if p.before.nullable and not p.after.nullable
    ]
    return fields


def _fills(change: TableChange, fields: list[ir.Field]) -> list[str]:
    lines = []
    for field in fields:
        value = fill_value(field)
        if value is None:
            continue  # the migration's data check refuses while NULLs remain
        name = literal(field.column_name)
        table_call = table_of(change.after.table, field)
        chain = [
            "table.update()",
            f".where(table.c[{name}].is_(None))",
            f".values({{{name}: {value}}})",
        ]
        lines += [table_call, execute_chain(chain)]
    return lines


def _second_batch(
    change: TableChange, diff: SchemaDiff, fields: list[ir.Field]
) -> list[str]:
    table = change.after.table
    lines = [
        _alter(
            f.column_name,
            [f"existing_type={migration_type(f, diff.after)}", "nullable=False"],
        )
        for f in fields
    ]
    lines += [
        create_foreign_key(table, column(f, diff.after))
        for f in change.added
        if f.relation
    ]
    lines += [
        create_foreign_key(table, p.after)
        for p in _pairs(change, diff)
        if p.after.foreign_key and _foreign_key_moves(change, p)
    ]
    return lines


def batch(resource: ir.Resource, lines: list[str]) -> list[str]:
    """``lines`` in a batch; a rebuilt SQLite table keeps (or gains) AUTOINCREMENT."""
    if not lines:
        return []
    body = "".join(f"\n        {line}" for line in lines)
    args = [literal(resource.table)]
    if "server_default=" in body:  # SQLite adds no column filled by an expression
        args.append(f"recreate={SQLITE_REBUILDS}")
    if is_integer_key(resource.key_field):
        args.append('table_kwargs={"sqlite_autoincrement": True}')
    opening = call(
        "op.batch_alter_table", args, indent=1, prefix="with ", suffix=" as batch_op:"
    )
    return [f"{opening}{body}"]


def _same_storage(change: TableChange, diff: SchemaDiff) -> bool:
    """Whether the table stays as it is: the same resource, relations to the same keys.

    Checked first, so that a diff over many tables costs little for those it keeps.
    """
    if change.added or change.dropped or change.before != change.after:
        return False
    for name in {f.relation for f in change.after.fields if f.relation}:
        old, new = diff.before.resource(name), diff.after.resource(name)
        if (old.table, old.key_column) != (new.table, new.key_column):
            return False
    return True


def table_change_lines(change: TableChange, diff: SchemaDiff) -> list[str]:
    """The statements that bring one table from ``before`` to ``after``."""
    if _same_storage(change, diff):
        return []
    tightened = _tightened(change, diff)
    return [
        *moved_value_lines(change, widening=False),
        *_dropped_indexes(change, diff),
        *rename_table_lines(change),
        *batch(change.after, dropped_groups(change) + _first_batch(change, diff)),
        *moved_value_lines(change, widening=True),
        *_fills(change, tightened),
        *batch(
            change.after,
            _second_batch(change, diff, tightened) + created_groups(change),
        ),
        *_created_indexes(change, diff),
    ]
