"""Reads on the event loop: a record, a list page, the logged-in user.

SQLAlchemy's path takes a pooled connection in the thread pool, begins a transaction
and compiles the statement (from its cache) for every read. The hot reads skip all
of it: each is one SELECT rendered once for the engine's dialect (``PreparedSelect``,
keyed by the statement object: build statements once, with ``bindparam`` for what
varies) and converted with SQLAlchemy's own bind and result processors, so a value
read here is the value SQLAlchemy reads. Reads run in autocommit and see every
committed write.

- An SQLite file: ``SQLiteReader``, a raw sqlite3 connection per thread, used on the
  event loop itself. A read takes microseconds, less than a hand-off to the thread
  pool, and under WAL it never waits for a writer.
- PostgreSQL: ``PostgresReader``, psycopg's asynchronous connections (at most
  ``READER_CONNECTIONS`` per event loop, beside the engine's pool), each statement
  prepared on the server once per connection.

``loop_reader`` picks the reader of an engine; ``None`` for other databases (MySQL and
MariaDB read through the pool). Disposing the engine closes the reader's connections.
"""

from __future__ import annotations

import asyncio
import copy
import sqlite3
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from sqlalchemy import Engine, Select, event
from sqlalchemy.exc import DBAPIError

from app.core.db import configure_sqlite, server_connect_args

# Connections a PostgresReader opens per event loop, at most (reads wait for one).
READER_CONNECTIONS = 4


class LoopReader(Protocol):
    """Single-statement reads on the event loop (see the module's docstring)."""

    async def first(
        self, statement: Select[Any], values: Mapping[str, Any]
    ) -> tuple[Any, ...] | None:
        """The first row ``statement`` selects with these parameters, if any."""

    async def all(
        self, statement: Select[Any], values: Mapping[str, Any]
    ) -> list[tuple[Any, ...]]:
        """Every row ``statement`` selects with these parameters."""

    def close(self) -> None:
        """Close every connection; later reads open new ones."""


def loop_reader(engine: Engine) -> LoopReader | None:
    """The reader for ``engine``'s database: an SQLite file or PostgreSQL (psycopg)."""
    url = engine.url
    if (engine.dialect.name, engine.dialect.driver) == ("postgresql", "psycopg"):
        return PostgresReader(engine)
    if (engine.dialect.name, engine.dialect.driver) != ("sqlite", "pysqlite"):
        return None
    memory = url.query.get("mode") == "memory"
    if url.database in (None, "", ":memory:") or memory:
        return None  # each connection would be a database of its own
    return SQLiteReader(engine)


class PreparedSelect:
    """A SELECT rendered once for a dialect: its SQL, its parameters, its converters."""

    def __init__(self, statement: Select[Any], dialect: Any) -> None:
        compiled = statement.compile(dialect=dialect)
        if not compiled.positional or compiled.post_compile_params:
            raise ValueError("a LoopReader needs positional, fully rendered statements")
        self.sql = compiled.string
        self.binds = tuple(
            (
                name,
                compiled.params[name],
                compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect),
            )
            for name in compiled.positiontup or ()
        )
        self._dialect = dialect
        self._types = [column.type for column in statement.selected_columns]
        self._converters: tuple[tuple[int, Callable[[Any], Any]], ...] | None = None

    def parameters(self, values: Mapping[str, Any]) -> list[Any]:
        found = []
        for name, default, convert in self.binds:
            value = values.get(name, default)
            found.append(value if convert is None else convert(value))
        return found

    def rows(
        self, raw: Sequence[Sequence[Any]], column_types: Sequence[Any] | None = None
    ) -> list[tuple[Any, ...]]:
        """The driver's rows with the values SQLAlchemy would give. Some result
        processors depend on the driver's type of the column (PostgreSQL's type
        OIDs, ``column_types``); SQLite's need none."""
        converters = self._converters
        if converters is None:
            converters = self._converters = self._converters_for(column_types)
        if not converters:
            return [tuple(row) for row in raw]
        found = []
        for row in raw:
            values = list(row)
            for index, convert in converters:
                values[index] = convert(values[index])
            found.append(tuple(values))
        return found

    def _converters_for(
        self, column_types: Sequence[Any] | None
    ) -> tuple[tuple[int, Callable[[Any], Any]], ...]:
        """The same result processors SQLAlchemy applies (booleans, datetimes…)."""
        known = column_types or [None] * len(self._types)
        return tuple(
            (index, convert)
            for index, (type_, column_type) in enumerate(
                zip(self._types, known, strict=True)
            )
            if (convert := _result_processor(type_, self._dialect, column_type))
            is not None
        )


def _result_processor(
    type_: Any, dialect: Any, column_type: Any
) -> Callable[[Any], Any] | None:
    processor: Callable[[Any], Any] | None = type_.dialect_impl(
        dialect
    ).result_processor(dialect, column_type)
    return processor


class _Statements:
    """The statements a reader has rendered, each once."""

    def __init__(self, dialect: Any) -> None:
        self._dialect = dialect
        self._prepared: dict[Select[Any], PreparedSelect] = {}

    def get(self, statement: Select[Any]) -> PreparedSelect:
        prepared = self._prepared.get(statement)
        if prepared is None:
            prepared = PreparedSelect(statement, self._dialect)
            self._prepared[statement] = prepared
        return prepared


class SQLiteReader:
    """A ``LoopReader`` through one raw sqlite3 connection per thread."""

    def __init__(self, engine: Engine) -> None:
        self._dialect = engine.dialect
        self._connect_args = engine.dialect.create_connect_args(engine.url)
        self._statements = _Statements(engine.dialect)
        self._opened: list[Any] = []
        self._local = threading.local()
        self._lock = threading.Lock()
        event.listen(engine, "engine_disposed", self._on_dispose)
        weakref.finalize(self, _close_all, self._opened)

    async def first(
        self, statement: Select[Any], values: Mapping[str, Any]
    ) -> tuple[Any, ...] | None:
        prepared = self._statements.get(statement)
        cursor = self._connection().execute(prepared.sql, prepared.parameters(values))
        try:
            raw = cursor.fetchone()
        finally:
            cursor.close()
        return None if raw is None else prepared.rows([raw])[0]

    async def all(
        self, statement: Select[Any], values: Mapping[str, Any]
    ) -> list[tuple[Any, ...]]:
        prepared = self._statements.get(statement)
        cursor = self._connection().execute(prepared.sql, prepared.parameters(values))
        try:
            raw = cursor.fetchall()
        finally:
            cursor.close()
        return prepared.rows(raw)

    def close(self) -> None:
        with self._lock:
            self._local = threading.local()
            _close_all(self._opened)

    def _on_dispose(self, _engine: Engine) -> None:
        self.close()

    def _connection(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            args, kwargs = self._connect_args
            connection = self._dialect.loaded_dbapi.connect(*args, **kwargs)
            configure_sqlite(connection)
            with self._lock:
                self._opened.append(connection)
                self._local.connection = connection
        return connection


def _close_all(connections: list[Any]) -> None:
    while connections:
        connections.pop().close()


class _LoopConnections:
    """A ``PostgresReader``'s connections on one event loop."""

    def __init__(self) -> None:
        self.slots = asyncio.Semaphore(READER_CONNECTIONS)
        self.idle: list[Any] = []


class PostgresReader:
    """A ``LoopReader`` through psycopg's asynchronous connections."""

    def __init__(self, engine: Engine) -> None:
        import psycopg  # the postgres extra; only a PostgreSQL engine gets here

        self._psycopg = psycopg
        self._statements = _Statements(_positional(engine.dialect))
        _args, kwargs = engine.dialect.create_connect_args(engine.url)
        self._connect_kwargs = {**kwargs, **server_connect_args(engine.url)}
        self._loops: weakref.WeakKeyDictionary[Any, _LoopConnections] = (
            weakref.WeakKeyDictionary()
        )
        # Every open connection (those of loops that ended too) until closed here.
        self._opened: list[Any] = []
        self._lock = threading.Lock()
        event.listen(engine, "engine_disposed", self._on_dispose)
        weakref.finalize(self, _finish_all, self._opened)

    async def first(
        self, statement: Select[Any], values: Mapping[str, Any]
    ) -> tuple[Any, ...] | None:
        prepared = self._statements.get(statement)
        rows = await self._read(prepared, prepared.parameters(values), one=True)
        return rows[0] if rows else None

    async def all(
        self, statement: Select[Any], values: Mapping[str, Any]
    ) -> list[tuple[Any, ...]]:
        prepared = self._statements.get(statement)
        return await self._read(prepared, prepared.parameters(values), one=False)

    def close(self) -> None:
        with self._lock:
            self._loops = weakref.WeakKeyDictionary()
            _finish_all(self._opened)

    def _on_dispose(self, _engine: Engine) -> None:
        self.close()

    async def _read(
        self, prepared: PreparedSelect, parameters: list[Any], *, one: bool
    ) -> list[Any]:
        loop = asyncio.get_running_loop()
        connections = self._loops.get(loop)
        if connections is None:
            connections = self._loops.setdefault(loop, _LoopConnections())
        async with connections.slots:
            try:
                return await self._read_on(connections, prepared, parameters, one)
            except self._psycopg.Error as exc:
                # As SQLAlchemy raises it: the panel's database error handling.
                base = self._psycopg.Error
                raise DBAPIError.instance(prepared.sql, parameters, exc, base) from exc

    async def _read_on(
        self,
        connections: _LoopConnections,
        prepared: PreparedSelect,
        parameters: list[Any],
        one: bool,
    ) -> list[Any]:
        if connections.idle:
            connection = connections.idle.pop()
            try:
                rows = await self._execute(connection, prepared, parameters, one)
            except self._psycopg.OperationalError:
                pass  # the server dropped it while idle: once more, on a new one
            else:
                connections.idle.append(connection)
                return rows
        connection = await self._psycopg.AsyncConnection.connect(
            autocommit=True, **self._connect_kwargs
        )
        with self._lock:
            self._opened.append(connection)
        rows = await self._execute(connection, prepared, parameters, one)
        connections.idle.append(connection)
        return rows

    async def _execute(
        self,
        connection: Any,
        prepared: PreparedSelect,
        parameters: list[Any],
        one: bool,
    ) -> list[Any]:
        """The rows; a connection that failed or was interrupted is closed."""
        try:
            cursor = await connection.execute(prepared.sql, parameters, prepare=True)
            if one:
                row = await cursor.fetchone()
                raw = [] if row is None else [row]
            else:
                raw = await cursor.fetchall()
        except BaseException:
            self._discard(connection)
            raise
        return prepared.rows(raw, [column.type_code for column in cursor.description])

    def _discard(self, connection: Any) -> None:
        with self._lock:
            if connection in self._opened:
                self._opened.remove(connection)
        connection.pgconn.finish()


def _positional(dialect: Any) -> Any:
    """``dialect`` rendering psycopg's positional placeholders (``%s``)."""
    positional = copy.copy(dialect)
    positional.paramstyle = "format"
    positional.positional = True
    return positional


def _finish_all(connections: list[Any]) -> None:
    while connections:
        connection = connections.pop()  # held: finished before it is collected
        connection.pgconn.finish()
