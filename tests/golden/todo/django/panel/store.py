"""Data access for one resource with Django's ORM: reads are ``values()`` dicts.

Query sets and lookups are built once, when the store is created; a request only adds
its own conditions. Records come back as plain dicts in field declaration order (a
belongs-to field holds the related key), ready for orjson. Each write is one
transaction; reads run in autocommit (on SQLite a transaction would take the write
lock).

The methods take the ``Actor`` of the request (``panel_core.lifecycle``): its scope
narrows what they may reach (a record outside it is not found), and the resource's
hooks run inside each write's transaction, so a hook that raises undoes the write. A
resource that customises nothing pays nothing for it: no call, no extra query.

A resource with ``soft_delete`` keeps deleted records in its trash: a delete sets
their ``deleted_at``, ``scope`` keeps every read and write to the live records, and
the trash's own methods (``list_page(trashed=True)``, ``restore``, ``force_delete``)
to the trashed ones.

An update or a delete given the version the client loaded (``panel_core.versions``)
reads the record first in its transaction, locked (``select_for_update``; on SQLite
the ``IMMEDIATE`` transaction holds the write lock), and refuses it with 412 if it
changed.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.hashers import make_password
from django.db import DataError, IntegrityError, connections, models, transaction
from django.db.models import Count, Func, Max, Q, Sum, TextField, Value
from django.db.models.functions import Cast
from django.db.models.lookups import Contains, IContains, IStartsWith, StartsWith

from panel_core.abilities import DELETE, UPDATE
from panel_core.composite_keys import CompositeKey
from panel_core.decimals import refuse_inexact
from panel_core.delete_rules import (
    DeletePlan,
    DeleteRules,
    Subject,
    database_refusal,
    undeletable,
)
from panel_core.errors import Conflict, InvalidInput, NotFound
from panel_core.fields import Decimal, json_type
from panel_core.filters import CONTAINS, FROM, STARTS_WITH, TO, Filter
from panel_core.history import DELETED, RESTORED, TRASHED, created, removed, updated
from panel_core.inputs import stored_forms
from panel_core.lifecycle import Actor, Lifecycle
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
from panel_core.search import FOLD_FUNCTION, needs_folding
from panel_core.translation import gettext
from panel_core.unique import unique_groups
from panel_core.versions import Expected

from . import history
from .links import Links
from .prepared import PreparedCount, PreparedQuery
from .store_actions import ActionMethods
from .store_bulk import BulkMethods
from .store_rules import Tables, erase_files

Record = dict[str, Any]
# The page and count SQL of an unnarrowed list in one order; at most this many orders
# are kept per resource (sorts beyond are compiled on each request).
_PlainPage = tuple[PreparedQuery, PreparedCount]
_PLAIN_ORDERS = 32
_REFERENCED = (IntegrityError, models.ProtectedError, models.RestrictedError)


@dataclass(frozen=True)
class Relation:
    """A belongs-to field, the model of the records it may point at, its resource."""

    field: str
    label: str
    target: type[models.Model]
    resource: str  # the URI key of the target's resource, whose scope applies
    soft_delete: bool = False  # the target keeps a trash: trashed records are out
    # The target's fields naming its records: sorting by the field sorts by them
    # (``panel_core.labels``).
    shown: tuple[str, ...] = ()


class Store(BulkMethods, ActionMethods):
    """Reads and writes the table of one resource."""

    def __init__(
        self,
        resource: type[Resource],
        *,
        label: str,
        relations: Sequence[Relation] = (),
    ) -> None:
        model: type[models.Model] = resource.model
        self.label = label
        self._resource = resource
        self._model_label = model._meta.label
        self._relations = tuple(relations)
        self.links = Links(resource, model)
        self._targets: dict[str, Lifecycle] = {}
        self._rules: DeleteRules | None = None
        self._tables: Tables | None = None
        self._uri = resource.uri
        self._manager = model._default_manager
        columns = {
            f.name: model._meta.get_field(f.name).attname for f in resource.fields
        }
        self._columns = columns
        self._uniques = tuple(
            f for f in resource.fields if (f.unique or f.client_key) and not f.key_part
        )
        self._groups = unique_groups(resource)
        self._labels = {f.name: f.label for f in resource.fields}
        self._decimals = {
            f.name: f.label for f in resource.fields if isinstance(f, Decimal)
        }
        self._key_name = resource.key_name()
        # A composite key is Django's CompositePrimaryKey: ``pk=(a, b)``.
        self._composite = bool(resource.key_parts)
        self._key = "pk" if self._composite else columns[self._key_name]
        self._part_columns = tuple(columns[name] for name in resource.key_parts)
        self._names = tuple(f.name for f in resource.readable_fields)
        # Never evaluated itself (it would cache rows): every use chains a copy.
        self._rows = self._manager.values(*self._names)
        # The unnarrowed lists, by order (``_plain_page``).
        self._model = model
        self._plain: dict[tuple[tuple[str, ...], bool], _PlainPage] = {}
        # A live record by key: the hot read, its SQL compiled once.
        self._one = PreparedQuery(
            model,
            lambda values: self._rows.filter(*self._live, **{self._key: values["key"]}),
            {"key": model._meta.get_field(self._key_name)},
        )
        self._filters = {name: columns[name] for name in resource.filterable_fields}
        self._orders = {
            name: ([columns[name]], ["-" + columns[name]])
            for name in (self._key_name, *resource.key_parts, *resource.sortable_fields)
        }
        self._orders.update(_orders_by_name(self._relations, self._orders))
        self._table = model._meta.db_table
        self._key_column = model._meta.get_field(self._key_name).column
        integer = json_type(resource.key_field) == "integer"
        self._integer_key = integer and not self._composite
        self._search = tuple(_searchable(resource, columns, n) for n in resource.search)
        self._tags = {
            tag.uri: Q(
                **{
                    columns[name]: coerce_value(resource.field_map[name], value)
                    for name, value in tag.filter.items()
                }
            )
            for tag in resource.query_tags
        }
        self._converters = stored_forms(resource.writable_fields, make_password)
        self._soft = resource.soft_delete
        self._live = [Q(deleted_at__isnull=True)] if self._soft else []
        self._trashed = [Q(deleted_at__isnull=False)] if self._soft else []

    @property
    def model_manager(self) -> models.Manager[Any]:
        """The model's manager (many-to-many fields of other resources read it)."""
        return self._manager

    @property
    def key_attribute(self) -> str:
        """The model attribute holding the record key."""
        return self._key

    def link_relations(self, lifecycles: Mapping[str, Lifecycle]) -> None:
        """Know each relation's target resource (by URI key), whose scope applies."""
        self._targets = {r.field: lifecycles[r.resource] for r in self._relations}

    def link_rules(self, rules: DeleteRules, panels: Mapping[str, Any]) -> None:
        """The delete rules between the registered resources (by URI key)."""
        self._rules = rules
        self._tables = Tables(panels)

    def rows_where(self, **conditions: Any) -> list[Record]:
        """The records these conditions select, trashed ones too (for the delete rules)."""
        return [dict(row) for row in self._rows.filter(**conditions)]

    @property
    def delete_rules(self) -> DeleteRules | None:
        """The delete rules between the registered resources."""
        return self._rules

    def _referred(self) -> bool:
        """Whether a delete of this resource's records has rules to follow."""
        return self._rules is not None and self._rules.referred(self._uri)

    def _undeletable(self, key: Any) -> Subject:
        """A refused delete's subject: the record by its label, read if refused."""

        def read() -> Record | None:
            found = self._rows.filter(**{self._key: key}).first()
            return None if found is None else dict(found)

        return undeletable(self.label, self._resource, key, read)

    def _enforce(
        self, keys: Sequence[Any], what: Subject, *, many: bool, user: Any
    ) -> None:
        """The delete rules, before ``user`` deletes ``keys``: 409 or cleared and
        cascaded (and the history of what they change written)."""
        if self._rules is not None and self._tables is not None and self._referred():
            tables = self._tables.recording(user)
            self._rules.enforce(self._uri, keys, tables, what=what, many=many)

    def deletion(self, key: Any, actor: Actor) -> DeletePlan | None:
        """What deleting the record ``key`` would take with it, or refuse it
        (``None``: nothing, or a delete to the trash)."""
        if self._soft or self._rules is None or self._tables is None:
            return None
        if not self._referred():
            return None
        self.fetch(key, actor)
        return self._rules.plan(self._uri, [key], self._tables)

    def mass_deletion(self, keys: Sequence[Any], actor: Actor) -> DeletePlan | None:
        """``deletion`` of the records with these keys that ``actor`` may reach."""
        if self._soft or self._rules is None or self._tables is None:
            return None
        if not self._referred():
            return None
        rows = self._manager.filter(*self.scope(actor), **{self._key + "__in": keys})
        found = set(self._keys_of(rows))
        reached = [key for key in dict.fromkeys(keys) if key in found]
        return self._rules.plan(self._uri, reached, self._tables)

    def scope(self, actor: Actor | None, *, trashed: bool = False) -> list[Q]:
        """The conditions keeping ``actor`` to the records its scope lets it reach:
        the live ones (``trashed``: those in the trash)."""
        state = self._trashed if trashed else self._live
        if actor is None or not actor.lifecycle.scoped:
            return list(state)
        reachable = actor.scope(self._manager.all())
        return [*state, Q(**{self._key + "__in": reachable.values(self._key)})]

    def list_page(
        self, query: ListQuery, actor: Actor, *, trashed: bool = False
    ) -> tuple[list[Record], int | None]:
        """The rows of one page of ``query`` and how many match (``None``: not counted).

        Reads ``query.limit`` rows (one past the page unless counted exactly), in
        reverse for a ``prev`` cursor; ``panel_core.pagination.list_body`` shapes them.
        ``trashed``: the page of the trash instead.
        """
        records, total = self._page(query, actor, trashed)
        self.links.attach(records)
        return records, total

    def _page(
        self, query: ListQuery, actor: Actor, trashed: bool
    ) -> tuple[list[Record], int | None]:
        asked = self._conditions(query)
        if not asked and self._is_plain(query, actor):
            return self._plain_page(query, trashed)
        conditions = asked + self.scope(actor, trashed=trashed)
        rows = self._rows.filter(*conditions)
        total: int | None = None
        if query.total == EXACT and not query.keyset:
            total = rows.count()
            if query.offset >= total:
                return [], total
        elif query.total == ESTIMATE:
            total = self._estimate(conditions)
        if query.cursor is not None:
            rows = rows.filter(self._after(query))
        page = rows.order_by(*self._order(query))
        return [dict(r) for r in page[query.offset : query.offset + query.limit]], total

    @staticmethod
    def _is_plain(query: ListQuery, actor: Actor | None) -> bool:
        """Whether a list with no filter, search or tag is narrowed by nothing else
        either (a cursor, an estimated total, the actor's scope)."""
        unscoped = actor is None or not actor.lifecycle.scoped
        return unscoped and query.cursor is None and query.total != ESTIMATE

    def _plain_page(
        self, query: ListQuery, trashed: bool
    ) -> tuple[list[Record], int | None]:
        """``list_page`` of a list nobody narrowed (no filter, search, tag, scope or
        cursor): the hot read of the index, its count and page SQL compiled once
        per order (``panel.prepared``)."""
        order = tuple(self._order(query))
        prepared = self._plain.get((order, trashed))
        if prepared is None:
            rows = self._rows.filter(*(self._trashed if trashed else self._live))
            page = PreparedQuery(self._model, lambda _: rows.order_by(*order), {})
            prepared = (page, PreparedCount(rows))
            if len(self._plain) < _PLAIN_ORDERS:
                self._plain[(order, trashed)] = prepared
        page, counted = prepared
        total: int | None = None
        if query.total == EXACT and not query.keyset:
            total = counted.count()
            if query.offset >= total:
                return [], total
        found = page.rows({}, limit=query.limit, offset=query.offset)
        return [dict(zip(self._names, row, strict=True)) for row in found], total

    def _estimate(self, conditions: Sequence[Q | IContains]) -> int:
        """How many rows match: exact up to ``ESTIMATE_CAP``, then estimated.

        Past the cap: the table's estimated size when unfiltered (PostgreSQL's
        planner statistics, else the largest integer key), else the cap plus one.
        """
        counted = self._part_columns[0] if self._composite else self._key
        keys = self._manager.filter(*conditions).order_by().values(counted)
        found = keys[: ESTIMATE_CAP + 1].count()  # counts the keys alone
        if found <= ESTIMATE_CAP or conditions:
            return found
        connection = connections[keys.db]
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT reltuples FROM pg_class WHERE oid = to_regclass(%s)",
                    [connection.ops.quote_name(self._table)],
                )
                row = cursor.fetchone()
            estimate = row[0] if row else None
        elif self._integer_key:
            estimate = self._manager.aggregate(top=Max(self._key))["top"]
        else:
            estimate = None
        return max(found, int(estimate or 0))

    def metric_totals(self, actor: Actor) -> list[tuple[Any, int]]:
        """Each metric's ``(sum, count)`` within ``actor``'s scope, all in one query
        (``panel_core.metrics``)."""
        metrics = self._resource.metrics
        if not metrics:
            return []
        terms: dict[str, Any] = {}
        for index, metric in enumerate(metrics):
            conditions = self._conditions(metric_query(self._resource, metric))
            where = Q(*conditions) if conditions else None
            column = self._columns[metric.field] if metric.field else self._key
            if metric.field:
                terms[f"sum{index}"] = Sum(column, filter=where)
            terms[f"count{index}"] = Count(column, filter=where)
        found = self._manager.filter(*self.scope(actor)).aggregate(**terms)
        return [
            (found.get(f"sum{index}"), int(found[f"count{index}"]))
            for index in range(len(metrics))
        ]

    def fetch(self, key: Any, actor: Actor | None = None) -> Record:
        """The record with ``key`` (within ``actor``'s scope)."""
        record = self._fetch_row(key, actor)
        self.links.attach([record])
        return record

    def _fetch_row(self, key: Any, actor: Actor | None) -> Record:
        scoped = actor is not None and actor.lifecycle.scoped
        if scoped or self._composite:  # the prepared read takes one key parameter
            for found in self._rows.filter(*self.scope(actor), **{self._key: key}):
                return dict(found)
        else:
            for row in self._one.rows({"key": key}):
                return dict(zip(self._names, row, strict=True))
        raise self._not_found(key)

    def keys_where(
        self, name: str, value: Any, actor: Actor | None = None
    ) -> list[Any]:
        """The keys of the records whose field ``name`` is ``value``, in key order
        (within ``actor``'s scope): the children a has-many field lists."""
        rows = self._manager.filter(*self.scope(actor), **{self._filters[name]: value})
        return self._keys_of(rows.order_by(*(self._part_columns or (self._key,))))

    def _keys_of(self, rows: models.QuerySet[Any]) -> list[Any]:
        """The keys of ``rows`` (composite ones as ``CompositeKey``)."""
        if not self._composite:
            return list(rows.values_list(self._key, flat=True))
        return [CompositeKey(row) for row in rows.values_list(*self._part_columns)]

    def create(self, values: Mapping[str, Any], actor: Actor) -> Record:
        """Insert a record; the database allocates its key unless it is a string."""
        try:
            with values_that_fit(self._labels, DataError), transaction.atomic():
                values, links = self.links.split(actor.before_creating(dict(values)))
                values = self._prepare(values)
                refuse_inexact(self._vendor, values, self._decimals)
                self._check_relations(values, actor)
                self.links.check(links, actor)
                self._check_unique(values, None)
                made = self._manager.create(**self._by_column(values))
                self.links.write(made.pk, links)
                record = self.fetch(made.pk)
                history.write([created(self._resource, record, values, actor.user)])
                actor.notify("after_created", record)
        except IntegrityError:
            raise self._refused(values, None) from None
        return record

    def update(
        self,
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
            with values_that_fit(self._labels, DataError), transaction.atomic():
                current = None
                if expected is not None or actor.lifecycle.needs_record(UPDATE):
                    current = self._current(key, actor, UPDATE, expected)
                    values = actor.before_updating(current, values)
                values, links = self.links.split(values)
                values = self._prepare(values)
                if not values and not links:
                    return self.fetch(key, actor)
                before = current or self.fetch(key, actor)
                refuse_inexact(self._vendor, values, self._decimals)
                self._check_relations(values, actor)
                self.links.check(links, actor)
                self._check_unique(values, key)
                rows = self._manager.filter(*self.scope(actor), **{self._key: key})
                if values and not rows.update(**self._by_column(values)):
                    raise self._not_found(key)
                self.links.write(key, links)
                record = self.fetch(key)
                change = updated(self._resource, before, record, values, actor.user)
                history.write([change])
                actor.notify("after_updated", record)
        except IntegrityError:
            raise self._refused(values, key) from None
        return record

    def delete(self, key: Any, actor: Actor, expected: Expected | None = None) -> None:
        """Delete the record with ``key`` (with ``expected``: if still that version)."""
        try:
            with transaction.atomic():
                if expected is not None or actor.lifecycle.needs_record(DELETE):
                    record = self._current(key, actor, DELETE, expected)
                    actor.notify("before_deleting", record)
                else:  # 404 before the rules; the history names the record
                    record = self.fetch(key, actor)
                if not self._soft:
                    what = self._undeletable(key)
                    self._enforce([key], what, many=False, user=actor.user)
                rows = self._manager.filter(*self.scope(actor), **{self._key: key})
                if not self._delete(rows):
                    raise self._not_found(key)
                gone = TRASHED if self._soft else DELETED
                history.write([removed(self._resource, record, gone, actor.user)])
                actor.notify("after_deleted", record)
        except _REFERENCED:
            raise Conflict(database_refusal(self.label, key)) from None

    def delete_many(self, keys: Sequence[Any], actor: Actor) -> int:
        """Delete the records with these keys, all or none; unknown keys are skipped.

        Keys outside ``actor``'s scope are unknown too; ``after_mass_deleted`` is told
        the keys of the records deleted.
        """
        try:
            with transaction.atomic():
                keys = actor.before_mass_deleting(keys)
                rows = self._manager.filter(
                    *self.scope(actor), **{self._key + "__in": keys}
                )
                ruled = self._referred() and not self._soft
                # The records in scope: the keys deleted, and the history's rows.
                found = self._records(self.scope(actor), **{self._key + "__in": keys})
                records = {self._resource.key_of(r): r for r in found}
                keys = [key for key in dict.fromkeys(keys) if key in records]
                if ruled:
                    self._enforce(
                        keys, "Nothing was deleted", many=True, user=actor.user
                    )
                deleted = self._delete(rows)
                gone = TRASHED if self._soft else DELETED
                history.write(
                    removed(self._resource, records[key], gone, actor.user)
                    for key in keys
                )
                actor.notify("after_mass_deleted", keys)
        except _REFERENCED:
            raise Conflict(database_refusal(self.label)) from None
        return deleted

    def restore(self, key: Any, actor: Actor) -> Record:
        """Take the record with ``key`` out of the trash; the record, live again."""
        with transaction.atomic():
            rows = self._manager.filter(
                *self.scope(actor, trashed=True), **{self._key: key}
            )
            if not rows.update(deleted_at=None):
                raise self._not_found(key)
            record = self.fetch(key, actor)
            history.write([removed(self._resource, record, RESTORED, actor.user)])
            return record

    def force_delete(self, key: Any, actor: Actor) -> None:
        """Delete the record with ``key``, in the trash, for good."""
        try:
            with transaction.atomic():
                rows = self._manager.filter(
                    *self.scope(actor, trashed=True), **{self._key: key}
                )
                found = self._records(
                    self.scope(actor, trashed=True), **{self._key: key}
                )
                if not found:
                    raise self._not_found(key)
                if self._referred():
                    what = self._undeletable(key)
                    self._enforce([key], what, many=False, user=actor.user)
                erase_files(rows)
                if not self._delete(rows, for_good=True):
                    raise self._not_found(key)
                history.write([removed(self._resource, found[0], DELETED, actor.user)])
        except _REFERENCED:
            raise Conflict(database_refusal(self.label, key)) from None

    def _current(
        self, key: Any, actor: Actor, ability: str, expected: Expected | None
    ) -> Record:
        """The record about to change, read in the write's transaction: 404 out of
        scope, 403 if ``can`` refuses it, 412 if it is not the ``expected`` version."""
        if expected is None:
            record = self.fetch(key, actor)
        else:
            rows = self._rows.filter(*self.scope(actor), **{self._key: key})
            found = list(rows.select_for_update())
            if not found:
                raise self._not_found(key)
            record = dict(found[0])
            self.links.attach([record])
        actor.authorize_record(ability, record)
        if expected is not None:
            expected.check(record)
        return record

    def _delete(self, rows: models.QuerySet[Any], *, for_good: bool = False) -> int:
        if self._soft and not for_good:
            return rows.update(deleted_at=datetime.datetime.now(datetime.UTC))
        # Django counts cascaded rows too: only this model's rows are the answer.
        _total, by_model = rows.delete()
        return by_model.get(self._model_label, 0)

    def _records(self, conditions: Sequence[Q], **lookup: Any) -> list[Record]:
        """The records matching, as ``fetch`` reads them (without links)."""
        return [dict(row) for row in self._rows.filter(*conditions, **lookup)]

    def _not_found(self, key: Any) -> NotFound:
        found = {"label": self.label, "key": key}
        return NotFound(gettext("%(label)s %(key)s not found") % found)

    def _conditions(self, query: ListQuery) -> list[Q | IContains]:
        conditions: list[Q | IContains] = [
            Q(self._filtered(found)) for found in query.filters
        ]
        if query.query_tag is not None:
            conditions.append(self._tags[query.query_tag])
        if query.search and self._search:
            matches = Q()
            for column in self._search:
                matches |= Q(_contains(column, query.search))
            conditions.append(matches)
        return conditions

    def _filtered(self, found: Filter) -> Q | models.Lookup:
        """The condition of one filter: equal, within a bound, or matching text."""
        linked = self.links.condition(found.name, found.value, self._key)
        if linked is not None:
            return linked
        column = self._filters[found.name]
        if found.operator == FROM:
            return Q(**{f"{column}__gte": found.value})
        if found.operator == TO:
            return Q(**{f"{column}__lte": found.value})
        if found.operator == CONTAINS:
            return _contains(models.F(column), found.value)
        if found.operator == STARTS_WITH:
            return _starts_with(models.F(column), found.value)
        return Q(**{column: found.value})

    def _order(self, query: ListQuery) -> list[str]:
        # The sort, then the key: a stable order pages cleanly. A ``prev`` cursor
        # reads backwards from where it points.
        flip = query.backwards
        return [
            term
            for s in query.order
            for term in self._orders[s.name][s.descending != flip]
        ]

    def _after(self, query: ListQuery) -> Q:
        """Rows past the cursor in the list's order (before it for ``prev``)."""
        assert query.cursor is not None
        terms = list(zip(query.order, query.cursor.values, strict=True))
        choices = Q()
        for index, (term, value) in enumerate(terms):
            down = term.descending != query.backwards
            ahead = {f"{self._columns[term.name]}__{'lt' if down else 'gt'}": value}
            equal = {self._columns[t.name]: v for t, v in terms[:index]}
            choices |= Q(**equal, **ahead)
        first, value = terms[0]
        down = first.descending != query.backwards
        # A plain range on the leading column lets the database use its index.
        near = Q(**{f"{self._columns[first.name]}__{'lte' if down else 'gte'}": value})
        return near & choices

    def _prepare(self, values: Mapping[str, Any]) -> dict[str, Any]:
        prepared = dict(values)
        for name, convert in self._converters:
            if prepared.get(name) is not None:
                prepared[name] = convert(prepared[name])
        return prepared

    @property
    def _vendor(self) -> str:
        """The database's vendor: ``sqlite``, ``postgresql``, ``mysql``."""
        return str(connections[self._manager.db].vendor)

    def _by_column(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Field names to model attributes (``author`` → ``author_id``)."""
        return {self._columns[name]: value for name, value in values.items()}

    def _check_relations(self, values: Mapping[str, Any], actor: Actor) -> None:
        """422 for a related record that does not exist, or is out of its scope."""
        errors: dict[str, list[str]] = {}
        for relation in self._relations:
            value = values.get(relation.field)
            if value is None:
                continue
            targets = relation.target._default_manager.all()
            lifecycle = self._targets.get(relation.field)
            if lifecycle is not None and lifecycle.scoped:
                targets = actor.acting_on(lifecycle).scope(targets)
            if relation.soft_delete:
                targets = targets.filter(deleted_at__isnull=True)
            if not targets.filter(pk=value).exists():
                errors[relation.field] = [f"The selected {relation.label} is invalid."]
        if errors:
            raise InvalidInput(errors)

    def _check_unique(self, values: Mapping[str, Any], key: Any) -> None:
        """422 for a value of a unique field that another record has already."""
        errors: dict[str, list[str]] = {}
        for field in self._uniques:
            value = values.get(field.name)
            if value is None:
                continue
            others = self._manager.filter(**{self._columns[field.name]: value})
            if key is not None:
                others = others.exclude(**{self._key: key})
            if others.exists():
                errors[field.name] = [f"The {field.label} has already been taken."]
        for group in self._groups:
            values_now = group.values(values, self._stored(key))
            if values_now is not None and self._holds(values_now, key):
                errors.setdefault(group.names[0], []).append(group.message)
        if errors:
            raise InvalidInput(errors)

    def _stored(self, key: Any) -> Any:
        """Reads fields of the record ``key`` (none before a create)."""

        def read(names: Sequence[str]) -> dict[str, Any]:
            if key is None:
                return {}
            columns = [self._columns[name] for name in names]
            found = self._manager.filter(**{self._key: key}).values_list(*columns)
            row = found.first()
            return {} if row is None else dict(zip(names, row, strict=True))

        return read

    def _holds(self, values: Mapping[str, Any], key: Any) -> bool:
        """Whether a record other than ``key`` holds all of ``values``."""
        others = self._manager.filter(**self._by_column(values))
        if key is not None:
            others = others.exclude(**{self._key: key})
        return others.exists()

    def _refused(self, values: Mapping[str, Any], key: Any) -> Exception:
        """Why the database refused a write: a value another record took meanwhile
        (422, as the check before writing says), else a conflict (409)."""
        try:
            self._check_unique(values, key)
        except InvalidInput as exc:
            return exc
        return Conflict(gettext("The record conflicts with existing data."))


class Folded(Func):
    """Text case-folded in every script: ``panel_fold()`` on SQLite (registered by
    ``panel.apps``), ``LOWER()`` elsewhere (SQLite's own folds ASCII only)."""

    function = "LOWER"
    output_field = TextField()

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        """``panel_fold(…)``."""
        return self.as_sql(compiler, connection, function=FOLD_FUNCTION, **extra)


def _contains(column: models.F | Cast, term: str) -> IContains | Contains:
    """``column`` contains ``term``, case folded in every script."""
    if needs_folding(term):
        return Contains(Folded(column), Folded(Value(term)))
    return IContains(column, term)


def _starts_with(column: models.F, term: str) -> IStartsWith | StartsWith:
    """``column`` starts with ``term``, case folded in every script."""
    if needs_folding(term):
        return StartsWith(Folded(column), Folded(Value(term)))
    return IStartsWith(column, term)


def _orders_by_name(
    relations: Sequence[Relation], orders: Mapping[str, tuple[list[str], list[str]]]
) -> dict[str, tuple[list[str], list[str]]]:
    """For each sortable belongs-to field: the orders by its target's name, then
    its key (a record pointing nowhere sorts as the database puts NULLs)."""
    found = {}
    for relation in relations:
        if relation.field not in orders or not relation.shown:
            continue
        (key,), _ = orders[relation.field]
        named = [f"{relation.field}__{name}" for name in relation.shown]
        found[relation.field] = (
            [*named, key],
            [*("-" + name for name in named), "-" + key],
        )
    return found


def _searchable(
    resource: type[Resource], columns: Mapping[str, str], name: str
) -> models.F | Cast:
    column = models.F(columns[name])
    if searched_as_text(resource.field_map[name]):
        return column
    return Cast(column, output_field=TextField())
