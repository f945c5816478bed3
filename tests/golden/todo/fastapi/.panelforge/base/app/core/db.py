"""The database engine, tuned per backend, and the transactions requests run in.

SQLite gets WAL, enforced foreign keys, a busy timeout and a larger page cache on every
connection; writes start with ``BEGIN IMMEDIATE`` so two writers queue on the busy
timeout instead of failing when a read lock cannot be upgraded. PostgreSQL goes
through psycopg 3 with a connection pool, in UTC.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url

_SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA busy_timeout=5000",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA cache_size=-65536",  # 64 MiB
)


def create_db_engine(url: str) -> Engine:
    """An engine for ``url``: SQLite, or PostgreSQL through psycopg 3."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(parsed)
        event.listen(engine, "connect", _configure_sqlite)
        event.listen(engine, "begin", _begin_sqlite)
        return engine
    if parsed.drivername in {"postgresql", "postgres"}:
        parsed = parsed.set(drivername="postgresql+psycopg")
    return create_engine(
        parsed,
        pool_size=10,
        max_overflow=10,
        pool_pre_ping=True,
        connect_args={"options": "-c timezone=UTC"},
    )


def _configure_sqlite(dbapi_connection: Any, _record: Any) -> None:
    # The driver's own implicit transactions would hide BEGIN from _begin_sqlite.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    for pragma in _SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


def _begin_sqlite(connection: Connection) -> None:
    writes = connection.get_execution_options().get("writes", False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")


@contextmanager
def transaction(engine: Engine, *, writes: bool = False) -> Iterator[Connection]:
    """One connection in one transaction: committed on success, rolled back on error."""
    with engine.connect() as connection:
        connection.execution_options(writes=writes)
        with connection.begin():
            yield connection
