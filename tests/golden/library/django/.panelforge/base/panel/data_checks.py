"""Operations generated migrations use to keep data safe: checks first, value moves.

``data_check(...)`` is a ``RunPython`` that counts the rows a migration would damage
and raises ``MigrationRefused`` before any change (Django runs a migration in one
transaction on SQLite and PostgreSQL, so nothing is left half done);
``move_values(...)`` moves rows of renamed or retired enum values. Generated
migrations import them from here, a module that stays where it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import migrations

from panel.core.migration_guard import Check, Rows, quote_name, refuse_damage

__all__ = ["Check", "data_check", "move_values"]


def _runner(schema_editor: Any) -> Callable[[str], Rows]:
    connection = schema_editor.connection

    def run(sql: str) -> Rows:
        with connection.cursor() as cursor:
            cursor.execute(sql)
            return cursor.fetchall()

    return run


def data_check(
    checks: Sequence[Check], undo_checks: Sequence[Check], migration: str
) -> migrations.RunPython:
    """Refuse the migration (or its undo) while rows it would damage exist."""

    def forwards(apps: Any, schema_editor: Any) -> None:
        del apps
        refuse_damage(_runner(schema_editor), checks, migration)

    def backwards(apps: Any, schema_editor: Any) -> None:
        del apps
        refuse_damage(_runner(schema_editor), undo_checks, f"{migration} (undo)")

    return migrations.RunPython(forwards, backwards, elidable=False)


def move_values(
    table: str, column: str, moves: Sequence[tuple[object, object]]
) -> migrations.RunPython:
    """Set ``column`` to ``new`` where it holds ``old``, for each ``(old, new)``.

    The undo moves back the values that only one old value moved to.
    """
    targets = [new for _, new in moves]
    undo = [(new, old) for old, new in moves if targets.count(new) == 1]

    def apply(pairs: Sequence[tuple[object, object]]) -> Callable[[Any, Any], None]:
        def run(apps: Any, schema_editor: Any) -> None:
            del apps
            sql = (
                f"UPDATE {quote_name(table)} SET {quote_name(column)} = %s "
                f"WHERE {quote_name(column)} = %s"
            )
            with schema_editor.connection.cursor() as cursor:
                for old, new in pairs:
                    cursor.execute(sql, [new, old])

        return run

    return migrations.RunPython(apply(moves), apply(undo), elidable=False)
