"""What both frameworks' many-to-many fields share.

A field's value is the keys of the linked records, in key order, without the ones in
their trash (they are invisible, and cannot be linked). A write replaces the set:
the owner's rows of the link table are deleted and the new pairs inserted, in the
write's own transaction, once every key is checked (422 for one of no live record
within the actor's scope, as a belongs-to field says).

``LinkFields`` holds one resource's links and does the framework-free part: splitting
a write's lists from its other values, grouping a page's link rows by owner and
collecting the 422. Each framework's ``links`` module reads and writes the tables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from .errors import InvalidInput
from .resource import ManyToMany, Resource
from .translation import gettext

Record = dict[str, Any]


class Link(Protocol):
    """One many-to-many field and where its framework keeps its link table."""

    @property
    def field(self) -> ManyToMany: ...


L = TypeVar("L", bound=Link)


class LinkFields(Generic[L]):
    """The links of one resource's many-to-many fields."""

    def __init__(self, resource: type[Resource], links: Iterable[L]) -> None:
        self._links = tuple(links)
        self._by_name = {link.field.name: link for link in self._links}
        self._key = resource.key_name()
        self._targets: Mapping[str, Any] = {}

    def __bool__(self) -> bool:
        return bool(self._links)

    def link_targets(self, panels: Mapping[str, Any]) -> None:
        """The registered resources by URI key: whose records may be linked."""
        self._targets = panels

    def split(self, values: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """``values`` without the many-to-many lists, and those lists (each key once)."""
        given = {
            name: list(dict.fromkeys(value))
            for name, value in values.items()
            if name in self._by_name and value is not None
        }
        rest = {
            name: value for name, value in values.items() if name not in self._by_name
        }
        return rest, given

    def _attach_pairs(
        self,
        records: Sequence[Record],
        pairs: Callable[[L, list[Any]], Iterable[tuple[Any, Any]]],
    ) -> None:
        """Add each field's keys to ``records``; ``pairs(link, owners)`` gives the
        (owner, linked) keys of live linked records, in that order."""
        if not records:
            return
        keys = [record[self._key] for record in records]
        for link in self._links:
            found: dict[Any, list[Any]] = {key: [] for key in keys}
            for owner, target in pairs(link, keys):
                found[owner].append(target)
            for record in records:
                record[link.field.name] = found[record[self._key]]

    def _check_keys(
        self,
        given: Mapping[str, list[Any]],
        reachable: Callable[[L, list[Any]], set[Any]],
    ) -> None:
        """422 for a key ``reachable(link, keys)`` does not return."""
        errors: dict[str, list[str]] = {}
        for name, keys in given.items():
            if not keys:
                continue
            link = self._by_name[name]
            found = reachable(link, keys)
            if any(value not in found for value in keys):
                message = gettext("The selected %(label)s is invalid.")
                errors[name] = [message % {"label": link.field.label}]
        if errors:
            raise InvalidInput(errors)
