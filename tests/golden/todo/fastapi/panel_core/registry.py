"""The registered resources by URI key, each with what the panel derives from it.

Everything here is computed once, when the app starts: input models, list limits, the
crud URL and the framework's store (built by the ``store`` callable each runtime
passes). A mistake in a declaration fails at start-up, not on the first request.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from . import fields as kernel
from .abilities import Roles, RoleTable
from .children import asked_children
from .delete_rules import DeleteRules
from .errors import InvalidInput, NotFound
from .inputs import Inputs
from .lifecycle import Actor, Awaiter, Lifecycle
from .query import ListQuery, QueryError, parse_key, parse_list_query
from .record_actions import ActionSet
from .resource import DeclarationError, HasMany, Resource
from .translation import gettext
from .urls import crud_url


class Store(Protocol):
    """What the kernel needs of a runtime's store: the label of its records."""

    label: str


StoreT = TypeVar("StoreT", bound=Store)
# Builds the store of a resource, given every registered resource by URI key.
StoreFactory = Callable[[type[Resource], Mapping[str, type[Resource]]], StoreT]


@dataclass(frozen=True)
class PanelResource(Generic[StoreT]):
    """One resource as the panel serves it."""

    resource: Resource
    store: StoreT
    inputs: Inputs
    max_per_page: int
    crud_url: str
    lifecycle: Lifecycle
    actions: ActionSet

    @property
    def uri(self) -> str:
        """The URI key, as in ``/admin/resource/<uri>/crud``."""
        return self.resource.uri

    def list_query(
        self, params: Iterable[tuple[str, str]], *, paging_modes: bool = False
    ) -> ListQuery:
        """The validated list parameters; ``paging_modes`` reads total and cursor."""
        try:
            return parse_list_query(
                type(self.resource),
                params,
                max_per_page=self.max_per_page,
                paging_modes=paging_modes,
            )
        except QueryError as exc:
            raise InvalidInput(exc.errors) from None

    def children_asked(self, params: Iterable[tuple[str, str]]) -> tuple[HasMany, ...]:
        """The has-many fields the show's ``?with=`` names (422 for others)."""
        try:
            return asked_children(type(self.resource), params)
        except QueryError as exc:
            raise InvalidInput(exc.errors) from None

    def actor(self, user: Any, awaiter: Awaiter) -> Actor:
        """``user`` acting on this resource: its abilities, scope and hooks."""
        return self.lifecycle.actor(user, awaiter)

    def key(self, text: str) -> Any:
        """The record key in a URL; one that cannot exist is simply not found."""
        key = parse_key(type(self.resource), text)
        if key is None:
            found = {"label": self.store.label, "key": text}
            raise NotFound(gettext("%(label)s %(key)s not found") % found)
        return key


class Registry(Generic[StoreT]):
    """Resources by URI key."""

    def __init__(
        self,
        resources: Iterable[type[Resource]],
        *,
        store: StoreFactory[StoreT],
        max_per_page: int,
        max_ids: int,
        roles: RoleTable | None = None,
        trim_strings: bool = True,
    ) -> None:
        self.roles = Roles(roles)
        classes: dict[str, type[Resource]] = {}
        for cls in resources:
            if cls.uri in classes:
                raise DeclarationError(f"two resources use the URI key {cls.uri!r}")
            classes[cls.uri] = cls
        self.delete_rules = DeleteRules(classes)
        self._resources = {
            uri: _panel_resource(
                cls,
                store(cls, classes),
                max_per_page,
                max_ids,
                self.roles,
                trim_strings=trim_strings,
            )
            for uri, cls in classes.items()
        }

    def get(self, uri: str) -> PanelResource[StoreT]:
        """The resource with URI key ``uri``."""
        try:
            return self._resources[uri]
        except KeyError:
            raise NotFound(gettext("Resource not found")) from None

    def __iter__(self) -> Iterator[PanelResource[StoreT]]:
        return iter(self._resources.values())


def relations(
    cls: type[Resource], classes: Mapping[str, type[Resource]]
) -> list[tuple[kernel.BelongsTo, type[Resource]]]:
    """Each writable belongs-to field of ``cls`` (or part of its composite key: given
    on create) with the resource it points at."""
    found = []
    for field in cls.fields:
        if not isinstance(field, kernel.BelongsTo):
            continue
        if not (field.writable or field.key_part):
            continue
        target = classes.get(field.resource)
        if target is None:
            raise DeclarationError(
                f"{cls.__qualname__}.{field.name} belongs to {field.resource!r}, "
                "which is not registered"
            )
        found.append((field, target))
    return found


def _panel_resource(
    cls: type[Resource],
    store: StoreT,
    max_per_page: int,
    max_ids: int,
    roles: Roles,
    *,
    trim_strings: bool,
) -> PanelResource[StoreT]:
    resource = cls()
    resource.roles = roles
    panel = PanelResource(
        resource=resource,
        store=store,
        inputs=Inputs(cls, max_ids=max_ids, trim_strings=trim_strings),
        max_per_page=min(cls.max_per_page, max_per_page),
        crud_url=crud_url(cls.uri),
        lifecycle=Lifecycle(resource),
        actions=ActionSet(resource, trim_strings=trim_strings),
    )
    try:
        panel.list_query(())
    except InvalidInput as exc:
        raise DeclarationError(
            f"{cls.__qualname__}.default_sort: {exc.message}"
        ) from None
    return panel
