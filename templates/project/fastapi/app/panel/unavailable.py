"""503 with ``Retry-After`` when a request fails because the database does not answer.

After a database error the panel asks the database for a ``SELECT 1`` on a new
connection (``app.core.db.database_problem``, in the thread pool): if that fails too,
the answer is the kernel's ``DatabaseUnavailable`` (``panel_core.unavailable``), as
JSON or as the error page, and the problem is logged naming the database's URL
without its password. The app asks once at start-up too, logs the same line and
starts anyway: it answers as soon as the database does.
"""

from __future__ import annotations

import logging
import sqlite3

from fastapi import FastAPI, Request, Response
from sqlalchemy.exc import DBAPIError
from starlette.concurrency import run_in_threadpool

from app.core.db import database_problem
from panel_core.unavailable import (
    is_busy,
    startup_error,
    unavailable,
    unreachable,
)

from .errorpages import error_response

# SQLAlchemy's, and sqlite3's from the loop reader.
DATABASE_ERRORS: tuple[type[Exception], ...] = (DBAPIError, sqlite3.Error)
logger = logging.getLogger("app.database")


def check_database(app: FastAPI) -> bool:
    """At start-up: whether the database answers; logs the problem if it does not."""
    problem = database_problem(app.state.engine)
    if problem is not None:
        logger.error(startup_error(app.state.settings.database_url, problem))
    return problem is None


def _asked_before(exc: Exception) -> bool:
    # An error the route handler passed on reaches the 500 handler too: ask once.
    asked = getattr(exc, "_panel_database_asked", False)
    exc._panel_database_asked = True  # type: ignore[attr-defined]
    return bool(asked)


async def unavailable_answer(request: Request, exc: Exception) -> Response | None:
    """The 503 answer if ``exc`` is a database error and the database does not answer
    (or SQLite stayed locked by another writer past the busy timeout)."""
    if not isinstance(exc, DATABASE_ERRORS) or _asked_before(exc):
        return None
    if not is_busy(exc):
        problem = await run_in_threadpool(database_problem, request.app.state.engine)
        if problem is None:
            return None
        logger.error(unreachable(request.app.state.settings.database_url, problem))
    return error_response(request, unavailable())
