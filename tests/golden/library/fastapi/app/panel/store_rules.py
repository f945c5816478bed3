"""The delete rules' statements on SQLAlchemy tables (``panel_core.delete_rules``).

One ``Tables`` per delete, bound to its transaction's connection; keys go in chunks,
so no statement carries more parameters than a database takes. The files of the
records a rule erases are removed once the delete has committed (``erase_files``).
Given the deleting user, it writes the history of the records a rule deletes or
clears a reference of, in the same transaction (``panel_core.history``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import (
    Column,
    ColumnElement,
    Connection,
    Table,
    Tuple,
    delete,
    select,
    update,
)

from app.core import history
from app.core.models import StoredFileText
from panel_core.composite_keys import CompositeKey
from panel_core.file_writes import erased
from panel_core.history import cascaded, cleared

_CHUNK = 500


class Tables:
    """The tables of the registered resources (their key columns, by URI key; a
    composite key's is the row value of its parts)."""

    def __init__(
        self,
        connection: Connection,
        panels: Mapping[str, Any],
        *,
        recording: bool = False,
        user: Any = None,
    ) -> None:
        """``panels``: the registered resources by URI key. ``recording``: write the
        history of what the rules change, as done by ``user`` (not when a delete is
        only planned)."""
        self._connection = connection
        self._panels = panels
        self._keys = {uri: panel.store.key_column for uri, panel in panels.items()}
        self._recording = recording
        self._user = user

    def referring(self, uri: str, field: str, keys: Sequence[Any]) -> list[Any]:
        """The keys of the records of ``uri`` whose ``field`` holds one of ``keys``."""
        parts = _parts(self._keys[uri])
        column = parts[0].table.c[field]
        found: list[Any] = []
        for chunk in _chunks(keys):
            statement = select(*parts).where(column.in_(chunk)).order_by(*parts)
            rows = self._connection.execute(statement)
            found += rows.scalars() if len(parts) == 1 else map(CompositeKey, rows)
        return found

    def clear(self, uri: str, field: str, keys: Sequence[Any]) -> None:
        """Set ``field`` to null where it holds one of ``keys``."""
        column = _parts(self._keys[uri])[0].table.c[field]
        for chunk in _chunks(keys):
            where = column.in_(chunk)
            if self._recording:
                panel = self._panels[uri]
                records = panel.store.rows_where(self._connection, where)
                entries = cleared(type(panel.resource), records, field, self._user)
                history.write(self._connection, entries)
            statement = update(column.table).where(where)
            self._connection.execute(statement.values({field: None}))

    def erase(self, uri: str, keys: Sequence[Any]) -> None:
        """Delete the records of ``uri`` with these keys, for good."""
        key = self._keys[uri]
        for chunk in _chunks(keys):
            table = _parts(key)[0].table
            erase_files(self._connection, table, key.in_(chunk))
            if self._recording:
                panel = self._panels[uri]
                records = panel.store.rows_where(self._connection, key.in_(chunk))
                entries = cascaded(type(panel.resource), records, self._user)
                history.write(self._connection, entries)
            self._connection.execute(delete(table).where(key.in_(chunk)))


def erase_files(
    connection: Connection,
    table: Table,
    where: ColumnElement[bool],
    params: Mapping[str, Any] | None = None,
) -> None:
    """The files the records ``where`` selects hold, about to be deleted for good:
    removed once the delete has committed (``panel_core.file_writes.erased``)."""
    columns = [c for c in table.columns if isinstance(c.type, StoredFileText)]
    if columns:
        rows = connection.execute(select(*columns).where(where), params or {})
        erased(value for row in rows for value in row)


def _parts(key: Any) -> tuple[Column[Any], ...]:
    """The key's columns: one, or a composite key's parts."""
    return tuple(key.clauses) if isinstance(key, Tuple) else (key,)


def _chunks(keys: Sequence[Any]) -> list[Sequence[Any]]:
    return [keys[start : start + _CHUNK] for start in range(0, len(keys), _CHUNK)]
