"""Django's MySQL backend on PyMySQL (pure Python), for MySQL and MariaDB.

``DATABASE_URL=mysql://…`` selects it (``config.database``). It is Django's own
backend with four changes:

- PyMySQL stands in for mysqlclient;
- a ``CharField`` without ``max_length`` is a string of any length, as on PostgreSQL
  and SQLite: ``LONGTEXT``, or ``VARCHAR(768)`` when indexed (768 × 4 utf8mb4 bytes
  is InnoDB's largest index key);
- the case-insensitive lookups (``icontains``…) compare ``LOWER()`` of both sides,
  as SQLAlchemy's ``ilike`` does: the panel's tables use the binary collation
  ``utf8mb4_bin`` (values, uniqueness and order as on PostgreSQL), under which
  ``LIKE`` alone would be case-sensitive;
- its schema editor counts the statements of a migration, so one that fails partway
  resumes where it stopped (``panel.mysql.progress``).

The FastAPI projects panelforge emits store and search them the same way.
"""

from __future__ import annotations

from typing import Any

import pymysql
from django.utils.functional import cached_property

pymysql.install_as_MySQLdb()

from django.db.backends.mysql import (  # noqa: E402
    base,
    features,
    operations,
    schema,
)

INDEXED_LENGTH = 768
_CASELESS = ("iexact", "icontains", "istartswith", "iendswith")


def char_type(data: Any) -> str:
    """The column type of a ``CharField`` (``data``: its attributes)."""
    if data["max_length"] is not None:
        return f"varchar({data['max_length']})"
    if data["_unique"] or data["db_index"] or data["primary_key"]:
        return f"varchar({INDEXED_LENGTH})"
    return "longtext"


class DatabaseFeatures(features.DatabaseFeatures):
    """MySQL's features, with strings of any length."""

    supports_unlimited_charfield = True


class DatabaseOperations(operations.DatabaseOperations):
    """MySQL's operations; the left side of a caseless lookup is ``LOWER()``-ed."""

    def lookup_cast(self, lookup_type: str, internal_type: str | None = None) -> str:
        """``LOWER(%s)`` for a caseless lookup on text, else Django's cast."""
        if lookup_type in _CASELESS and internal_type != "JSONField":
            return "LOWER(%s)"
        cast: str = super().lookup_cast(lookup_type, internal_type)
        return cast


class DatabaseSchemaEditor(schema.DatabaseSchemaEditor):
    """MySQL's schema editor; counts its statements while ``migrate`` resumes
    (``connection.panel_progress``: ``panel.mysql.progress``)."""

    def execute(self, sql: Any, params: Any = ()) -> None:
        """Run ``sql``, or skip it if an interrupted migration applied it already."""
        progress = getattr(self.connection, "panel_progress", None)
        if progress is None or self.collect_sql:
            super().execute(sql, params)
            return
        progress.run(super().execute, sql, params)


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's MySQL connection, with ``char_type`` and caseless lookups."""

    features_class = DatabaseFeatures
    ops_class = DatabaseOperations
    SchemaEditorClass = DatabaseSchemaEditor
    operators = {
        **base.DatabaseWrapper.operators,
        **dict.fromkeys(_CASELESS, "LIKE LOWER(%s)"),
    }
    pattern_ops = {
        **base.DatabaseWrapper.pattern_ops,
        "icontains": "LIKE LOWER(CONCAT('%%', {}, '%%'))",
        "istartswith": "LIKE LOWER(CONCAT({}, '%%'))",
        "iendswith": "LIKE LOWER(CONCAT('%%', {}))",
    }

    @cached_property
    def data_types(self) -> dict[str, Any]:  # type: ignore[override]
        """Django's types for this server, ``char_type`` for ``CharField``."""
        return {**super().data_types, "CharField": char_type}
