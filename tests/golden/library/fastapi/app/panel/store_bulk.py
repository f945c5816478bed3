"""The store's bulk methods: every matching record in batches, and file imports.

``Store`` inherits them; they use its prepared statements, so exports and imports read
and write exactly what the JSON API does (same columns, conversions and checks).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Column, ColumnElement, Connection, Engine, Select
from sqlalchemy.exc import DataError, IntegrityError

from app.core import history
from app.core.db import transaction
from panel_core.abilities import UPDATE
from panel_core.history import created, updated
from panel_core.imports import (
    ImportRow,
    ImportTally,
    RolledBack,
    largest_kept_key,
    record_gone,
    sequence_catch_up,
)
from panel_core.lifecycle import Actor
from panel_core.mysql import values_that_fit
from panel_core.query import ListQuery
from panel_core.resource import Resource

from .errors import InvalidInput, NotFound
from .hooks import writing
from .links import Links

_CHUNK = 1000


class BulkMethods:
    """Batch reads and all-or-nothing imports for ``Store``."""

    # What ``Store`` defines and these methods use.
    label: str
    _labels: Mapping[str, str]
    _resource: type[Resource]
    _key: Column[Any]
    _names: tuple[str, ...]
    _select: Select[Any]
    _select_one: Select[Any]
    links: Links

    if TYPE_CHECKING:

        def scope(
            self, actor: Actor | None, *, trashed: bool = False
        ) -> list[ColumnElement[bool]]: ...

        def _fetch_in(
            self, connection: Connection, key: Any, actor: Actor | None
        ) -> dict[str, Any]: ...

        def _returned(self, row: Any) -> dict[str, Any]: ...

        def _insert_row(
            self, connection: Connection, values: Mapping[str, Any]
        ) -> Any: ...

        def _update_row(
            self,
            connection: Connection,
            key: Any,
            values: Mapping[str, Any],
            actor: Actor,
        ) -> Any: ...

        def _conditions(self, query: ListQuery) -> list[ColumnElement[bool]]: ...

        def _keys(self) -> Select[Any]: ...

        def _bound(self, key: Any) -> dict[str, Any]: ...

        def _read_keys(
            self, connection: Connection, statement: Select[Any]
        ) -> list[Any]: ...

        def _order(self, query: ListQuery) -> list[ColumnElement[Any]]: ...

        def _prepare(self, values: Mapping[str, Any]) -> dict[str, Any]: ...

        def _check_relations(
            self, connection: Connection, values: Mapping[str, Any], actor: Actor
        ) -> None: ...

        def _check_unique(
            self, connection: Connection, values: Mapping[str, Any], key: Any
        ) -> None: ...

    def iter_batches(
        self, engine: Engine, query: ListQuery, actor: Actor, size: int = 500
    ) -> Iterator[list[dict[str, Any]]]:
        """Every record matching ``query``, in list order, ``size`` at a time.

        The matching keys are read first; each batch is then its own short transaction.
        Records deleted meanwhile are skipped, and none comes twice.
        """
        keys_query = (
            self._keys()
            .where(*self._conditions(query), *self.scope(actor))
            .order_by(*self._order(query))
        )
        with transaction(engine) as connection:
            keys = self._read_keys(connection, keys_query)
        key_of = self._resource.key_of
        for start in range(0, len(keys), size):
            chunk = keys[start : start + size]
            with transaction(engine) as connection:
                rows = connection.execute(self._select.where(self._key.in_(chunk)))
                found = {
                    key_of(record): record
                    for record in (dict(zip(self._names, r, strict=True)) for r in rows)
                }
                records = [found[k] for k in chunk if k in found]
                self.links.attach(connection, records)
            yield records

    def records_of(
        self, engine: Engine, keys: Sequence[Any], actor: Actor
    ) -> list[tuple[Any, dict[str, Any]]]:
        """The records of ``keys`` that ``actor`` may reach, as ``(key, record)`` in
        the order of ``keys`` (one read: a mass delete's confirmation)."""
        statement = self._select.where(self._key.in_(keys), *self.scope(actor))
        with transaction(engine) as connection:
            records = [
                dict(zip(self._names, row, strict=True))
                for row in connection.execute(statement)
            ]
        found = {self._resource.key_of(record): record for record in records}
        return [(key, found[key]) for key in dict.fromkeys(keys) if key in found]

    def existing_keys(
        self, engine: Engine, keys: Sequence[Any], actor: Actor
    ) -> set[Any]:
        """Those of ``keys`` that have a record ``actor`` may reach."""
        found: set[Any] = set()
        scope = self.scope(actor)
        with transaction(engine) as connection:
            for start in range(0, len(keys), _CHUNK):
                chunk = keys[start : start + _CHUNK]
                statement = self._keys().where(self._key.in_(chunk), *scope)
                found.update(self._read_keys(connection, statement))
        return found

    def import_records(
        self,
        engine: Engine,
        rows: Sequence[ImportRow],
        actor: Actor,
        *,
        rehearsal: bool = False,
    ) -> tuple[int, int]:
        """Create (key ``None``) or update each ``(label, key, values)``: all or none.

        Each row goes through the resource's hooks, as a create or an update from
        the API would. Returns how many records were created and updated; errors name
        the row label. A ``rehearsal`` (an import's preview) is rolled back.
        """
        tally = ImportTally()
        if rehearsal:
            actor = actor.rehearsing()
        try:
            with transaction(engine, writes=True) as connection, writing(connection):

                def write_row(key: Any, values: Mapping[str, Any]) -> list[str]:
                    try:
                        # MySQL's "Data too long" fails the row's statement, not
                        # the transaction: the row's error is reported like a
                        # validation error.
                        with values_that_fit(self._labels, DataError):
                            return self._import_row(
                                connection, key, dict(values), actor
                            )
                    except InvalidInput as exc:
                        return [m for group in exc.errors.values() for m in group]

                tally.write(rows, write_row)
                if rehearsal:
                    raise RolledBack()
                self._catch_up(connection, rows)
        except IntegrityError:
            raise tally.conflict() from None
        except RolledBack:
            pass
        return tally.created, tally.updated

    def _catch_up(self, connection: Connection, rows: Sequence[ImportRow]) -> None:
        """After records kept their keys, PostgreSQL's key sequence moves past them."""
        if self._resource.key_parts:  # a composite key: given, never a sequence's
            return
        # The column's key is the field's name, its name the database's.
        largest = largest_kept_key(rows, self._key.key)
        if largest is not None and connection.dialect.name == "postgresql":
            key = self._key
            statement = sequence_catch_up(key.table.name, key.name, largest)
            connection.exec_driver_sql(statement)

    def _import_row(
        self, connection: Connection, key: Any, values: dict[str, Any], actor: Actor
    ) -> list[str]:
        if key is None:
            values, links = self.links.split(actor.before_creating(values))
            values = self._prepare(values)
            self._check_relations(connection, values, actor)
            self.links.check(connection, links, actor)
            self._check_unique(connection, values, None)
            record = self._returned(self._insert_row(connection, values))
            self.links.write(connection, record[self._resource.key_name()], links)
            history.write(
                connection, [created(self._resource, record, values, actor.user)]
            )
            actor.notify("after_created", record)
            return []
        try:  # the values before, for the history
            current = self._fetch_in(connection, key, actor)
        except NotFound:
            return [record_gone(self.label, key)]
        if actor.lifecycle.needs_record(UPDATE):
            actor.authorize_record(UPDATE, current)
            values = actor.before_updating(current, values)
        values, links = self.links.split(values)
        values = self._prepare(values)
        self._check_relations(connection, values, actor)
        self.links.check(connection, links, actor)
        self._check_unique(connection, values, key)
        if values:
            row = self._update_row(connection, key, values, actor)
        else:
            row = connection.execute(self._select_one, self._bound(key)).first()
        if row is None:
            return [record_gone(self.label, key)]
        self.links.write(connection, key, links)
        if values:
            after = self._returned(row)
            change = updated(self._resource, current, after, values, actor.user)
            history.write(connection, [change])
            actor.notify("after_updated", after)
        return []
