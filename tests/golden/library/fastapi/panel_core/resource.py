"""The declarative base of every resource, and its named list filters (query tags).

A resource class only declares; lookups derived from the declaration are computed once,
when the class is created, so no request pays for them and a mistake fails at import.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from .fields import Field
from .navigation import Navigation


class DeclarationError(TypeError):
    """A resource class contradicts itself (unknown field in ``search``, two keys…)."""


@dataclass(frozen=True)
class QueryTag:
    """A named, pre-set filter of the list, chosen with ``?query-tag=<uri>``."""

    uri: str
    label: str
    filter: Mapping[str, Any] = field(default_factory=dict)


class Resource(Navigation):
    """Base class of resources: set the class attributes, the panel does the rest."""

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

    # Derived in __init_subclass__; read-only views of the declaration.
    key_field: ClassVar[Field]
    field_map: ClassVar[Mapping[str, Field]]
    writable_fields: ClassVar[tuple[Field, ...]]
    readable_fields: ClassVar[tuple[Field, ...]]
    sortable_fields: ClassVar[tuple[str, ...]]
    filterable_fields: ClassVar[tuple[str, ...]]
    query_tag_map: ClassVar[Mapping[str, QueryTag]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.fields:
            _derive(cls)

    @classmethod
    def key_name(cls) -> str:
        """Name of the key field."""
        return cls.key_field.name


def _derive(cls: type[Resource]) -> None:
    where = f"{cls.__module__}.{cls.__qualname__}"
    keys = [f for f in cls.fields if f.key]
    if len(keys) != 1:
        raise DeclarationError(
            f"{where}: declare exactly one key field (found {len(keys)})"
        )
    names = [f.name for f in cls.fields]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise DeclarationError(
            f"{where}: fields declared twice: {', '.join(duplicates)}"
        )
    cls.key_field = keys[0]
    cls.field_map = MappingProxyType({f.name: f for f in cls.fields})
    cls.writable_fields = tuple(f for f in cls.fields if f.writable)
    cls.readable_fields = tuple(f for f in cls.fields if not f.write_only)
    cls.sortable_fields = tuple(f.name for f in cls.readable_fields if f.sortable)
    cls.filterable_fields = tuple(f.name for f in cls.readable_fields if f.filterable)
    cls.query_tag_map = MappingProxyType({t.uri: t for t in cls.query_tags})
    if not cls.default_sort:
        cls.default_sort = "-" + cls.key_field.name
    for name in cls.search:
        if name not in cls.field_map:
            raise DeclarationError(f"{where}: search names unknown field {name!r}")
    for tag in cls.query_tags:
        for name in tag.filter:
            if name not in cls.field_map:
                raise DeclarationError(
                    f"{where}: query tag {tag.uri!r} filters unknown field {name!r}"
                )
