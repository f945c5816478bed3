"""The database engine, tuned per backend, and the transactions requests run in.

SQLite gets WAL, enforced foreign keys, a busy timeout, a larger page cache and the
search's case folding (``folded``) on every connection; writes start with ``BEGIN
IMMEDIATE`` so two writers queue on the busy timeout instead of failing when a read
lock cannot be upgraded, and the writers of one process take turns on a lock first
(``transaction``). PostgreSQL goes through psycopg 3 with a connection pool, in UTC,
giving up on a connection after ``CONNECT_TIMEOUT`` seconds. MySQL and MariaDB go
through PyMySQL (pure Python) with the same pool and timeout, in utf8mb4, in UTC and
in strict SQL mode (``MYSQL_SESSION``). ``database_problem`` asks whether the database
answers.

The hot reads (a record, a list page, the logged-in user) also have a way around the
pool and the thread hop on SQLite and PostgreSQL: ``app.core.readers``.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import FunctionElement
from sqlalchemy.types import String

from panel_core.search import FOLD_FUNCTION, fold
from panel_core.unavailable import reason

_SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA foreign_keys=ON",
    # A writer waits this long (ms) for another to commit: a large CSV import holds
    # the write lock while it writes (45,000 rows: seconds). Then 503, Retry-After.
    "PRAGMA busy_timeout=20000",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA cache_size=-65536",  # 64 MiB
)
# Seconds to wait for a PostgreSQL or MySQL server to accept a connection.
CONNECT_TIMEOUT = 10
MYSQL_BACKENDS = frozenset({"mysql", "mariadb"})
# Every MySQL/MariaDB connection: date-times in UTC, and strict SQL mode, so a value
# that does not fit is an error rather than silently truncated or zeroed.
MYSQL_SESSION = "SET time_zone = '+00:00', sql_mode = 'TRADITIONAL'"


def create_db_engine(url: str) -> Engine:
    """An engine for ``url``: SQLite, PostgreSQL (psycopg 3) or MySQL (PyMySQL)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(parsed)
        event.listen(engine, "connect", configure_sqlite)
        event.listen(engine, "begin", _begin_sqlite)
        return engine
    if parsed.drivername in {"postgresql", "postgres"}:
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.get_backend_name() in MYSQL_BACKENDS and "+" not in parsed.drivername:
        parsed = parsed.set(drivername=f"{parsed.drivername}+pymysql")
    return create_engine(
        parsed,
        pool_size=10,
        max_overflow=10,
        pool_pre_ping=True,
        connect_args=server_connect_args(parsed),
    )


def server_connect_args(url: URL) -> dict[str, Any]:
    """What every connection to the PostgreSQL or MySQL server at ``url`` is opened
    with, beyond the URL: its session settings and the connect timeout."""
    connect_args: dict[str, Any] = {"options": "-c timezone=UTC"}
    if url.get_backend_name() in MYSQL_BACKENDS:
        connect_args = {"charset": "utf8mb4", "init_command": MYSQL_SESSION}
    if "connect_timeout" not in url.query:
        # A host that never answers fails after this many seconds, not minutes.
        connect_args["connect_timeout"] = CONNECT_TIMEOUT
    return connect_args


def returns_rows(connection: Connection) -> bool:
    """Whether INSERT and UPDATE can return the rows they wrote (``RETURNING``).

    MySQL has no RETURNING and MariaDB only on INSERT: on both the row is read back
    in the same transaction instead, by the same code whichever of the two it is.
    """
    return connection.dialect.name not in MYSQL_BACKENDS


def database_problem(engine: Engine) -> str | None:
    """Why the database does not answer a ``SELECT 1``; ``None`` when it does.

    An SQLite file that does not exist yet is not asked (that would create it).
    """
    url = engine.url
    if url.get_backend_name() == "sqlite" and _missing_file(url.database):
        folder = Path(str(url.database)).parent
        return None if folder.is_dir() else f"the folder {folder} does not exist"
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1")
    except (DBAPIError, sqlite3.Error) as exc:
        return reason(exc)
    return None


def _missing_file(database: str | None) -> bool:
    if database in (None, "", ":memory:") or database.startswith("file:"):
        return False
    return not Path(database).exists()


def configure_sqlite(dbapi_connection: Any, _record: Any = None) -> None:
    """Settings every SQLite connection gets (see the module's docstring)."""
    # The driver's own implicit transactions would hide BEGIN from _begin_sqlite.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    for pragma in _SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()
    dbapi_connection.create_function(FOLD_FUNCTION, 1, fold, deterministic=True)


class folded(FunctionElement[str]):  # noqa: N801 (an SQL function, named like func.*)
    """Text case-folded in every script: ``panel_fold()`` on SQLite, ``LOWER()``
    elsewhere (SQLite's own ``lower()`` folds ASCII only)."""

    type = String()
    name = "folded"
    inherit_cache = True


@compiles(folded)
def _lower(element: folded, compiler: SQLCompiler, **kw: Any) -> str:
    return f"LOWER({compiler.process(element.clauses, **kw)})"


@compiles(folded, "sqlite")
def _sqlite_fold(element: folded, compiler: SQLCompiler, **kw: Any) -> str:
    return f"{FOLD_FUNCTION}({compiler.process(element.clauses, **kw)})"


def _begin_sqlite(connection: Connection) -> None:
    writes = connection.get_execution_options().get("writes", False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")


@contextmanager
def transaction(engine: Engine, *, writes: bool = False) -> Iterator[Connection]:
    """One connection in one transaction: committed on success, rolled back on error.

    On SQLite, a transaction that ``writes`` first waits for the process's other
    writers on a lock. SQLite takes one writer at a time anyway; one waiting on the
    lock starts the moment the last one ends, while one waiting on SQLite's busy
    handler sleeps between tries (up to 100 ms each): under concurrent writes, most
    of a write's time. Writers of other processes still queue on the busy timeout.
    """
    with _writers(engine) if writes else nullcontext(), engine.connect() as connection:
        connection.execution_options(writes=writes)
        with connection.begin():
            yield connection


# Seconds a writer waits for its turn: the busy timeout of _SQLITE_PRAGMAS.
_TURN_TIMEOUT = 20.0


class _Turns:
    """The writers of one SQLite database in this process, one at a time. One that
    waits longer than the busy timeout gets SQLite's own answer (503, Retry-After)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()

    def __enter__(self) -> None:
        if not self._lock.acquire(timeout=_TURN_TIMEOUT):
            raise sqlite3.OperationalError("database is locked")

    def __exit__(self, *_exc: object) -> None:
        self._lock.release()


_SQLITE_WRITERS: dict[str, _Turns] = {}
_SQLITE_WRITERS_LOCK = threading.Lock()


def _writers(engine: Engine) -> AbstractContextManager[Any]:
    """The turns the writers of ``engine``'s SQLite database take (one per database
    file in this process); nothing to wait for on other databases."""
    if engine.dialect.name != "sqlite":
        return nullcontext()
    database = str(engine.url.database)
    with _SQLITE_WRITERS_LOCK:
        return _SQLITE_WRITERS.setdefault(database, _Turns())
