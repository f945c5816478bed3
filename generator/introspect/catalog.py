"""Read a database's catalog into plain data: the only module of ``inspect`` that
connects (through SQLAlchemy's inspector).

Everything after it works on :class:`Catalog` and is pure.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import DatabaseUnreachableError, DatabaseUrlError, DriverMissingError
from .indexes import Named, named_indexes
from .urls import BACKEND_NAMES, DRIVER_PACKAGES, DatabaseUrl

# SQLAlchemy warns, and answers NullType, for a type it does not know: the warning
# is the only place that names it.
_UNKNOWN_TYPE = re.compile(r"[Dd]id not recognize type '([^']+)' of column '([^']+)'")
CONNECT_TIMEOUT = 10


@dataclass(frozen=True)
class Column:
    """One column as the catalog describes it."""

    name: str
    type: Any  # a SQLAlchemy TypeEngine
    nullable: bool
    default: str | None  # the server default's SQL text
    generated: bool  # the database assigns it (serial, identity, auto-increment)
    comment: str | None = None
    type_name: str | None = None  # the declared name of a type SQLAlchemy did not know


@dataclass(frozen=True)
class ForeignKey:
    """A foreign key: ``columns`` refer to ``target_columns`` of ``target``."""

    columns: tuple[str, ...]
    target: str
    target_columns: tuple[str, ...]
    on_delete: str | None  # "CASCADE", "SET NULL", … as the catalog spells it
    name: str | None = None


@dataclass(frozen=True)
class Table:
    """One table: columns in their order, keys, constraints and comment."""

    name: str
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...]
    foreign_keys: tuple[ForeignKey, ...]
    unique: tuple[tuple[str, ...], ...]  # each unique constraint's or index's columns
    unusable_unique: tuple[str, ...]  # partial or expression unique indexes, by name
    checks: tuple[str, ...]  # CHECK constraints' SQL
    comment: str | None = None
    named: tuple[Named, ...] = ()  # indexes and UNIQUE constraints by their names

    def column(self, name: str) -> Column:
        """The column called ``name``."""
        return next(c for c in self.columns if c.name == name)


@dataclass(frozen=True)
class Catalog:
    """The tables of one database (every table, sorted by name)."""

    backend: str
    tables: tuple[Table, ...]

    @property
    def backend_name(self) -> str:
        """``PostgreSQL``, ``MySQL`` or ``SQLite``."""
        return BACKEND_NAMES[self.backend]

    def selected(self, tables: Sequence[str], exclude: Sequence[str]) -> Catalog:
        """Only ``tables`` (all when empty), without ``exclude``; unknown names fail."""
        names = [t.name for t in self.tables]
        unknown = sorted({*tables, *exclude} - set(names))
        if unknown:
            listed = ", ".join(names) or "none"
            raise DatabaseUrlError(
                f"no table {', '.join(repr(u) for u in unknown)} in the database "
                f"(its tables: {listed})"
            )
        kept = [
            t
            for t in self.tables
            if (not tables or t.name in tables) and t.name not in exclude
        ]
        return Catalog(self.backend, tuple(kept))


def read_catalog(url: DatabaseUrl) -> Catalog:
    """Every table of the database ``url`` names."""
    import sqlalchemy as sa

    if url.backend == "sqlite":
        _require_sqlite_file(url)
    with _engine(url) as engine:
        try:
            connection = engine.connect()
        except sa.exc.DBAPIError as exc:
            raise _unreachable(url, exc, "cannot reach") from exc
        with connection:
            try:
                inspector = sa.inspect(connection)
                tables = [
                    _read_table(inspector, connection, name, url.backend)
                    for name in sorted(inspector.get_table_names())
                ]
            except sa.exc.DBAPIError as exc:
                raise _unreachable(url, exc, "cannot read") from exc
    return Catalog(url.backend, tuple(tables))


def _require_sqlite_file(url: DatabaseUrl) -> None:
    # SQLite would create a missing file, and inspect an empty database.
    path = Path(url.engine_url[len("sqlite:///") :])
    if not path.is_file():
        problem = "no such file" if not path.exists() else "not a file"
        raise DatabaseUnreachableError(
            f"cannot reach the database at {url.masked}: {problem} ('{path}')"
        )


@contextmanager
def _engine(url: DatabaseUrl) -> Iterator[Any]:
    import sqlalchemy as sa

    args = {} if url.backend == "sqlite" else {"connect_timeout": CONNECT_TIMEOUT}
    try:
        engine = sa.create_engine(url.engine_url, connect_args=args)
    except ImportError as exc:
        raise _driver_missing(url) from exc
    except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ValueError) as exc:
        raise DatabaseUrlError(f"cannot use '{url.masked}': {exc}") from exc
    try:
        yield engine
    finally:
        engine.dispose()


def _driver_missing(url: DatabaseUrl) -> DriverMissingError:
    driver = url.driver or "sqlite3"
    extra, package = DRIVER_PACKAGES.get(driver, (None, driver))
    install = f"pip install '{package}'"
    if extra:
        install = f"pip install 'panelforge[{extra}]' (or {install})"
    backend = BACKEND_NAMES[url.backend]
    return DriverMissingError(
        f"{backend} needs the Python driver '{driver}', which is not installed: "
        f"{install}"
    )


def _unreachable(
    url: DatabaseUrl, exc: BaseException, verb: str
) -> DatabaseUnreachableError:
    found = getattr(exc, "orig", None) or exc
    reason = " ".join(str(found).split()) or type(found).__name__
    return DatabaseUnreachableError(f"{verb} the database at {url.masked}: {reason}")


def _read_table(inspector: Any, connection: Any, name: str, backend: str) -> Table:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        columns = inspector.get_columns(name)
    unknown = {
        m.group(2): m.group(1)
        for m in (_UNKNOWN_TYPE.search(str(w.message)) for w in caught)
        if m
    }
    if backend == "sqlite":
        unknown.update(_sqlite_declared_types(connection, name))
    primary_key = tuple(inspector.get_pk_constraint(name)["constrained_columns"])
    unique, unusable = _unique_groups(inspector, name)
    if backend == "sqlite":
        unique = tuple(sorted({*unique, *_sqlite_unique(connection, name)}))
    return Table(
        name=name,
        columns=tuple(_column(c, primary_key, backend, unknown) for c in columns),
        primary_key=primary_key,
        foreign_keys=tuple(_foreign_keys(inspector, connection, name, backend)),
        unique=unique,
        unusable_unique=unusable,
        checks=tuple(_checks(inspector, connection, name, backend)),
        comment=_table_comment(inspector, name),
        named=named_indexes(inspector, name),
    )


def _sqlite_declared_types(connection: Any, table: str) -> dict[str, str]:
    """Columns declared ``UUID`` on SQLite, which SQLAlchemy reads as NUMERIC."""
    import sqlalchemy as sa

    rows = connection.execute(sa.text(f'PRAGMA table_info("{table}")')).all()
    return {row[1]: "uuid" for row in rows if str(row[2]).strip().lower() == "uuid"}


def _column(
    found: dict[str, Any], primary_key: tuple[str, ...], backend: str, unknown: dict
) -> Column:
    import sqlalchemy as sa

    type_name = unknown.get(found["name"])
    # SQLite and MariaDB's UUID columns: SQLAlchemy reads NUMERIC, or does not know it.
    is_uuid = (type_name or "").lower() == "uuid"
    column_type = sa.Uuid() if is_uuid else found["type"]
    default = found.get("default")
    generated = bool(found.get("identity")) or found.get("autoincrement") is True
    if default is not None and "nextval(" in str(default):
        generated, default = True, None
    if backend == "sqlite" and primary_key == (found["name"],):
        # An INTEGER PRIMARY KEY is SQLite's rowid: assigned by the database.
        generated = isinstance(column_type, sa.Integer)
    return Column(
        name=found["name"],
        type=column_type,
        nullable=bool(found["nullable"]),
        default=None if default is None else str(default),
        generated=generated,
        comment=found.get("comment") or None,
        type_name=None if is_uuid else type_name,
    )


def _foreign_keys(
    inspector: Any, connection: Any, name: str, backend: str
) -> Iterator[ForeignKey]:
    rules = _sqlite_delete_rules(connection, name) if backend == "sqlite" else {}
    for fk in inspector.get_foreign_keys(name):
        if not fk.get("referred_table"):
            continue
        columns = tuple(fk["constrained_columns"])
        rule = (fk.get("options") or {}).get("ondelete") or rules.get(columns)
        yield ForeignKey(
            columns=columns,
            target=fk["referred_table"],
            target_columns=tuple(fk["referred_columns"]),
            on_delete=rule,
            name=fk.get("name"),
        )


def _sqlite_delete_rules(connection: Any, table: str) -> dict[tuple[str, ...], str]:
    """SQLite's ON DELETE rules by the foreign key's columns (SQLAlchemy reads them
    only from some spellings of the table's SQL)."""
    import sqlalchemy as sa

    rows = connection.execute(sa.text(f'PRAGMA foreign_key_list("{table}")')).all()
    columns: dict[int, list[str]] = {}
    rules: dict[int, str] = {}
    for row in rows:  # id, seq, table, from, to, on_update, on_delete, match
        columns.setdefault(row[0], []).append(row[3])
        rules[row[0]] = row[6]
    return {tuple(columns[i]): rule for i, rule in rules.items() if rule != "NO ACTION"}


def _unique_groups(
    inspector: Any, name: str
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    groups: set[tuple[str, ...]] = set()
    unusable: set[str] = set()
    for constraint in inspector.get_unique_constraints(name):
        groups.add(tuple(constraint["column_names"]))
    for index in inspector.get_indexes(name):
        if not index.get("unique"):
            continue
        columns = tuple(index.get("column_names") or ())
        options = index.get("dialect_options") or {}
        partial = options.get("postgresql_where") or options.get("sqlite_where")
        if partial or not columns or None in columns or index.get("expressions"):
            unusable.add(index["name"])
        else:
            groups.add(columns)
    return tuple(sorted(groups)), tuple(sorted(unusable))


def _sqlite_unique(connection: Any, table: str) -> Iterator[tuple[str, ...]]:
    """SQLite's unique constraints written on a column (``email TEXT UNIQUE``), which
    SQLAlchemy's inspector does not list."""
    import sqlalchemy as sa

    pragma = f'PRAGMA index_list("{table}")'
    for _seq, index, unique, origin, partial in connection.execute(sa.text(pragma)):
        if not unique or origin != "u" or partial:
            continue
        info = connection.execute(sa.text(f'PRAGMA index_info("{index}")')).all()
        columns = tuple(row[2] for row in sorted(info))
        if columns and None not in columns:
            yield columns


def _checks(inspector: Any, connection: Any, name: str, backend: str) -> list[str]:
    found = _mariadb_checks(connection, name) if backend == "mysql" else None
    if found is None:
        found = [c["sqltext"] for c in inspector.get_check_constraints(name)]
    return sorted(" ".join(str(text).split()) for text in found)


# MariaDB keeps a CHECK written on a column inside the column's definition, where
# SQLAlchemy does not look; its catalog lists them all, by table (MySQL's has no
# TABLE_NAME there, and SQLAlchemy reads MySQL's checks fine).
_MARIADB_CHECKS = (
    "SELECT CHECK_CLAUSE FROM information_schema.CHECK_CONSTRAINTS "
    "WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = :table"
)


def _mariadb_checks(connection: Any, table: str) -> list[str] | None:
    import sqlalchemy as sa

    try:
        with connection.begin_nested():
            rows = connection.execute(sa.text(_MARIADB_CHECKS), {"table": table})
            return [row[0] for row in rows]
    except sa.exc.DBAPIError:  # MySQL
        return None


def _table_comment(inspector: Any, name: str) -> str | None:
    try:
        return inspector.get_table_comment(name).get("text") or None
    except NotImplementedError:  # SQLite keeps no comments
        return None
