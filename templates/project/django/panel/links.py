"""The many-to-many fields of one resource, on the Django ORM: each link model read
for a whole page at once, written as a whole, and filtered on.

A field's value is the keys of the linked records, in key order, without the ones in
their trash (they are invisible, and cannot be linked). A write replaces the set:
the owner's rows of the link table are deleted and the new pairs inserted, in the
write's own transaction, once every key is checked (422 for one of no live record
within the actor's scope, as a belongs-to field says).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import models
from django.db.models import Q

from panel_core.errors import InvalidInput
from panel_core.lifecycle import Actor
from panel_core.resource import ManyToMany, Resource

Record = dict[str, Any]


@dataclass(frozen=True)
class _Link:
    field: ManyToMany
    model: type[models.Model]
    owner: str  # the attribute holding the owner's key (``playlist_id``)
    target: str  # the attribute holding the linked record's key
    target_name: str  # the foreign key to the linked record (``track``)


def _link(field: ManyToMany, owner: type[models.Model]) -> _Link:
    tables = {m._meta.db_table: m for m in owner._meta.apps.get_models()}
    model = tables[field.through]
    columns = {f.column: f for f in model._meta.concrete_fields}
    target = columns[field.target_column]
    return _Link(
        field,
        model,
        columns[field.owner_column].attname,
        target.attname,
        target.name,
    )


class Links:
    """Reads, writes and filters the link tables of one resource's fields."""

    def __init__(self, resource: type[Resource], model: type[models.Model]) -> None:
        self._links = tuple(_link(field, model) for field in resource.many_to_many)
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

    def _reachable(self, link: _Link, actor: Actor | None) -> models.QuerySet[Any]:
        """The keys of the linked resource's records ``actor`` may reach (live)."""
        panel = self._targets[link.field.resource]
        acting = None if actor is None else actor.acting_on(panel.lifecycle)
        store = panel.store
        rows = store.model_manager.filter(*store.scope(acting))
        return rows.values_list(store.key_attribute, flat=True)

    def attach(self, records: Sequence[Record]) -> None:
        """Add each field's keys to ``records``: one query per field for them all."""
        if not records:
            return
        keys = [record[self._key] for record in records]
        for link in self._links:
            found: dict[Any, list[Any]] = {key: [] for key in keys}
            rows = link.model._default_manager.filter(
                **{f"{link.owner}__in": keys, f"{link.target}__in": self._live(link)}
            )
            pairs = rows.order_by(link.owner, link.target)
            for owner, target in pairs.values_list(link.owner, link.target):
                found[owner].append(target)
            for record in records:
                record[link.field.name] = found[record[self._key]]

    def _live(self, link: _Link) -> models.QuerySet[Any]:
        return self._reachable(link, None)

    def check(self, given: Mapping[str, list[Any]], actor: Actor) -> None:
        """422 for a key of no live record the actor may reach."""
        errors: dict[str, list[str]] = {}
        for name, keys in given.items():
            if not keys:
                continue
            link = self._by_name[name]
            reachable = self._reachable(link, actor)
            store = self._targets[link.field.resource].store
            found = set(reachable.filter(**{f"{store.key_attribute}__in": keys}))
            if any(value not in found for value in keys):
                errors[name] = [f"The selected {link.field.label} is invalid."]
        if errors:
            raise InvalidInput(errors)

    def write(self, key: Any, given: Mapping[str, list[Any]]) -> None:
        """Replace the links of the record ``key`` with ``given`` (per field)."""
        for name, keys in given.items():
            link = self._by_name[name]
            manager = link.model._default_manager
            manager.filter(**{link.owner: key}).delete()
            manager.bulk_create(
                [link.model(**{link.owner: key, link.target: value}) for value in keys]
            )

    def condition(self, name: str, value: Any, key: str) -> Q | None:
        """``filter[name]=value``: the records linked to ``value`` (None: not a link)."""
        link = self._by_name.get(name)
        if link is None:
            return None
        linked = link.model._default_manager.filter(**{link.target: value})
        return Q(**{f"{key}__in": linked.values(link.owner)})
