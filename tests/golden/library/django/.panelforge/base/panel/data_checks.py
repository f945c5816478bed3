"""Operations generated migrations use to keep data safe: checks first, value moves.

``data_check(...)`` is a ``RunPython`` that counts the rows a migration would damage
and raises ``MigrationRefused`` before any change (Django runs a migration in one
transaction on SQLite and PostgreSQL, so nothing is left half done);
``undo_check(...)``, the last operation, does the same when the migration is undone
(Django undoes operations in reverse order); ``move_values(...)`` moves rows of
renamed or retired enum values, and back on undo. Generated
migrations import them from here, a module that stays where it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import migrations

from panel_core.migration_guard import (
    Check,
    Rows,
    dialect_named,
    quote_name,
    refuse_damage,
)

__all__ = ["Check", "data_check", "move_values", "rename_text_indexes", "undo_check"]


def _runner(schema_editor: Any) -> Callable[[str], Rows]:
    connection = schema_editor.connection

    def run(sql: str) -> Rows:
        with connection.cursor() as cursor:
            cursor.execute(sql)
            return cursor.fetchall()

    return run


def _dialect(schema_editor: Any) -> Any:
    return dialect_named(schema_editor.connection.vendor)


def _noop(apps: Any, schema_editor: Any) -> None:
    del apps, schema_editor


def data_check(checks: Sequence[Check], migration: str) -> migrations.RunPython:
    """First operation: refuse the migration while rows it would damage exist."""

    def forwards(apps: Any, schema_editor: Any) -> None:
        del apps
        refuse_damage(
            _runner(schema_editor), checks, migration, _dialect(schema_editor)
        )

    return migrations.RunPython(forwards, _noop, elidable=False)


def undo_check(checks: Sequence[Check], migration: str) -> migrations.RunPython:
    """Last operation (Django undoes in reverse, so it runs first): the same on undo."""

    def backwards(apps: Any, schema_editor: Any) -> None:
        del apps
        run, dialect = _runner(schema_editor), _dialect(schema_editor)
        refuse_damage(run, checks, f"{migration} (undo)", dialect)

    return migrations.RunPython(_noop, backwards, elidable=False)


def move_values(
    table: str,
    column: str,
    moves: Sequence[tuple[object, object]],
    undo: Sequence[tuple[object, object]],
) -> migrations.RunPython:
    """Set ``column`` to ``new`` where it holds ``old``, for each ``(old, new)``."""

    def apply(pairs: Sequence[tuple[object, object]]) -> Callable[[Any, Any], None]:
        def run(apps: Any, schema_editor: Any) -> None:
            del apps
            quote = schema_editor.connection.ops.quote_name
            sql = f"UPDATE {quote(table)} SET {quote(column)} = %s WHERE {quote(column)} = %s"
            with schema_editor.connection.cursor() as cursor:
                for old, new in pairs:
                    cursor.execute(sql, [new, old])

        return run

    return migrations.RunPython(apply(moves), apply(undo), elidable=False)


def rename_text_indexes(
    old_table: str, new_table: str, columns: Sequence[str]
) -> migrations.RunPython:
    """After ``AlterModelTable``: give PostgreSQL's text-pattern (``_like``) indexes
    the names Django derives from the new table, so that later type changes of
    those columns find and drop them (Django computes that name, it does not look
    it up)."""

    def rename(source: str, target: str) -> Callable[[Any, Any], None]:
        def run(apps: Any, schema_editor: Any) -> None:
            del apps
            if schema_editor.connection.vendor != "postgresql":
                return
            for column in columns:
                old = schema_editor._create_index_name(source, [column], suffix="_like")
                new = schema_editor._create_index_name(target, [column], suffix="_like")
                schema_editor.execute(
                    f"ALTER INDEX IF EXISTS {quote_name(old)} "
                    f"RENAME TO {quote_name(new)}"
                )

        return run

    return migrations.RunPython(
        rename(old_table, new_table), rename(new_table, old_table), elidable=False
    )
