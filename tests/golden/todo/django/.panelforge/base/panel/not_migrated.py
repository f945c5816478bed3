"""503 with the command to run, when a request fails because the database is behind.

Django knows which migrations the database lacks (``MigrationExecutor``'s plan to
every leaf of the migration graph). The panel asks once when the server starts
(``config/wsgi.py`` and ``config/asgi.py``, through ``panel.checks``: a warning naming
``python manage.py migrate``; the server still starts) and again only when a request
fails on a database error (``panel.errors``): requests that succeed cost nothing. If
migrations are pending, the answer is the kernel's ``NotMigrated``: 503,
``Retry-After`` and the command, as JSON or as the error page; otherwise the error is
a 500, as before. ``python manage.py migrate --check`` asks the same question.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.http import HttpRequest, HttpResponse

from panel_core.not_migrated import NotMigrated, pending_warning

MIGRATE_COMMAND = "python manage.py migrate"
DATABASE_ERRORS: tuple[type[Exception], ...] = (DatabaseError, sqlite3.Error)
logger = logging.getLogger("panel.migrations")


def _missing_sqlite_file(connection: BaseDatabaseWrapper) -> bool:
    if connection.vendor != "sqlite":
        return False
    name = str(connection.settings_dict["NAME"])
    if name in ("", ":memory:") or name.startswith("file:"):
        return False
    return not Path(name).exists()


def pending_migrations(using: str = DEFAULT_DB_ALIAS) -> list[str]:
    """The migrations the database lacks, in the order they would run (``app.0002_…``).

    An SQLite file that does not exist yet lacks them all, and is not created.
    """
    connection = connections[using]
    if _missing_sqlite_file(connection):
        graph = MigrationLoader(None, ignore_no_migrations=True).graph
        nodes = [n for leaf in graph.leaf_nodes() for n in graph.forwards_plan(leaf)]
        return [f"{app}.{name}" for app, name in dict.fromkeys(nodes)]
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [
        f"{migration.app_label}.{migration.name}"
        for migration, backwards in plan
        if not backwards
    ]


def database_behind() -> bool:
    """Whether migrations are pending; ``False`` when that cannot be told."""
    try:
        return bool(pending_migrations())
    except Exception:  # noqa: BLE001  (unreachable database…: the 500 stands)
        return False


def warn_if_not_migrated() -> None:
    """At start-up: log a warning when migrations are pending (the server starts)."""
    try:
        pending = pending_migrations()
    except Exception:  # noqa: BLE001  (the requests will say what is wrong)
        return
    finally:
        connection = connections[DEFAULT_DB_ALIAS]
        if not connection.in_atomic_block:
            connection.close()  # opened here, not by a request
    if pending:
        logger.warning(pending_warning(MIGRATE_COMMAND, pending))


def _asked_before(exception: BaseException) -> bool:
    # The view's error reaches both process_exception and handler500: ask once.
    asked = getattr(exception, "_panel_migrations_asked", False)
    exception._panel_migrations_asked = True  # type: ignore[attr-defined]
    return bool(asked)


def not_migrated_answer(
    request: HttpRequest, exception: BaseException | None
) -> HttpResponse | None:
    """The 503 answer if ``exception`` is a database error and migrations are pending."""
    if not isinstance(exception, DATABASE_ERRORS) or _asked_before(exception):
        return None
    if not database_behind():
        return None
    from .errors import error_response  # errors imports this module

    return error_response(request, NotMigrated(MIGRATE_COMMAND))
