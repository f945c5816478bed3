"""Data access for one resource with SQLAlchemy Core: no ORM objects on any path.

Statements are built once, when the store is created; a request only adds its own
conditions. Each public method is one unit of work for one threadpool hop: it takes the
engine, runs one transaction and returns plain dicts, in field declaration order. The
exceptions are ``read`` and ``read_page`` (``store_pages``): one record, or a page of a
list nobody narrowed, through a ``LoopReader`` (SQLite, PostgreSQL), on the event
loop.

Every method takes the ``Actor`` of the request (``panel_core.lifecycle``): its scope
narrows what the method may reach, and the resource's hooks run inside each write's
transaction. A resource that customises nothing pays nothing for it.

A resource with ``soft_delete`` keeps deleted records in its trash: a delete sets
their ``deleted_at``, ``scope`` keeps every read and write to the live records, and
the trash's own methods (``list_page(trashed=True)``, ``restore``, ``force_delete``)
to the trashed ones.

An update or a delete given the version the client loaded (``panel_core.versions``)
reads the record first in its transaction, locked (``FOR UPDATE``; SQLite's writes
hold the write lock from ``BEGIN IMMEDIATE``), and refuses it with 412 if it changed.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    ColumnElement,
    Connection,
    Engine,
    Row,
    Select,
    String,
    Table,
    and_,
    bindparam,
    case,
    cast,
    delete,
    func,
    insert,
    literal,
    not_,
    null,
    or_,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.exc import DataError, IntegrityError

from app.core import history
from app.core.db import folded, returns_rows, transaction
from app.core.passwords import hash_password
from app.core.readers import LoopReader
from panel_core import fields as kernel
from panel_core.abilities import DELETE, UPDATE
from panel_core.decimals import refuse_inexact
from panel_core.delete_rules import (
    DeletePlan,
    DeleteRules,
    Subject,
    database_refusal,
    undeletable,
)
from panel_core.filters import CONTAINS, FROM, STARTS_WITH, TO, Filter
from panel_core.history import DELETED, RESTORED, TRASHED, created, removed, updated
from panel_core.inputs import stored_forms
from panel_core.lifecycle import Actor
from panel_core.metrics import metric_query
from panel_core.mysql import values_that_fit
from panel_core.query import (
    ESTIMATE,
    ESTIMATE_CAP,
    EXACT,
    ListQuery,
    coerce_value,
    searched_as_text,
)
from panel_core.resource import Resource
from panel_core.search import needs_folding
from panel_core.translation import gettext
from panel_core.unique import unique_groups
from panel_core.versions import Expected

from .errors import Conflict, InvalidInput, NotFound
from .hooks import writing
from .links import Links
from .store_actions import ActionMethods
from .store_bulk import BulkMethods
from .store_pages import PageMethods
from .store_rules import Tables, erase_files

Record = dict[str, Any]


@dataclass(frozen=True)
class Relation:
    """A belongs-to field and the statement that checks its target exists."""

    field: str
    label: str
    exists: Select[Any]
    target: str  # the URI key of the resource it belongs to
    # The target's key and the columns naming its records: sorting by the field
    # sorts by them (``panel_core.labels``).
    target_key: Column[Any] | None = None
    shown: tuple[Column[Any], ...] = ()


class Store(BulkMethods, ActionMethods, PageMethods):
    """Reads and writes the table of one resource."""

    def __init__(
        self,
        resource: type[Resource],
        table: Table,
        *,
        label: str,
        relations: Sequence[Relation] = (),
    ) -> None:
        self.label = label
        self._resource = resource
        self._relations = tuple(relations)
        self.links = Links(resource, table.metadata)
        self._targets: Mapping[str, Any] = {}
        self._rules: DeleteRules | None = None
        self._uri = resource.uri
        self._soft = resource.soft_delete
        self._model = resource.model
        self._parts = tuple(table.c[name] for name in resource.key_parts)
        # A composite key compares as a row value, (a, b) = (?, ?).
        self._key = (
            tuple_(*self._parts) if self._parts else table.c[resource.key_name()]
        )
        self._table = table
        self._names = tuple(f.name for f in resource.readable_fields)
        columns = [table.c[name] for name in self._names]
        self._select = select(*columns)
        self._select_one = self._select.where(self._one())
        self._select_locked = self._select_one.with_for_update()
        self._count = select(func.count()).select_from(table)
        self._ones = select(literal(1)).select_from(table)
        self._insert = insert(table).returning(*columns)
        self._update = update(table).returning(*columns)
        self._plain_insert = insert(table)
        self._plain_update = update(table)
        one = self._one()
        many = self._key.in_(bindparam("keys", expanding=True))
        if resource.soft_delete:
            deleted_at = table.c.deleted_at
            self._live = [deleted_at.is_(None)]
            self._trashed = [deleted_at.is_not(None)]
            trashing = update(table).values(deleted_at=bindparam("now"))
            self._delete = trashing.where(one)
            self._delete_many = trashing.where(many, *self._live)
            self._restore = update(table).values(deleted_at=None).where(one)
        else:
            self._live, self._trashed = [], []
            self._delete = delete(table).where(one)
            self._delete_many = delete(table).where(many)
        self._force_delete = delete(table).where(one)
        self._read_one = self._select_one.where(*self._live)
        self._pages = {}
        self._filters = {name: table.c[name] for name in resource.filterable_fields}
        ordered = {resource.key_name(), *resource.key_parts, *resource.sortable_fields}
        self._columns = {name: table.c[name] for name in ordered}
        self._orders = {
            name: ([column.asc()], [column.desc()])
            for name, column in self._columns.items()
        }
        self._orders.update(_orders_by_name(table, relations, self._columns))
        self._table_name = f'"{table.name}"'
        integer = kernel.json_type(resource.key_field) == "integer"
        self._integer_key = integer and not self._parts
        self._search = tuple(_searchable(table, resource, n) for n in resource.search)
        self._tags = {
            tag.uri: tuple(
                table.c[name] == coerce_value(resource.field_map[name], value)
                for name, value in tag.filter.items()
            )
            for tag in resource.query_tags
        }
        self._uniques = tuple(
            _Unique(f.name, f.label, _taken(table, f.name), not_(self._one()))
            for f in resource.fields
            if (f.unique or f.client_key) and not f.key_part
        )
        self._groups = unique_groups(resource)
        self._labels = {f.name: f.label for f in resource.fields}
        self._decimals = {
            f.name: f.label for f in resource.fields if isinstance(f, kernel.Decimal)
        }
        self._converters = stored_forms(resource.writable_fields, hash_password)
        self._numbers = tuple(
            f.name for f in resource.readable_fields if isinstance(f, kernel.Number)
        )

    def list_page(
        self, engine: Engine, query: ListQuery, actor: Actor, *, trashed: bool = False
    ) -> tuple[list[Record], int | None]:
        """The rows of one page of ``query`` and how many match (``None``: not counted).

        Reads ``query.limit`` rows (one past the page unless counted exactly), in
        reverse for a ``prev`` cursor; ``panel_core.pagination.list_body`` shapes them.
        ``trashed``: the page of the trash instead.
        """
        conditions = self._conditions(query) + self.scope(actor, trashed=trashed)
        total: int | None = None
        with transaction(engine) as connection:
            if query.total == EXACT and not query.keyset:
                total = connection.execute(self._count.where(*conditions)).scalar_one()
                if query.offset >= total:
                    return [], total
            elif query.total == ESTIMATE:
                total = self._estimate(connection, conditions)
            if query.cursor is not None:
                conditions.append(self._after(query))
            statement = (
                self._select.where(*conditions)
                .order_by(*self._order(query))
                .limit(query.limit)
            )
            if query.offset:
                statement = statement.offset(query.offset)
            rows = connection.execute(statement).all()
            records = [dict(zip(self._names, row, strict=True)) for row in rows]
            self.links.attach(connection, records)
        return records, total

    def _estimate(
        self, connection: Connection, conditions: list[ColumnElement[bool]]
    ) -> int:
        """How many rows match: exact up to ``ESTIMATE_CAP``, then estimated.

        Past the cap: the table's estimated size when unfiltered (PostgreSQL's
        planner statistics, else the largest integer key), else the cap plus one.
        """
        capped = self._ones.where(*conditions).limit(ESTIMATE_CAP + 1)
        found = connection.execute(
            select(func.count()).select_from(capped.subquery())
        ).scalar_one()
        if found <= ESTIMATE_CAP or conditions:
            return int(found)
        if connection.dialect.name == "postgresql":
            estimate = connection.execute(
                text("SELECT reltuples FROM pg_class WHERE oid = to_regclass(:name)"),
                {"name": self._table_name},
            ).scalar()
        elif self._integer_key:
            estimate = connection.execute(select(func.max(self._key))).scalar()
        else:
            estimate = None
        return max(int(found), int(estimate or 0))

    def metric_totals(self, engine: Engine, actor: Actor) -> list[tuple[Any, int]]:
        """Each metric's ``(sum, count)`` within ``actor``'s scope, all in one query
        (``panel_core.metrics``)."""
        metrics = self._resource.metrics
        if not metrics:
            return []
        terms: list[ColumnElement[Any]] = []
        for metric in metrics:
            conditions = self._conditions(metric_query(self._resource, metric))
            column = self._table.c[metric.field] if metric.field else literal(1)
            if conditions:
                column = case((and_(*conditions), column))
            total = func.sum(column) if metric.field else null()
            terms += [total, func.count(column)]
        statement = select(*terms).select_from(self._table).where(*self.scope(actor))
        with transaction(engine) as connection:
            row = connection.execute(statement).one()
        return [(row[i], int(row[i + 1])) for i in range(0, len(terms), 2)]

    def link_targets(self, panels: Mapping[str, Any], rules: DeleteRules) -> None:
        """The registered resources by URI key, whose scopes bound the relations,
        and the delete rules between them."""
        self._targets = panels
        self._rules = rules
        self.links.link_targets(panels)

    @property
    def key_column(self) -> Any:
        """The key column of the table."""
        return self._key

    def _referred(self) -> bool:
        """Whether a delete of this resource's records has rules to follow."""
        return self._rules is not None and self._rules.referred(self._uri)

    def _tables(self, connection: Connection) -> Tables:
        return Tables(connection, self._targets)

    def rows_where(
        self, connection: Connection, condition: ColumnElement[bool]
    ) -> list[Record]:
        """The records ``condition`` selects, trashed ones too (for the delete rules)."""
        rows = connection.execute(self._select.where(condition))
        return [dict(zip(self._names, row, strict=True)) for row in rows]

    def _undeletable(self, connection: Connection, key: Any) -> Subject:
        """A refused delete's subject: the record by its label, read if refused."""

        def read() -> Record | None:
            row = connection.execute(self._select_one, self._bound(key)).first()
            return None if row is None else dict(zip(self._names, row, strict=True))

        return undeletable(self.label, self._resource, key, read)

    def _enforce(
        self,
        connection: Connection,
        keys: Sequence[Any],
        what: Subject,
        *,
        many: bool,
        user: Any,
    ) -> None:
        """The delete rules, before ``user`` deletes ``keys``: 409 or cleared and
        cascaded (and the history of what they change written)."""
        if self._rules is not None and self._referred():
            tables = Tables(connection, self._targets, recording=True, user=user)
            self._rules.enforce(self._uri, keys, tables, what=what, many=many)

    def deletion(self, engine: Engine, key: Any, actor: Actor) -> DeletePlan | None:
        """What deleting the record ``key`` would take with it, or refuse it
        (``None``: nothing, or a delete to the trash)."""
        if self._soft or self._rules is None or not self._referred():
            return None
        with transaction(engine) as connection:
            self._fetch_in(connection, key, actor)
            return self._rules.plan(self._uri, [key], self._tables(connection))

    def mass_deletion(
        self, engine: Engine, keys: Sequence[Any], actor: Actor
    ) -> DeletePlan | None:
        """``deletion`` of the records with these keys that ``actor`` may reach."""
        if self._soft or self._rules is None or not self._referred():
            return None
        with transaction(engine) as connection:
            found = self._keys().where(self._key.in_(keys), *self.scope(actor))
            reached = set(self._read_keys(connection, found))
            keys = [key for key in dict.fromkeys(keys) if key in reached]
            return self._rules.plan(self._uri, keys, self._tables(connection))

    @property
    def delete_rules(self) -> DeleteRules | None:
        """The delete rules between the registered resources."""
        return self._rules

    def scope(
        self, actor: Actor | None, *, trashed: bool = False
    ) -> list[ColumnElement[bool]]:
        """The conditions keeping ``actor`` to the records its scope lets it reach:
        the live ones (``trashed``: those in the trash)."""
        state = self._trashed if trashed else self._live
        if actor is None or not actor.lifecycle.scoped:
            return list(state)
        reachable = actor.scope(select(self._model))
        keys = reachable.with_only_columns(*(self._parts or (self._key,)))
        return [*state, self._key.in_(keys)]

    def fetch(self, engine: Engine, key: Any, actor: Actor | None = None) -> Record:
        """The record with ``key`` (within ``actor``'s scope)."""
        with transaction(engine) as connection:
            return self._fetch_in(connection, key, actor)

    async def read(self, reader: LoopReader, key: Any) -> Record:
        """``fetch`` on the event loop, through a ``LoopReader`` (no scope)."""
        row = await reader.first(self._read_one, self._bound(key))
        if row is None:
            raise self._not_found(key)
        return dict(zip(self._names, row, strict=True))

    def keys_where(
        self, engine: Engine, name: str, value: Any, actor: Actor | None = None
    ) -> list[Any]:
        """The keys of the records whose field ``name`` is ``value``, in key order
        (within ``actor``'s scope): the children a has-many field lists."""
        found = self._filters[name] == value
        statement = self._keys().where(found, *self.scope(actor))
        with transaction(engine) as connection:
            ordered = statement.order_by(*(self._parts or (self._key,)))
            return self._read_keys(connection, ordered)

    def _fetch_in(
        self,
        connection: Connection,
        key: Any,
        actor: Actor | None,
        *,
        locked: bool = False,
    ) -> Record:
        scope = self.scope(actor)
        statement = self._select_locked if locked else self._select_one
        if scope:
            statement = statement.where(*scope)
        row = connection.execute(statement, self._bound(key)).first()
        if row is None:
            raise self._not_found(key)
        record = dict(zip(self._names, row, strict=True))
        self.links.attach(connection, [record])
        return record

    def _one(self) -> ColumnElement[bool]:
        """The key equal to the ``key`` parameter (``key_0``, ``key_1``… by part)."""
        if not self._parts:
            return self._key == bindparam("key")
        return and_(*(c == bindparam(f"key_{i}") for i, c in enumerate(self._parts)))

    def _bound(self, key: Any) -> dict[str, Any]:
        """The parameters of ``_one`` for ``key``."""
        if not self._parts:
            return {"key": key}
        return {f"key_{i}": part for i, part in enumerate(key)}

    def _keys(self) -> Select[Any]:
        """A select of the key's columns."""
        return select(*(self._parts or (self._key,)))

    def _read_keys(self, connection: Connection, statement: Select[Any]) -> list[Any]:
        """The keys ``statement`` (from ``_keys``) finds: composite ones as such."""
        if not self._parts:
            return list(connection.execute(statement).scalars())
        rows = connection.execute(statement)
        return [self._resource.key_of(row._mapping) for row in rows]

    def create(self, engine: Engine, values: Mapping[str, Any], actor: Actor) -> Record:
        """Insert a record; the database allocates its key unless it is a string."""
        try:
            with (
                values_that_fit(self._labels, DataError),
                transaction(engine, writes=True) as connection,
                writing(connection),
            ):
                values, links = self.links.split(actor.before_creating(dict(values)))
                values = self._prepare(values)
                refuse_inexact(connection.dialect.name, values, self._decimals)
                self._check_relations(connection, values, actor)
                self.links.check(connection, links, actor)
                self._check_unique(connection, values, None)
                record = self._returned(self._insert_row(connection, values))
                self._link(connection, record, links)
                entry = created(self._resource, record, values, actor.user)
                history.write(connection, [entry])
                actor.notify("after_created", record)
        except IntegrityError:
            raise self._refused(engine, values, None) from None
        return record

    def update(
        self,
        engine: Engine,
        key: Any,
        values: Mapping[str, Any],
        actor: Actor,
        expected: Expected | None = None,
    ) -> Record:
        """Change the given fields of the record with ``key``; the others stay.

        With ``expected``, 412 unless the record is still the version the client had.
        """
        values = dict(values)
        try:
            with (
                values_that_fit(self._labels, DataError),
                transaction(engine, writes=True) as connection,
                writing(connection),
            ):
                current = None
                if expected is not None or actor.lifecycle.needs_record(UPDATE):
                    current = self._current(connection, key, actor, UPDATE, expected)
                    values = actor.before_updating(current, values)
                values, links = self.links.split(values)
                values = self._prepare(values)
                if not values and not links:
                    return self._fetch_in(connection, key, actor)
                before = current or self._fetch_in(connection, key, actor)
                refuse_inexact(connection.dialect.name, values, self._decimals)
                self._check_relations(connection, values, actor)
                self.links.check(connection, links, actor)
                self._check_unique(connection, values, key)
                if values:
                    row = self._update_row(connection, key, values, actor)
                    if row is None:
                        raise self._not_found(key)
                    record = self._returned(row)
                else:
                    record = self._fetch_in(connection, key, actor)
                self._link(connection, record, links)
                entry = updated(self._resource, before, record, values, actor.user)
                history.write(connection, [entry])
                actor.notify("after_updated", record)
        except IntegrityError:
            raise self._refused(engine, values, key) from None
        return record

    def delete(
        self, engine: Engine, key: Any, actor: Actor, expected: Expected | None = None
    ) -> None:
        """Delete the record with ``key`` (with ``expected``: if still that version)."""
        try:
            with transaction(engine, writes=True) as connection, writing(connection):
                if expected is not None or actor.lifecycle.needs_record(DELETE):
                    record = self._current(connection, key, actor, DELETE, expected)
                    actor.notify("before_deleting", record)
                else:  # 404 before the rules; the history names the record
                    record = self._fetch_in(connection, key, actor)
                if not self._soft:
                    what = self._undeletable(connection, key)
                    self._enforce(connection, [key], what, many=False, user=actor.user)
                statement = self._delete.where(*self.scope(actor))
                found = connection.execute(
                    statement, {**self._bound(key), "now": _now()}
                )
                if not found.rowcount:
                    raise self._not_found(key)
                gone = TRASHED if self._soft else DELETED
                history.write(
                    connection, [removed(self._resource, record, gone, actor.user)]
                )
                actor.notify("after_deleted", record)
        except IntegrityError:
            raise Conflict(database_refusal(self.label, key)) from None

    def delete_many(self, engine: Engine, keys: Sequence[Any], actor: Actor) -> int:
        """Delete the records with these keys, all or none; unknown keys are skipped."""
        try:
            with transaction(engine, writes=True) as connection, writing(connection):
                keys = actor.before_mass_deleting(keys)
                ruled = self._referred() and not self._soft
                # The records in scope: the keys deleted, and the history's rows.
                found = self._select.where(self._key.in_(keys), *self.scope(actor))
                records = [
                    dict(zip(self._names, row, strict=True))
                    for row in connection.execute(found)
                ]
                keys = [self._resource.key_of(record) for record in records]
                if ruled:
                    self._enforce(
                        connection,
                        keys,
                        "Nothing was deleted",
                        many=True,
                        user=actor.user,
                    )
                deleted = connection.execute(
                    self._delete_many, {"keys": keys, "now": _now()}
                )
                gone = TRASHED if self._soft else DELETED
                history.write(
                    connection,
                    [removed(self._resource, r, gone, actor.user) for r in records],
                )
                actor.notify("after_mass_deleted", list(keys))
                return deleted.rowcount
        except IntegrityError:
            raise Conflict(database_refusal(self.label)) from None

    def restore(self, engine: Engine, key: Any, actor: Actor) -> Record:
        """Take the record with ``key`` out of the trash; the record, live again."""
        with transaction(engine, writes=True) as connection:
            statement = self._restore.where(*self.scope(actor, trashed=True))
            if not connection.execute(statement, self._bound(key)).rowcount:
                raise self._not_found(key)
            record = self._fetch_in(connection, key, actor)
            entry = removed(self._resource, record, RESTORED, actor.user)
            history.write(connection, [entry])
            return record

    def force_delete(self, engine: Engine, key: Any, actor: Actor) -> None:
        """Delete the record with ``key``, in the trash, for good."""
        try:
            with transaction(engine, writes=True) as connection:
                trashed = self.scope(actor, trashed=True)
                found = self._select_one.where(*trashed)
                row = connection.execute(found, self._bound(key)).first()
                if row is None:
                    raise self._not_found(key)
                record = dict(zip(self._names, row, strict=True))
                if self._referred():
                    what = self._undeletable(connection, key)
                    self._enforce(connection, [key], what, many=False, user=actor.user)
                one = and_(self._one(), *trashed)
                erase_files(connection, self._table, one, self._bound(key))
                statement = self._force_delete.where(*trashed)
                if not connection.execute(statement, self._bound(key)).rowcount:
                    raise self._not_found(key)
                entry = removed(self._resource, record, DELETED, actor.user)
                history.write(connection, [entry])
        except IntegrityError:
            raise Conflict(database_refusal(self.label, key)) from None

    def _current(
        self,
        connection: Connection,
        key: Any,
        actor: Actor,
        ability: str,
        expected: Expected | None,
    ) -> Record:
        """The record about to change, read in the write's transaction: 404 out of
        scope, 403 if ``can`` refuses it, 412 if it is not the ``expected`` version."""
        record = self._fetch_in(connection, key, actor, locked=expected is not None)
        actor.authorize_record(ability, record)
        if expected is not None:
            expected.check(record)
        return record

    def _insert_row(self, connection: Connection, values: Mapping[str, Any]) -> Any:
        """Insert ``values``; the row as stored (read back where no RETURNING)."""
        if returns_rows(connection):
            return connection.execute(self._insert, values).one()
        result = connection.execute(self._plain_insert, values)
        key = (
            self._resource.key_of(values)
            if self._parts
            else result.inserted_primary_key[0]
        )
        return connection.execute(self._select_one, self._bound(key)).one()

    def _update_row(
        self, connection: Connection, key: Any, values: Mapping[str, Any], actor: Actor
    ) -> Any:
        """Update the record ``key`` in ``actor``'s scope; the row, or ``None``."""
        where = (self._key == key, *self.scope(actor))
        if returns_rows(connection):
            statement = self._update.where(*where).values(values)
            return connection.execute(statement).first()
        # The dialect counts matched rows (FOUND_ROWS), not only changed ones.
        statement = self._plain_update.where(*where).values(values)
        if not connection.execute(statement).rowcount:
            return None
        return connection.execute(self._select_one, self._bound(key)).first()

    def _link(
        self, connection: Connection, record: Record, links: Mapping[str, Any]
    ) -> None:
        """Replace the record's links with those given, then read them all back."""
        if self.links:
            self.links.write(connection, record[self._resource.key_name()], links)
            self.links.attach(connection, [record])

    def _returned(self, row: Row[Any]) -> Record:
        record = dict(zip(self._names, row, strict=True))
        # SQLite's RETURNING gives a whole REAL back as an integer (9.0 as 9).
        for name in self._numbers:
            if record[name] is not None:
                record[name] = float(record[name])
        return record

    def _not_found(self, key: Any) -> NotFound:
        found = {"label": self.label, "key": key}
        return NotFound(gettext("%(label)s %(key)s not found") % found)

    def _conditions(self, query: ListQuery) -> list[ColumnElement[bool]]:
        conditions = [self._filtered(found) for found in query.filters]
        if query.query_tag is not None:
            conditions += self._tags[query.query_tag]
        if query.search and self._search:
            conditions.append(or_(*_matches(self._search, query.search)))
        return conditions

    def _filtered(self, found: Filter) -> ColumnElement[bool]:
        """The condition of one filter: equal, within a bound, or matching text."""
        linked = self.links.condition(found.name, found.value, self._key)
        if linked is not None:
            return linked
        column = self._filters[found.name]
        if found.operator == FROM:
            return column >= found.value
        if found.operator == TO:
            return column <= found.value
        if found.operator == CONTAINS:
            return _like(column, "%" + _escape_like(found.value) + "%", found.value)
        if found.operator == STARTS_WITH:
            return _like(column, _escape_like(found.value) + "%", found.value)
        return column == found.value

    def _order(self, query: ListQuery) -> list[ColumnElement[Any]]:
        # The sort, then the key: a stable order pages cleanly. A ``prev`` cursor
        # reads backwards from where it points.
        flip = query.backwards
        return [
            term
            for s in query.order
            for term in self._orders[s.name][s.descending != flip]
        ]

    def _after(self, query: ListQuery) -> ColumnElement[bool]:
        """Rows past the cursor in the list's order (before it for ``prev``)."""
        assert query.cursor is not None
        terms = [
            (term, literal(value, self._columns[term.name].type))
            for term, value in zip(query.order, query.cursor.values, strict=True)
        ]
        choices = []
        for index, (term, value) in enumerate(terms):
            column = self._columns[term.name]
            down = term.descending != query.backwards
            ahead = column < value if down else column > value
            equal = [self._columns[t.name] == v for t, v in terms[:index]]
            choices.append(and_(*equal, ahead))
        first, value = terms[0]
        column = self._columns[first.name]
        # A plain range on the leading column lets the database use its index.
        down = first.descending != query.backwards
        near = column <= value if down else column >= value
        return and_(near, or_(*choices))

    def _prepare(self, values: Mapping[str, Any]) -> dict[str, Any]:
        prepared = dict(values)
        for name, convert in self._converters:
            if prepared.get(name) is not None:
                prepared[name] = convert(prepared[name])
        return prepared

    def _check_relations(
        self, connection: Connection, values: Mapping[str, Any], actor: Actor
    ) -> None:
        """422 for a relation to a record that does not exist, or is out of scope."""
        errors: dict[str, list[str]] = {}
        for relation in self._relations:
            value = values.get(relation.field)
            if value is None:
                continue
            exists = relation.exists
            target = self._targets.get(relation.target)
            if target is not None:
                reach = target.store.scope(actor.acting_on(target.lifecycle))
                exists = exists.where(*reach)
            if connection.execute(exists, {"key": value}).first() is None:
                errors[relation.field] = [f"The selected {relation.label} is invalid."]
        if errors:
            raise InvalidInput(errors)

    def _check_unique(
        self, connection: Connection, values: Mapping[str, Any], key: Any
    ) -> None:
        """422 for a value of a unique field that another record has already."""
        errors: dict[str, list[str]] = {}
        for unique in self._uniques:
            value = values.get(unique.field)
            if value is None:
                continue
            if key is None:
                found = connection.execute(unique.taken, {"value": value})
            else:
                found = connection.execute(
                    unique.taken_by_other, {"value": value, **self._bound(key)}
                )
            if found.first() is not None:
                errors[unique.field] = [f"The {unique.label} has already been taken."]
        for group in self._groups:
            values_now = group.values(values, self._stored(connection, key))
            if values_now is not None and self._holds(connection, values_now, key):
                errors.setdefault(group.names[0], []).append(group.message)
        if errors:
            raise InvalidInput(errors)

    def _stored(self, connection: Connection, key: Any) -> Any:
        """Reads fields of the record ``key`` (none before a create)."""

        def read(names: Sequence[str]) -> dict[str, Any]:
            if key is None:
                return {}
            columns = [self._table.c[name] for name in names]
            row = connection.execute(select(*columns).where(self._key == key)).first()
            return {} if row is None else dict(zip(names, row, strict=True))

        return read

    def _holds(
        self, connection: Connection, values: Mapping[str, Any], key: Any
    ) -> bool:
        """Whether a record other than ``key`` holds all of ``values``."""
        table = self._table
        statement = select(literal(1)).select_from(table)
        statement = statement.where(*(table.c[n] == v for n, v in values.items()))
        if key is not None:
            statement = statement.where(self._key != key)
        return connection.execute(statement.limit(1)).first() is not None

    def _refused(
        self, engine: Engine, values: Mapping[str, Any], key: Any
    ) -> Exception:
        """Why the database refused a write: a value another record took meanwhile
        (422, as the check before writing says), else a conflict (409)."""
        try:
            with transaction(engine) as connection:
                self._check_unique(connection, values, key)
        except InvalidInput as exc:
            return exc
        return Conflict(gettext("The record conflicts with existing data."))


def _now() -> datetime.datetime:
    """When a record goes to the trash: now, in UTC."""
    return datetime.datetime.now(datetime.UTC)


def _taken(table: Table, name: str) -> Select[Any]:
    """One row holding ``:value`` in ``name``."""
    column = table.c[name]
    return select(literal(1)).select_from(table).where(column == bindparam("value"))


@dataclass(frozen=True)
class _Unique:
    """A unique field and the statements that find its value in another record."""

    field: str
    label: str
    taken: Select[Any]
    other: ColumnElement[bool]  # not the record of the ``key`` parameters

    @property
    def taken_by_other(self) -> Select[Any]:
        """``taken`` among the records other than ``:key``."""
        return self.taken.where(self.other)


def _orders_by_name(
    table: Table, relations: Sequence[Relation], sortable: Mapping[str, Any]
) -> dict[str, tuple[list[Any], list[Any]]]:
    """For each sortable belongs-to field: the orders by its target's name, then
    its key (a record pointing nowhere sorts as the database puts NULLs)."""
    orders = {}
    for relation in relations:
        column = sortable.get(relation.field)
        if column is None or relation.target_key is None or not relation.shown:
            continue
        # An alias: a resource may belong to itself (a manager of employees).
        target = relation.target_key.table.alias()
        # By key: the field's name, whatever the column is called in the database.
        key = target.c[relation.target_key.key]
        named = [
            select(target.c[shown.key]).where(key == column).scalar_subquery()
            for shown in relation.shown
        ]
        orders[relation.field] = (
            [*(name.asc() for name in named), column.asc()],
            [*(name.desc() for name in named), column.desc()],
        )
    return orders


def _searchable(table: Table, resource: type[Resource], name: str) -> Any:
    column = table.c[name]
    if searched_as_text(resource.field_map[name]):
        return column
    return cast(column, String)


def _matches(columns: Sequence[Any], term: str) -> list[ColumnElement[bool]]:
    """Each column containing ``term``, case folded in every script."""
    pattern = "%" + _escape_like(term) + "%"
    return [_like(column, pattern, term) for column in columns]


def _like(column: Any, pattern: str, term: str) -> ColumnElement[bool]:
    """``column`` LIKE ``pattern`` (made of ``term``), case folded in every script."""
    if needs_folding(term):
        bound = literal(pattern, String())
        return folded(column).like(folded(bound), escape="\\")
    return column.ilike(pattern, escape="\\")


def _escape_like(term: str) -> str:
    return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
