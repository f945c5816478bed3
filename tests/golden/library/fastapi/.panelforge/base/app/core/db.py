"""The database engine, tuned per backend, and the transactions requests run in.

SQLite gets WAL, enforced foreign keys, a busy timeout, a larger page cache and the
search's case folding (``folded``) on every connection; writes start with ``BEGIN IMMEDIATE`` so two writers queue on the busy
timeout instead of failing when a read lock cannot be upgraded. PostgreSQL goes
through psycopg 3 with a connection pool, in UTC, giving up on a connection after
``CONNECT_TIMEOUT`` seconds. MySQL and MariaDB go through PyMySQL (pure Python) with
the same pool and timeout, in utf8mb4, in UTC and in strict SQL mode
(``MYSQL_SESSION``). ``database_problem`` asks whether the database answers.

On an SQLite file, the hot single-row reads (a record, the logged-in user) also have a
``LoopReader``: a raw sqlite3 connection per thread, used on the event loop itself.
Such a read takes microseconds, less than a hand-off to the thread pool, and under WAL
it never waits for a writer.
"""

from __future__ import annotations

import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, Select, create_engine, event
from sqlalchemy.engine import make_url
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
        event.listen(engine, "connect", _configure_sqlite)
        event.listen(engine, "begin", _begin_sqlite)
        return engine
    if parsed.drivername in {"postgresql", "postgres"}:
        parsed = parsed.set(drivername="postgresql+psycopg")
    connect_args: dict[str, Any] = {"options": "-c timezone=UTC"}
    if parsed.get_backend_name() in MYSQL_BACKENDS:
        if "+" not in parsed.drivername:
            parsed = parsed.set(drivername=f"{parsed.drivername}+pymysql")
        connect_args = {"charset": "utf8mb4", "init_command": MYSQL_SESSION}
    if "connect_timeout" not in parsed.query:
        # A host that never answers fails after this many seconds, not minutes.
        connect_args["connect_timeout"] = CONNECT_TIMEOUT
    return create_engine(
        parsed,
        pool_size=10,
        max_overflow=10,
        pool_pre_ping=True,
        connect_args=connect_args,
    )


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


def _configure_sqlite(dbapi_connection: Any, _record: Any) -> None:
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
    """One connection in one transaction: committed on success, rolled back on error."""
    with engine.connect() as connection:
        connection.execution_options(writes=writes)
        with connection.begin():
            yield connection


class _Prepared:
    """A SELECT rendered once for a dialect: its SQL, its parameters, its converters."""

    def __init__(self, statement: Select[Any], dialect: Any) -> None:
        compiled = statement.compile(dialect=dialect)
        if not compiled.positional or compiled.post_compile_params:
            raise ValueError("LoopReader needs positional, fully rendered statements")
        self.sql = compiled.string
        self.binds = tuple(
            (
                name,
                compiled.params[name],
                compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect),
            )
            for name in compiled.positiontup or ()
        )
        # The same result processors SQLAlchemy applies (booleans, datetimes…).
        self.converters = tuple(
            (index, convert)
            for index, column in enumerate(statement.selected_columns)
            if (convert := _result_processor(column.type, dialect)) is not None
        )

    def parameters(self, values: Mapping[str, Any]) -> list[Any]:
        found = []
        for name, default, convert in self.binds:
            value = values.get(name, default)
            found.append(value if convert is None else convert(value))
        return found

    def row(self, raw: Sequence[Any]) -> tuple[Any, ...]:
        if not self.converters:
            return tuple(raw)
        row = list(raw)
        for index, convert in self.converters:
            row[index] = convert(row[index])
        return tuple(row)


def _result_processor(type_: Any, dialect: Any) -> Callable[[Any], Any] | None:
    processor: Callable[[Any], Any] | None = type_.dialect_impl(
        dialect
    ).result_processor(dialect, None)
    return processor


class LoopReader:
    """Single-statement reads through one raw sqlite3 connection per thread.

    Each read runs in autocommit, so it sees every committed write. Statements are
    rendered once and kept, keyed by the statement object: pass statements built once
    (with ``bindparam`` for what varies), never ones built per request. The
    connections close when the engine is disposed.
    """

    def __init__(self, engine: Engine) -> None:
        self._dialect = engine.dialect
        self._connect_args = engine.dialect.create_connect_args(engine.url)
        self._prepared: dict[Select[Any], _Prepared] = {}
        self._opened: list[Any] = []
        self._local = threading.local()
        self._lock = threading.Lock()
        event.listen(engine, "engine_disposed", self._on_dispose)
        weakref.finalize(self, _close_all, self._opened)

    def first(
        self, statement: Select[Any], values: Mapping[str, Any]
    ) -> tuple[Any, ...] | None:
        """The first row ``statement`` selects with these parameters, if any."""
        prepared = self._prepare(statement)
        cursor = self._connection().execute(prepared.sql, prepared.parameters(values))
        try:
            raw = cursor.fetchone()
        finally:
            cursor.close()
        return None if raw is None else prepared.row(raw)

    def all(
        self, statement: Select[Any], values: Mapping[str, Any]
    ) -> list[tuple[Any, ...]]:
        """Every row ``statement`` selects with these parameters."""
        prepared = self._prepare(statement)
        cursor = self._connection().execute(prepared.sql, prepared.parameters(values))
        try:
            raw = cursor.fetchall()
        finally:
            cursor.close()
        return [prepared.row(row) for row in raw]

    def _prepare(self, statement: Select[Any]) -> _Prepared:
        prepared = self._prepared.get(statement)
        if prepared is None:
            prepared = self._prepared[statement] = _Prepared(statement, self._dialect)
        return prepared

    def close(self) -> None:
        """Close every connection; later reads open new ones."""
        with self._lock:
            self._local = threading.local()
            _close_all(self._opened)

    def _on_dispose(self, _engine: Engine) -> None:
        self.close()

    def _connection(self) -> Any:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            args, kwargs = self._connect_args
            connection = self._dialect.loaded_dbapi.connect(*args, **kwargs)
            _configure_sqlite(connection, None)
            with self._lock:
                self._opened.append(connection)
                self._local.connection = connection
        return connection


def _close_all(connections: list[Any]) -> None:
    while connections:
        connections.pop().close()


def loop_reader(engine: Engine) -> LoopReader | None:
    """A ``LoopReader`` for an SQLite file; ``None`` for other databases."""
    url = engine.url
    if (engine.dialect.name, engine.dialect.driver) != ("sqlite", "pysqlite"):
        return None
    memory = url.query.get("mode") == "memory"
    if url.database in (None, "", ":memory:") or memory:
        return None  # each connection would be a database of its own
    return LoopReader(engine)
