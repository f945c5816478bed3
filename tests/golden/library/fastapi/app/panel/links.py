"""The many-to-many fields of one resource, on SQLAlchemy Core: each link table read
for a whole page at once, written as a whole, and filtered on
(``panel_core.links`` says what a field's value is and does the shared part).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
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
from panel_core.links import LinkFields, Record
from panel_core.resource import ManyToMany, Resource


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


class Links(LinkFields[_Link]):
    """Reads, writes and filters the link tables of one resource's fields."""

    def __init__(self, resource: type[Resource], metadata: MetaData) -> None:
        super().__init__(
            resource,
            (
                _Link(field, metadata.tables[field.through])
                for field in resource.many_to_many
            ),
        )

    def _live(self, link: _Link, actor: Actor | None) -> tuple[Any, list[Any]]:
        """The linked resource's key column and what keeps its records reachable."""
        panel = self._targets[link.field.resource]
        acting = None if actor is None else actor.acting_on(panel.lifecycle)
        return panel.store.key_column, panel.store.scope(acting)

    def attach(self, connection: Connection, records: Sequence[Record]) -> None:
        """Add each field's keys to ``records``: one query per field for them all."""

        def pairs(link: _Link, owners: list[Any]) -> Iterable[tuple[Any, Any]]:
            key, live = self._live(link, None)
            statement = (
                select(link.owner, link.target)
                .join(key.table, key == link.target)
                .where(link.owner.in_(owners), *live)
                .order_by(link.owner, link.target)
            )
            return connection.execute(statement).tuples()

        self._attach_pairs(records, pairs)

    def check(
        self, connection: Connection, given: Mapping[str, list[Any]], actor: Actor
    ) -> None:
        """422 for a key of no live record the actor may reach."""

        def reachable(link: _Link, keys: list[Any]) -> set[Any]:
            key, live = self._live(link, actor)
            statement = select(key).where(key.in_(keys), *live)
            return set(connection.execute(statement).scalars())

        self._check_keys(given, reachable)

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
