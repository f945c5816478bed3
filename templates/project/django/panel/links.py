"""The many-to-many fields of one resource, on the Django ORM: each link model read
for a whole page at once, written as a whole, and filtered on
(``panel_core.links`` says what a field's value is and does the shared part).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import models
from django.db.models import Q

from panel_core.lifecycle import Actor
from panel_core.links import LinkFields, Record
from panel_core.resource import ManyToMany, Resource


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


class Links(LinkFields[_Link]):
    """Reads, writes and filters the link tables of one resource's fields."""

    def __init__(self, resource: type[Resource], model: type[models.Model]) -> None:
        super().__init__(resource, (_link(f, model) for f in resource.many_to_many))

    def _reachable(self, link: _Link, actor: Actor | None) -> models.QuerySet[Any]:
        """The keys of the linked resource's records ``actor`` may reach (live)."""
        panel = self._targets[link.field.resource]
        acting = None if actor is None else actor.acting_on(panel.lifecycle)
        store = panel.store
        rows = store.model_manager.filter(*store.scope(acting))
        return rows.values_list(store.key_attribute, flat=True)

    def attach(self, records: Sequence[Record]) -> None:
        """Add each field's keys to ``records``: one query per field for them all."""

        def pairs(link: _Link, owners: list[Any]) -> Iterable[tuple[Any, Any]]:
            rows = link.model._default_manager.filter(
                **{
                    f"{link.owner}__in": owners,
                    f"{link.target}__in": self._reachable(link, None),
                }
            )
            pairs = rows.order_by(link.owner, link.target)
            return pairs.values_list(link.owner, link.target)

        self._attach_pairs(records, pairs)

    def check(self, given: Mapping[str, list[Any]], actor: Actor) -> None:
        """422 for a key of no live record the actor may reach."""

        def reachable(link: _Link, keys: list[Any]) -> set[Any]:
            store = self._targets[link.field.resource].store
            found = self._reachable(link, actor)
            return set(found.filter(**{f"{store.key_attribute}__in": keys}))

        self._check_keys(given, reachable)

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
