"""The many-to-many fields of one resource, on SQLAlchemy Core: each link table read
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

from sqlalchemy import (
    ColumnElement,
    Connection,
    MetaData,
    Table,
    delete,
    insert,
    select,
)

from panel_core.lifecycle import Actor
from panel_core.resource import ManyToMany, Resource

from .errors import InvalidInput

Record = dict[str, Any]


@dataclass(frozen=True)
class _Link:
    field: ManyToMany
    table: Table

    @property
    def owner(self) -> Any:
        return self.table.c[self.field.owner_column]

    @property
    def target(self) -> Any:
        return self.table.c[self.field.target_column]


class Links:
    """Reads, writes and filters the link tables of one resource's fields."""

    def __init__(self, resource: type[Resource], metadata: MetaData) -> None:
        self._links = tuple(
            _Link(field, metadata.tables[field.through])
            for field in resource.many_to_many
        )
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

    def _live(self, link: _Link, actor: Actor | None) -> tuple[Any, list[Any]]:
        """The linked resource's key column and what keeps its records reachable."""
        panel = self._targets[link.field.resource]
        acting = None if actor is None else actor.acting_on(panel.lifecycle)
        return panel.store.key_column, panel.store.scope(acting)

    def attach(self, connection: Connection, records: Sequence[Record]) -> None:
        """Add each field's keys to ``records``: one query per field for them all."""
        if not records:
            return
        keys = [record[self._key] for record in records]
        for link in self._links:
            found: dict[Any, list[Any]] = {key: [] for key in keys}
            key, live = self._live(link, None)
            statement = (
                select(link.owner, link.target)
                .join(key.table, key == link.target)
                .where(link.owner.in_(keys), *live)
                .order_by(link.owner, link.target)
            )
            for owner, target in connection.execute(statement):
                found[owner].append(target)
            for record in records:
                record[link.field.name] = found[record[self._key]]

    def check(
        self, connection: Connection, given: Mapping[str, list[Any]], actor: Actor
    ) -> None:
        """422 for a key of no live record the actor may reach."""
        errors: dict[str, list[str]] = {}
        for name, keys in given.items():
            if not keys:
                continue
            link = self._by_name[name]
            key, live = self._live(link, actor)
            statement = select(key).where(key.in_(keys), *live)
            found = set(connection.execute(statement).scalars())
            if any(value not in found for value in keys):
                errors[name] = [f"The selected {link.field.label} is invalid."]
        if errors:
            raise InvalidInput(errors)

    def write(
        self, connection: Connection, key: Any, given: Mapping[str, list[Any]]
    ) -> None:
        """Replace the links of the record ``key`` with ``given`` (per field)."""
        for name, keys in given.items():
            link = self._by_name[name]
            connection.execute(delete(link.table).where(link.owner == key))
            if keys:
                rows = [
                    {link.field.owner_column: key, link.field.target_column: value}
                    for value in keys
                ]
                connection.execute(insert(link.table), rows)

    def condition(self, name: str, value: Any, key: Any) -> ColumnElement[bool] | None:
        """``filter[name]=value``: the records linked to ``value`` (None: not a link)."""
        link = self._by_name.get(name)
        if link is None:
            return None
        return key.in_(select(link.owner).where(link.target == value))
