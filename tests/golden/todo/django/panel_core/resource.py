"""The declarative base of every resource, its named list filters (query tags) and
its dashboard metrics.

A resource class only declares; lookups derived from the declaration are computed once,
when the class is created, so no request pays for them and a mistake fails at import.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, ClassVar

from .composite_keys import CompositeKey
from .fields import BelongsTo, Field, humanize
from .hooks import ResourceHooks
from .labels import DisplayError, Part, default_display, display_fields, parse_display
from .navigation import Navigation
from .record_actions import Action, bulk_update_action


class DeclarationError(TypeError):
    """A resource class contradicts itself (unknown field in ``search``, two keys…)."""


@dataclass(frozen=True)
class QueryTag:
    """A named, pre-set filter of the list, chosen with ``?query-tag=<uri>``."""

    uri: str
    label: str
    filter: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Metric:
    """A value card of the dashboard: ``count`` of the records, or ``sum`` / ``avg``
    of a number field, over those holding the ``filter``'s exact values
    (``panel_core.metrics``)."""

    name: str
    label: str
    aggregate: str
    field: str | None = None
    # Not ``field(...)``: the attribute above shadows dataclasses' ``field`` here.
    filter: Mapping[str, Any] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class HasMany:
    """The records of another resource that belong to this one: ``tracks`` of an
    album are the tracks whose ``album`` (the ``inverse``) is the album.

    Not a column: the JSON show answers the children's keys when asked with
    ``?with=tracks``, and the detail page lists them (``panel_core.children``).
    """

    name: str
    resource: str  # the child resource's URI key
    inverse: str  # the child's belongs-to field back to this resource
    label: str = ""
    description: str | None = None

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", humanize(self.name))


@dataclass(frozen=True)
class ManyToMany:
    """A list of the keys of another resource's records, linked to this one:
    ``tracks`` of a playlist. Not a column: each pair is a row of the link table
    ``through`` (``owner_column``: this record's key, ``target_column``: the other's),
    whose key is the pair. Written as a whole (create, PUT, PATCH replace the set),
    read as the keys in key order, filtered with ``filter[tracks]=42``.
    """

    name: str
    resource: str  # the linked resource's URI key
    through: str  # the link table
    owner_column: str
    target_column: str
    key_type: str = "integer"  # of the linked resource's key: integer, string, uuid
    label: str = ""
    description: str | None = None

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", humanize(self.name))

    @property
    def item_field(self) -> Field:
        """One of the keys, as a belongs-to field: how each is checked and shown."""
        return BelongsTo(
            self.name, label=self.label, resource=self.resource, key_type=self.key_type
        )


class Resource(ResourceHooks, Navigation):
    """Base class of resources: set the class attributes, the panel does the rest.

    ``index_fields``, ``form_fields`` and ``detail_fields`` choose what the list, the
    forms and the detail page show (empty: every field that can be); fields named in
    ``readonly_fields`` are shown but never written by clients.
    """

    uri: ClassVar[str] = ""
    title: ClassVar[str] = ""
    # The storage model (an ORM class). The kernel never looks inside it.
    model: ClassVar[Any] = None
    fields: ClassVar[tuple[Field, ...]] = ()
    search: ClassVar[tuple[str, ...]] = ()
    query_tags: ClassVar[tuple[QueryTag, ...]] = ()
    methods: ClassVar[tuple[str, ...]] = ()
    per_page: ClassVar[int] = 25
    max_per_page: ClassVar[int] = 100
    default_sort: ClassVar[str] = ""
    index_fields: ClassVar[tuple[str, ...]] = ()
    form_fields: ClassVar[tuple[str, ...]] = ()
    detail_fields: ClassVar[tuple[str, ...]] = ()
    readonly_fields: ClassVar[tuple[str, ...]] = ()
    # How a record is named: a field name or "{first} {last}" (``panel_core.labels``).
    display: ClassVar[str] = ""
    # A delete moves the record to the trash (its ``deleted_at`` column is set).
    soft_delete: ClassVar[bool] = False
    # Groups of fields no two records share the values of (``panel_core.unique``).
    unique_together: ClassVar[tuple[tuple[str, ...], ...]] = ()
    # The records of other resources that belong to each record (``HasMany``).
    has_many: ClassVar[tuple[HasMany, ...]] = ()
    # The keys of other resources' records linked to each record (``ManyToMany``).
    many_to_many: ClassVar[tuple[ManyToMany, ...]] = ()
    # What users may do to the records they select (``panel_core.record_actions``),
    # and the fields a built-in ``set_<field>`` action sets on them.
    actions: ClassVar[tuple[Action, ...]] = ()
    bulk_update: ClassVar[tuple[str, ...]] = ()
    # A composite key: the fields (``key_part=True``) that name a record together,
    # in their order in its URL (``panel_core.composite_keys``); () for one key field.
    key_parts: ClassVar[tuple[str, ...]] = ()
    # The dashboard's value cards of this resource (``Metric``).
    metrics: ClassVar[tuple[Metric, ...]] = ()

    # Derived in __init_subclass__; read-only views of the declaration.
    key_field: ClassVar[Field]  # a composite key: its first part
    key_fields: ClassVar[tuple[Field, ...]]  # the key field, or the key's parts
    field_map: ClassVar[Mapping[str, Field]]
    writable_fields: ClassVar[tuple[Field, ...]]
    creatable_fields: ClassVar[tuple[Field, ...]]
    readable_fields: ClassVar[tuple[Field, ...]]
    sortable_fields: ClassVar[tuple[str, ...]]
    filterable_fields: ClassVar[tuple[str, ...]]
    query_tag_map: ClassVar[Mapping[str, QueryTag]]
    has_many_map: ClassVar[Mapping[str, HasMany]]
    many_to_many_map: ClassVar[Mapping[str, ManyToMany]]
    index_field_list: ClassVar[tuple[Field, ...]]
    # The many-to-many fields the list shows, after its fields (``index_fields``
    # names them, else all).
    index_link_list: ClassVar[tuple[ManyToMany, ...]]
    form_field_list: ClassVar[tuple[Field, ...]]
    detail_field_list: ClassVar[tuple[Field, ...]]
    display_parts: ClassVar[tuple[Part, ...]]
    display_fields: ClassVar[tuple[str, ...]]
    all_actions: ClassVar[tuple[Action, ...]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.fields:
            _derive(cls)

    @classmethod
    def key_name(cls) -> str:
        """Name of the key field."""
        return cls.key_field.name

    @classmethod
    def key_of(cls, values: Mapping[str, Any]) -> Any:
        """The key of the record with ``values``: its key field's value, or a
        :class:`~panel_core.composite_keys.CompositeKey` of its parts' values."""
        if cls.key_parts:
            return CompositeKey(values[name] for name in cls.key_parts)
        return values[cls.key_field.name]


def _derive(cls: type[Resource]) -> None:
    where = f"{cls.__module__}.{cls.__qualname__}"
    keys = [f for f in cls.fields if f.key]
    if cls.key_parts and keys:
        raise DeclarationError(f"{where}: declare key_parts or a key field, not both")
    keys = _parts(cls, where) if cls.key_parts else keys
    if len(keys) != 1 and not cls.key_parts:
        raise DeclarationError(
            f"{where}: declare exactly one key field (found {len(keys)})"
        )
    names = [f.name for f in cls.fields]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise DeclarationError(
            f"{where}: fields declared twice: {', '.join(duplicates)}"
        )
    cls.fields = _read_only(cls, where, names)
    cls.key_field = keys[0]
    cls.key_fields = tuple(keys)
    cls.field_map = MappingProxyType({f.name: f for f in cls.fields})
    cls.writable_fields = tuple(f for f in cls.fields if f.writable)
    # What a create may set: the writable fields and a key the client gives.
    cls.creatable_fields = tuple(f for f in cls.fields if f.writable or f.client_key)
    cls.readable_fields = tuple(f for f in cls.fields if not f.write_only)
    cls.sortable_fields = tuple(f.name for f in cls.readable_fields if f.sortable)
    cls.filterable_fields = tuple(f.name for f in cls.readable_fields if f.filterable)
    cls.query_tag_map = MappingProxyType({t.uri: t for t in cls.query_tags})
    cls.has_many_map = MappingProxyType({h.name: h for h in cls.has_many})
    cls.many_to_many_map = MappingProxyType({m.name: m for m in cls.many_to_many})
    if not cls.name:
        cls.name = cls.model.__name__ if cls.model is not None else cls.__name__
    cls.index_field_list = _chosen(cls, "index_fields", cls.readable_fields)
    cls.index_link_list = _index_links(cls)
    cls.form_field_list = _chosen(cls, "form_fields", cls.writable_fields)
    cls.detail_field_list = _chosen(cls, "detail_fields", cls.readable_fields)
    if not cls.default_sort:  # a composite key: its parts in order
        cls.default_sort = cls.key_parts[0] if cls.key_parts else "-" + cls.key_name()
    _check_lookups(cls, where)
    _derive_display(cls, where)
    for many in (*cls.has_many, *cls.many_to_many):
        if many.name in cls.field_map:
            raise DeclarationError(f"{where}: {many.name!r} is declared twice")
    _derive_actions(cls, where)


def _parts(cls: type[Resource], where: str) -> list[Field]:
    """The fields of a composite key, in its order (none without ``key_parts``)."""
    if not cls.key_parts:
        return []
    by_name = {f.name: f for f in cls.fields}
    parts = [by_name.get(name) for name in cls.key_parts]
    if len(parts) < 2 or len(set(cls.key_parts)) != len(parts):
        raise DeclarationError(f"{where}: key_parts names two or more fields once")
    if not all(p is not None and p.key_part for p in parts):
        raise DeclarationError(
            f"{where}: key_parts names fields declared without key_part=True"
        )
    if any(f.key_part and f.name not in cls.key_parts for f in cls.fields):
        raise DeclarationError(f"{where}: a key_part field is not in key_parts")
    return [p for p in parts if p is not None]


def _derive_actions(cls: type[Resource], where: str) -> None:
    """The declared actions, then one ``set_<field>`` per ``bulk_update`` field."""
    updates = []
    for name in cls.bulk_update:
        field = cls.field_map.get(name)
        if field is None or not field.writable:
            raise DeclarationError(
                f"{where}.bulk_update: {name!r} is not a writable field"
            )
        updates.append(bulk_update_action(field))
    cls.all_actions = (*cls.actions, *updates)


def _derive_display(cls: type[Resource], where: str) -> None:
    """Parse ``display`` (default: the first text field, or the key) once."""
    try:
        cls.display_parts = parse_display(cls.display or default_display(cls))
    except DisplayError as exc:
        raise DeclarationError(f"{where}: display {exc}") from None
    cls.display_fields = display_fields(cls.display_parts)
    readable = {f.name for f in cls.readable_fields}
    unknown = [name for name in cls.display_fields if name not in readable]
    if unknown:
        raise DeclarationError(
            f"{where}: display names fields it cannot show: {', '.join(unknown)}"
        )


def _read_only(cls: type[Resource], where: str, names: list[str]) -> tuple[Field, ...]:
    """The fields, those named in ``readonly_fields`` made read-only."""
    for name in cls.readonly_fields:
        if name not in names:
            raise DeclarationError(f"{where}: readonly_fields names unknown {name!r}")
    return tuple(
        replace(f, read_only=True) if f.name in cls.readonly_fields else f
        for f in cls.fields
    )


def _check_lookups(cls: type[Resource], where: str) -> None:
    """Refuse a search or query tag naming a field the resource does not have."""
    for name in cls.search:
        if name not in cls.field_map:
            raise DeclarationError(f"{where}: search names unknown field {name!r}")
    for group in cls.unique_together:
        for name in group:
            if name not in cls.field_map:
                raise DeclarationError(
                    f"{where}: unique_together names unknown field {name!r}"
                )
    for tag in cls.query_tags:
        for name in tag.filter:
            if name not in cls.field_map:
                raise DeclarationError(
                    f"{where}: query tag {tag.uri!r} filters unknown field {name!r}"
                )
    _check_metrics(cls, where)


def _check_metrics(cls: type[Resource], where: str) -> None:
    """Refuse a metric that cannot be worked out (``panel_core.metrics``)."""
    for metric in cls.metrics:
        if metric.aggregate not in ("count", "sum", "avg"):
            raise DeclarationError(
                f"{where}: metric {metric.name!r}: aggregate {metric.aggregate!r} "
                "is not count, sum or avg"
            )
        if (metric.field is None) != (metric.aggregate == "count"):
            raise DeclarationError(
                f"{where}: metric {metric.name!r}: count takes no field, "
                "sum and avg one"
            )
        for name in (*metric.filter, *([metric.field] if metric.field else [])):
            if name not in cls.field_map:
                raise DeclarationError(
                    f"{where}: metric {metric.name!r} names unknown field {name!r}"
                )


def _index_links(cls: type[Resource]) -> tuple[ManyToMany, ...]:
    """The many-to-many fields ``index_fields`` names, or all of them."""
    if not cls.index_fields:
        return cls.many_to_many
    return tuple(m for m in cls.many_to_many if m.name in cls.index_fields)


def _chosen(
    cls: type[Resource], attribute: str, available: tuple[Field, ...]
) -> tuple[Field, ...]:
    """The fields named in ``attribute`` (in its order), or all ``available``
    (the many-to-many fields ``index_fields`` names aside: ``_index_links``)."""
    links = {m.name for m in cls.many_to_many}
    names = tuple(n for n in getattr(cls, attribute) if n not in links)
    if not names:
        return available
    by_name = {f.name: f for f in available}
    unknown = [name for name in names if name not in by_name]
    if unknown:
        where = f"{cls.__module__}.{cls.__qualname__}"
        raise DeclarationError(
            f"{where}: {attribute} names fields it cannot show: {', '.join(unknown)}"
        )
    return tuple(by_name[name] for name in names)
