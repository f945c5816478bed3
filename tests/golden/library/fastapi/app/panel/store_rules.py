"""The delete rules' statements on SQLAlchemy tables (``panel_core.delete_rules``).

One ``Tables`` per delete, bound to its transaction's connection; keys go in chunks,
so no statement carries more parameters than a database takes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Column, Connection, delete, select, update

_CHUNK = 500


class Tables:
    """The tables of the registered resources (their key columns, by URI key)."""

    def __init__(self, connection: Connection, keys: Mapping[str, Column[Any]]) -> None:
        self._connection = connection
        self._keys = keys

    def referring(self, uri: str, field: str, keys: Sequence[Any]) -> list[Any]:
        """The keys of the records of ``uri`` whose ``field`` holds one of ``keys``."""
        key = self._keys[uri]
        column = key.table.c[field]
        found: list[Any] = []
        for chunk in _chunks(keys):
            statement = select(key).where(column.in_(chunk)).order_by(key)
            found += self._connection.execute(statement).scalars()
        return found

    def clear(self, uri: str, field: str, keys: Sequence[Any]) -> None:
        """Set ``field`` to null where it holds one of ``keys``."""
        column = self._keys[uri].table.c[field]
        for chunk in _chunks(keys):
            statement = update(column.table).where(column.in_(chunk))
            self._connection.execute(statement.values({field: None}))

    def erase(self, uri: str, keys: Sequence[Any]) -> None:
        """Delete the records of ``uri`` with these keys, for good."""
        key = self._keys[uri]
        for chunk in _chunks(keys):
            self._connection.execute(delete(key.table).where(key.in_(chunk)))


def _chunks(keys: Sequence[Any]) -> list[Sequence[Any]]:
    return [keys[start : start + _CHUNK] for start in range(0, len(keys), _CHUNK)]
