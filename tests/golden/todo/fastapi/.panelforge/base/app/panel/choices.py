"""Related records of belongs-to fields: labels in tables, options in forms.

Which fields name a record, and how, and when an input offers them all or a picker,
is the kernel's (``panel_core/labels.py``, ``panel_core/choices.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Connection, Table, select

from panel_core import fields as kernel
from panel_core.choices import SELECT_LIMIT, Related, offer, referred, wanted_key
from panel_core.labels import record_label
from panel_core.lifecycle import Actor

from .registry import PanelResource, Registry

Labels = dict[str, dict[Any, str]]


@dataclass(frozen=True)
class Target:
    """The resource a belongs-to field refers to, and the columns naming its records."""

    field: str
    panel: PanelResource
    key: Column[Any]
    shown: tuple[Column[Any], ...]

    def label(self, row: Any) -> str:
        """The name of the record in ``row`` (its key, then the ``shown`` columns)."""
        resource = type(self.panel.resource)
        values = dict(zip(resource.display_fields, row[1:], strict=True))
        return record_label(resource, row[0], values)


def targets(registry: Registry, panel: PanelResource) -> list[Target]:
    """The related resources of ``panel``'s belongs-to fields."""
    found = []
    for field in panel.resource.readable_fields:
        if isinstance(field, kernel.BelongsTo):
            target = registry.get(field.resource)
            table: Table = target.resource.model.__table__
            shown = tuple(table.c[name] for name in target.resource.display_fields)
            key = table.c[target.resource.key_name()]
            found.append(Target(field.name, target, key, shown))
    for link in panel.resource.many_to_many:
        target = registry.get(link.resource)
        table = target.resource.model.__table__
        shown = tuple(table.c[name] for name in target.resource.display_fields)
        key = table.c[target.resource.key_name()]
        found.append(Target(link.name, target, key, shown))
    return found


def load_labels(
    connection: Connection,
    found: Iterable[Target],
    records: Iterable[Mapping[str, Any]],
    actors: Mapping[str, Actor],
) -> Labels:
    """For each field, the labels of the related records ``records`` refer to.

    Records outside the user's scope of their resource get no label (their key shows).
    """
    rows = list(records)
    labels: Labels = {}
    for target in found:
        keys = referred(rows, target.field)
        reach = target.panel.store.scope(actors.get(target.field))
        statement = select(target.key, *target.shown).where(
            target.key.in_(keys), *reach
        )
        result = connection.execute(statement) if keys else []
        labels[target.field] = {row[0]: target.label(row) for row in result}
    return labels


def load_related(
    connection: Connection,
    found: Iterable[Target],
    actors: Mapping[str, Actor],
    current: Mapping[str, str],
) -> dict[str, Related]:
    """For each field, what its input offers: the records it may refer to, in the
    order of their labels' fields, or a picker and the name of ``current[field]``.

    ``actors`` are the user acting on each field's target: its scope applies.
    """
    related = {}
    for target in found:
        reach = target.panel.store.scope(actors.get(target.field))
        statement = (
            select(target.key, *target.shown)
            .where(*reach)
            .order_by(*target.shown, target.key)
            .limit(SELECT_LIMIT + 1)
        )
        rows = [(row[0], target.label(row)) for row in connection.execute(statement)]
        resource = type(target.panel.resource)
        named = None
        text = current.get(target.field)
        key = wanted_key(resource, text) if len(rows) > SELECT_LIMIT else None
        if text and key is not None:
            statement = select(target.key, *target.shown).where(
                target.key == key, *reach
            )
            row = connection.execute(statement).first()
            named = (text, target.label(row)) if row is not None else None
        related[target.field] = offer(resource, rows, named)
    return related
