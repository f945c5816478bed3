"""503 with the command to run, when a request fails because the database is behind.

A database error (SQLAlchemy's, or sqlite3's from the loop reader) makes the panel ask
whether migrations are pending (``app.core.migration_state``, one ``SELECT``); if so
the answer is ``NotMigrated``: 503, ``Retry-After`` and ``python -m app migrate``, as
JSON or as the error page. Otherwise the error goes on to the 500 handler, as before.
Requests that succeed never ask. A database that does not answer at all is asked
about first (``app.panel.unavailable``).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request, Response
from starlette.concurrency import run_in_threadpool

from app.core.migration_state import MIGRATE_COMMAND, MigrationState
from panel_core.not_migrated import NotMigrated

from .errorpages import error_response
from .unavailable import DATABASE_ERRORS, unavailable_answer

logger = logging.getLogger("app.migrations")


def warn_if_not_migrated(app: FastAPI) -> None:
    """At start-up: log a warning when migrations are pending (the app still starts)."""
    warning = app.state.migrations.startup_warning()
    if warning:
        logger.warning(warning)


def _asked_before(exc: Exception) -> bool:
    # An error the route handler passed on reaches the 500 handler too: ask once.
    asked = getattr(exc, "_panel_migrations_asked", False)
    exc._panel_migrations_asked = True  # type: ignore[attr-defined]
    return bool(asked)


async def not_migrated_answer(request: Request, exc: Exception) -> Response | None:
    """The 503 answer if ``exc`` is a database error and migrations are pending."""
    if not isinstance(exc, DATABASE_ERRORS) or _asked_before(exc):
        return None
    state: MigrationState | None = getattr(request.app.state, "migrations", None)
    if state is None or not await run_in_threadpool(state.behind):
        return None
    return error_response(request, NotMigrated(MIGRATE_COMMAND))


async def database_error_answer(request: Request, exc: Exception) -> Response | None:
    """503 if ``exc`` is a database error because the database does not answer or
    is behind the code; ``None`` for any other error."""
    answer = await unavailable_answer(request, exc)
    return answer or await not_migrated_answer(request, exc)


async def _database_error(request: Request, exc: Exception) -> Response:
    answer = await database_error_answer(request, exc)
    if answer is None:
        raise exc  # on to the 500 handler
    return answer


def install_migration_errors(app: FastAPI) -> None:
    """Answer database errors with 503 while the database does not answer or
    migrations are pending."""
    app.state.migrations = MigrationState(app.state.engine)
    for error in DATABASE_ERRORS:
        app.add_exception_handler(error, _database_error)
