"""Migrations on MySQL and MariaDB, which cannot roll a schema change back.

There every DDL statement commits at once (Django runs their migrations without a
transaction): a migration that fails at its fourth statement keeps the first three,
and applying it again from the start would fail on the first ("Duplicate column
name"). So ``manage.py migrate`` counts each statement a migration's schema editor
runs in ``panel_migration_progress`` as soon as it succeeds; the next ``migrate``
skips the statements of the interrupted migration that already ran and resumes at
the one that failed. The count goes once the migration is recorded. ``RunPython``
steps are not counted: they run again, so they are written to be repeatable.
"""

from __future__ import annotations

from typing import Any

from panel_core.mysql import CHARSET_QUERY, charset_problem

TABLE = "panel_migration_progress"


class Progress:
    """The statements of the migration being applied, counted and skipped."""

    def __init__(self, connection: Any) -> None:
        self._connection = connection
        self._migration = ""
        self._run = 0
        with connection.cursor() as cursor:
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {TABLE} (revision VARCHAR(255) NOT NULL"
                " PRIMARY KEY, statements INTEGER NOT NULL)"
            )

    def start(self, migration: str) -> None:
        """A migration (``app.0002_x``, or ``unapply app.0002_x``) begins."""
        self._migration, self._run = migration, 0

    def applied(self) -> None:
        """The migration is recorded: nothing left to resume."""
        self._migration = ""
        self._write(f"DELETE FROM {TABLE}")

    def run(self, execute: Any, sql: Any, params: Any) -> None:
        """``execute(sql, params)`` unless an interrupted run applied it already."""
        if not self._migration:
            execute(sql, params)
            return
        done, self._run = self._run, self._run + 1
        if done < self.stored(self._migration):
            return
        execute(sql, params)
        self._write(f"DELETE FROM {TABLE}")
        self._write(
            f"INSERT INTO {TABLE} (revision, statements) VALUES (%s, %s)",
            [self._migration, done + 1],
        )

    def stored(self, migration: str | None = None) -> int:
        """The statements an interrupted run of ``migration`` (any: None) applied."""
        rows = self.interrupted()
        if rows is None or (migration is not None and rows[0] != migration):
            return 0
        return rows[1]

    def interrupted(self) -> tuple[str, int] | None:
        """The migration a run left partway and its statements applied, if any."""
        with self._connection.cursor() as cursor:
            cursor.execute(f"SELECT revision, statements FROM {TABLE}")
            row = cursor.fetchone()
        return None if row is None else (str(row[0]), int(row[1]))

    def _write(self, sql: str, params: Any = None) -> None:
        with self._connection.cursor() as cursor:
            cursor.execute(sql, params)


def database_charset_problem(connection: Any) -> str | None:
    """What is wrong with the database's character set, with the fix; else None."""
    with connection.cursor() as cursor:
        cursor.execute(CHARSET_QUERY)
        name, charset, collation = cursor.fetchone()
    return charset_problem(name, charset, collation)
