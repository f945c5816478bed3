"""Data checks a migration runs before its first change: refuse rather than lose rows.

A generated migration that narrows a column, casts a type, removes an enum value, makes
a column required or adds a unique constraint first counts the rows the change would
damage. If any exist it raises :class:`MigrationRefused` with the counts and a few
example keys, before touching the database; the project's ``migrate`` command prints
the message (no traceback) and exits 1. panelforge runs the same checks when it
generates the migration and the project's database is reachable.

The checks speak plain SQL through one callable, ``run(sql) -> rows``, so the same
code serves Alembic (``op.get_bind()``), Django (``schema_editor.connection``) and
panelforge itself (a DB-API connection).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

Rows = Sequence[Sequence[object]]
RunSql = Callable[[str], Rows]


class MigrationRefused(Exception):
    """A migration found rows it would damage; nothing was changed."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Finding:
    """Rows of one column a change would damage."""

    table: str
    column: str
    count: int
    problem: str  # "are longer than 10 characters"
    keys: tuple[object, ...]  # a few example keys
    hint: str
