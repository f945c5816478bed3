"""The store's bulk methods: every matching record in batches, and file imports.

``Store`` inherits them; they use its query sets and lookups, so exports and imports
read and write exactly what the JSON API does (same fields, conversions, checks,
scope and hooks).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.db import DataError, IntegrityError, connection, models, transaction
from django.db.models import Q
from django.db.models.lookups import IContains

from panel_core.abilities import UPDATE
from panel_core.errors import InvalidInput, NotFound
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

from . import history
from .links import Links

_CHUNK = 1000


class BulkMethods:
    """Batch reads and all-or-nothing imports for ``Store``."""

    # What ``Store`` defines and these methods use.
    label: str
    _labels: Mapping[str, str]
    _resource: type[Resource]
    _key: str
    _key_name: str
    _key_column: str  # the key's column in the database
    _manager: models.Manager[Any]
    _table: str
    _rows: models.QuerySet[Any, dict[str, Any]]
    links: Links

    if TYPE_CHECKING:

        def scope(self, actor: Actor | None, *, trashed: bool = False) -> list[Q]: ...

        def fetch(self, key: Any, actor: Actor | None = None) -> dict[str, Any]: ...

        def _conditions(self, query: ListQuery) -> list[Q | IContains]: ...

        def _order(self, query: ListQuery) -> list[str]: ...

        def _prepare(self, values: Mapping[str, Any]) -> dict[str, Any]: ...

        def _by_column(self, values: Mapping[str, Any]) -> dict[str, Any]: ...

        def _check_relations(self, values: Mapping[str, Any], actor: Actor) -> None: ...

        def _check_unique(self, values: Mapping[str, Any], key: Any) -> None: ...

    def iter_batches(
        self, query: ListQuery, actor: Actor, size: int = 500
    ) -> Iterator[list[dict[str, Any]]]:
        """Every record matching ``query`` within ``actor``'s scope, in list order,
        ``size`` at a time.

        The matching keys are read first; each batch is then its own query. Records
        deleted meanwhile are skipped, and none comes twice.
        """
        matching = self._manager.filter(*self._conditions(query), *self.scope(actor))
        keys = list(
            matching.order_by(*self._order(query)).values_list(self._key, flat=True)
        )
        for start in range(0, len(keys), size):
            chunk = keys[start : start + size]
            rows = self._rows.filter(**{self._key + "__in": chunk})
            found = {self._resource.key_of(row): row for row in rows}
            records = [dict(found[k]) for k in chunk if k in found]
            self.links.attach(records)
            yield records

    def records_of(
        self, keys: Sequence[Any], actor: Actor
    ) -> list[tuple[Any, dict[str, Any]]]:
        """The records of ``keys`` that ``actor`` may reach, as ``(key, record)`` in
        the order of ``keys`` (one read: a mass delete's confirmation)."""
        rows = self._rows.filter(*self.scope(actor), **{self._key + "__in": keys})
        found = {self._resource.key_of(row): dict(row) for row in rows}
        return [(key, found[key]) for key in dict.fromkeys(keys) if key in found]

    def existing_keys(self, keys: Sequence[Any], actor: Actor) -> set[Any]:
        """Those of ``keys`` that have a record ``actor`` may reach."""
        found: set[Any] = set()
        scope = self.scope(actor)
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start : start + _CHUNK]
            rows = self._manager.filter(*scope, **{self._key + "__in": chunk})
            found.update(rows.values_list(self._key, flat=True))
        return found

    def import_records(
        self, rows: Sequence[ImportRow], actor: Actor, *, rehearsal: bool = False
    ) -> tuple[int, int]:
        """Create (key ``None``) or update each ``(label, key, values)``: all or none.

        Each row goes through the resource's hooks, as a create or an update from the
        API would. Returns how many records were created and updated; errors name the
        row label. A ``rehearsal`` (an import's preview) is rolled back.
        """
        tally = ImportTally()
        if rehearsal:
            actor = actor.rehearsing()

        def write_row(key: Any, values: Mapping[str, Any]) -> list[str]:
            try:
                # MySQL's "Data too long" fails the row's statement, not the
                # transaction: the row's error is reported like a validation error.
                with values_that_fit(self._labels, DataError):
                    return self._import_row(key, dict(values), actor)
            except InvalidInput as exc:
                return [message for group in exc.errors.values() for message in group]
            except NotFound:
                return [f"{self.label} {key} not found."]

        try:
            with transaction.atomic():
                tally.write(rows, write_row)
                if rehearsal:
                    raise RolledBack()
                self._catch_up(rows)
        except IntegrityError:
            raise tally.conflict() from None
        except RolledBack:
            pass
        return tally.created, tally.updated

    def _catch_up(self, rows: Sequence[ImportRow]) -> None:
        """After records kept their keys, PostgreSQL's key sequence moves past them."""
        if self._resource.key_parts:  # a composite key: given, never a sequence's
            return
        largest = largest_kept_key(rows, self._key_name)
        if largest is not None and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                statement = sequence_catch_up(self._table, self._key_column, largest)
                cursor.execute(statement)

    def _import_row(self, key: Any, values: dict[str, Any], actor: Actor) -> list[str]:
        if key is None:
            values, links = self.links.split(actor.before_creating(values))
            values = self._prepare(values)
            self._check_relations(values, actor)
            self.links.check(links, actor)
            self._check_unique(values, None)
            made = self._manager.create(**self._by_column(values))
            self.links.write(made.pk, links)
            record = self.fetch(made.pk)
            history.write([created(self._resource, record, values, actor.user)])
            actor.notify("after_created", record)
            return []
        try:  # the values before, for the history
            current = self.fetch(key, actor)
        except NotFound:
            raise NotFound(record_gone(self.label, key)) from None
        if actor.lifecycle.needs_record(UPDATE):
            actor.authorize_record(UPDATE, current)
            values = actor.before_updating(current, values)
        values, links = self.links.split(values)
        values = self._prepare(values)
        self._check_relations(values, actor)
        self.links.check(links, actor)
        self._check_unique(values, key)
        rows = self._manager.filter(*self.scope(actor), **{self._key: key})
        found = rows.update(**self._by_column(values)) if values else rows.exists()
        if not found:
            raise NotFound(record_gone(self.label, key))
        self.links.write(key, links)
        if values:
            after = self.fetch(key)
            change = updated(self._resource, current, after, values, actor.user)
            history.write([change])
            actor.notify("after_updated", after)
        return []
