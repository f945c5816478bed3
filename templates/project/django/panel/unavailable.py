"""503 with ``Retry-After`` when a request fails because the database does not answer.

After a database error the panel asks the database for a ``SELECT 1`` on a new
connection (``database_problem``): if that fails too, the answer is the kernel's
``DatabaseUnavailable`` (``panel_core.unavailable``), as JSON or as the error page,
and the problem is logged naming ``DATABASE_URL`` without its password. The servers
ask once at start-up too (``panel.checks.application_or_exit``), log the same line
and start anyway: the panel answers as soon as the database does. ``manage.py
migrate`` asks first and says it in one ``error:`` line.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.http import HttpRequest, HttpResponse

from panel_core.unavailable import (
    is_busy,
    reason,
    startup_error,
    unavailable,
    unreachable,
)

DATABASE_ERRORS: tuple[type[Exception], ...] = (DatabaseError, sqlite3.Error)
logger = logging.getLogger("panel.database")


def database_problem(using: str = DEFAULT_DB_ALIAS) -> str | None:
    """Why the database does not answer a ``SELECT 1``; ``None`` when it does.

    An SQLite file that does not exist yet is not asked (that would create it).
    """
    connection = connections[using]
    if connection.vendor == "sqlite":
        name = Path(str(connection.settings_dict["NAME"]))
        if not name.exists():
            folder = name.parent
            return None if folder.is_dir() else f"the folder {folder} does not exist"
    if connection.in_atomic_block:
        return None  # the view's transaction is still open: nothing to tell
    try:
        connection.close()  # a new connection, not the one that failed
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as exc:
        return reason(exc)
    return None


def check_database() -> bool:
    """At start-up: whether the database answers; logs the problem if it does not."""
    try:
        problem = database_problem()
    finally:
        connections[DEFAULT_DB_ALIAS].close()  # opened here, not by a request
    if problem is not None:
        logger.error(startup_error(settings.DATABASE_URL, problem))
    return problem is None


def _asked_before(exception: BaseException) -> bool:
    # The view's error reaches both process_exception and handler500: ask once.
    asked = getattr(exception, "_panel_database_asked", False)
    exception._panel_database_asked = True  # type: ignore[attr-defined]
    return bool(asked)


def unavailable_answer(
    request: HttpRequest, exception: BaseException | None
) -> HttpResponse | None:
    """The 503 answer if ``exception`` is a database error and the database does not
    answer (or SQLite stayed locked by another writer past the busy timeout)."""
    if not isinstance(exception, DATABASE_ERRORS) or _asked_before(exception):
        return None
    if not is_busy(exception):
        problem = database_problem()
        if problem is None:
            return None
        logger.error(unreachable(settings.DATABASE_URL, problem))
    from .errors import error_response  # errors imports this module

    return error_response(request, unavailable())
