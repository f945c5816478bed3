"""The registered resources by URI key, each with what the panel derives from it.

Everything here is computed once, when the app is created: field maps, input models,
statements. A mistake in a declaration fails at start-up, not on the first request.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, bindparam, select

from .core import fields as kernel
from .core.query import ListQuery, QueryError, parse_key, parse_list_query
from .core.resource import DeclarationError, Resource
from .errors import InvalidInput, NotFound
from .store import Relation, Store
from .urls import crud_url
from .validation import Inputs


@dataclass(frozen=True)
class PanelResource:
    """One resource as the panel serves it."""

    resource: Resource
    store: Store
    inputs: Inputs
    max_per_page: int
    crud_url: str

    @property
    def uri(self) -> str:
        """The URI key, as in ``/admin/resource/<uri>/crud``."""
        return self.resource.uri

    def list_query(self, params: Iterable[tuple[str, str]]) -> ListQuery:
        """The validated list parameters of a request."""
        try:
            return parse_list_query(
                type(self.resource), params, max_per_page=self.max_per_page
            )
        except QueryError as exc:
            raise InvalidInput(exc.errors) from None

    def key(self, text: str) -> Any:
        """The record key in a URL; one that cannot exist is simply not found."""
        key = parse_key(type(self.resource), text)
        if key is None:
            raise NotFound(f"{self.store.label} {text} not found")
        return key


class Registry:
    """Resources by URI key."""

    def __init__(
        self,
        resources: Iterable[type[Resource]],
        *,
        max_per_page: int,
        max_ids: int,
    ) -> None:
        classes: dict[str, type[Resource]] = {}
        for cls in resources:
            if cls.uri in classes:
                raise DeclarationError(f"two resources use the URI key {cls.uri!r}")
            classes[cls.uri] = cls
        self._resources = {
            uri: _panel_resource(cls, classes, max_per_page, max_ids)
            for uri, cls in classes.items()
        }

    def get(self, uri: str) -> PanelResource:
        """The resource with URI key ``uri``."""
        try:
            return self._resources[uri]
        except KeyError:
            raise NotFound("Resource not found") from None

    def __iter__(self) -> Iterator[PanelResource]:
        return iter(self._resources.values())


def _panel_resource(
    cls: type[Resource],
    classes: dict[str, type[Resource]],
    max_per_page: int,
    max_ids: int,
) -> PanelResource:
    table = _table(cls)
    relations = [
        _relation(cls, field, classes)
        for field in cls.writable_fields
        if isinstance(field, kernel.BelongsTo)
    ]
    store = Store(cls, table, label=cls.model.__name__, relations=relations)
    panel = PanelResource(
        resource=cls(),
        store=store,
        inputs=Inputs(cls, max_ids=max_ids),
        max_per_page=min(cls.max_per_page, max_per_page),
        crud_url=crud_url(cls.uri),
    )
    try:
        panel.list_query(())
    except InvalidInput as exc:
        raise DeclarationError(
            f"{cls.__qualname__}.default_sort: {exc.message}"
        ) from None
    return panel


def _table(cls: type[Resource]) -> Table:
    table = getattr(cls.model, "__table__", None)
    if not isinstance(table, Table):
        raise DeclarationError(f"{cls.__qualname__}.model must be a mapped model class")
    missing = [f.name for f in cls.fields if f.name not in table.c]
    if missing:
        raise DeclarationError(
            f"{cls.__qualname__}: {cls.model.__name__} has no column for {missing}"
        )
    return table


def _relation(
    cls: type[Resource], field: kernel.BelongsTo, classes: dict[str, type[Resource]]
) -> Relation:
    target = classes.get(field.resource)
    if target is None:
        raise DeclarationError(
            f"{cls.__qualname__}.{field.name} belongs to {field.resource!r}, "
            "which is not registered"
        )
    key = _table(target).c[target.key_name()]
    return Relation(field.name, field.label, select(key).where(key == bindparam("key")))
