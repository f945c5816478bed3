"""Migrations on MySQL and MariaDB, which cannot roll a schema change back.

There every DDL statement commits at once: a migration that fails at its fourth
statement keeps the first three, and running it again from the start would fail on
the first ("Duplicate column name"). So on these databases the migrations run in
autocommit, and each statement Alembic runs is counted in ``panel_migration_progress``
as soon as it succeeds. The next ``migrate`` skips the statements of the interrupted
migration that already ran and resumes at the one that failed; the count goes once
the migration is recorded as applied. Reads (a migration's data checks) are not
counted: they run again, before the first change, on every attempt.

Before migrating, ``charset_problem`` checks that the database stores utf8mb4 with
the binary collation ``utf8mb4_bin`` (``panel_core.mysql``): every character, emoji
included, and values compared, kept unique and sorted as on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, Engine

from app.core.db import MYSQL_BACKENDS
from panel_core import mysql
from panel_core.mysql import CHARSET_QUERY

PROGRESS = sa.Table(
    "panel_migration_progress",
    sa.MetaData(),
    sa.Column("revision", sa.String(255), primary_key=True),
    sa.Column("statements", sa.Integer, nullable=False),
)


def is_mysql(engine: Engine | Connection) -> bool:
    """Whether ``engine`` is MySQL or MariaDB."""
    return engine.dialect.name in MYSQL_BACKENDS


def charset_problem(engine: Engine) -> str | None:
    """What is wrong with the database's character set, with the fix; else ``None``."""
    with engine.connect() as connection:
        found = connection.exec_driver_sql(CHARSET_QUERY).one()
    return mysql.charset_problem(*found)


def interrupted(engine: Engine) -> tuple[str, int] | None:
    """The revision an interrupted migration started from, and the statements it
    applied; ``None`` when no migration was interrupted."""
    with engine.connect() as connection:
        if not sa.inspect(connection).has_table(PROGRESS.name):
            return None
        row = connection.execute(sa.select(PROGRESS)).first()
    return None if row is None else (row.revision, row.statements)


class Progress:
    """Counts the statements Alembic runs, skipping those an earlier run applied."""

    def __init__(self, context: MigrationContext) -> None:
        assert context.connection is not None
        self._context = context
        self._connection: Connection = context.connection
        PROGRESS.create(self._connection, checkfirst=True)
        self._run: dict[str, int] = {}
        self._exec: Callable[..., Any] = context.impl._exec
        context.impl._exec = self._counted  # type: ignore[method-assign]

    def applied(self) -> None:
        """After a migration is recorded as applied: nothing left to resume."""
        self._connection.execute(sa.delete(PROGRESS))

    def _counted(self, construct: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(construct, "table", None) is self._context._version:
            return self._exec(construct, *args, **kwargs)  # the revision itself
        start = ",".join(self._context.get_current_heads()) or "base"
        done = self._run.get(start, 0)
        self._run[start] = done + 1
        if done < self._stored(start):
            return None  # applied by an earlier, interrupted run
        result = self._exec(construct, *args, **kwargs)
        self._store(start, done + 1)
        return result

    def _stored(self, start: str) -> int:
        statement = sa.select(PROGRESS.c.statements).where(PROGRESS.c.revision == start)
        return int(self._connection.execute(statement).scalar() or 0)

    def _store(self, start: str, statements: int) -> None:
        self._connection.execute(sa.delete(PROGRESS))
        self._connection.execute(
            sa.insert(PROGRESS).values(revision=start, statements=statements)
        )


def resumable(context: MigrationContext) -> Callable[..., None]:
    """Count ``context``'s statements (``Progress``); returns the callback Alembic
    runs after each migration it records (``on_version_apply``)."""
    progress = Progress(context)

    def applied(**_kwargs: Any) -> None:
        progress.applied()

    return applied
