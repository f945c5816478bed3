"""Related records of belongs-to fields: labels in tables, options in forms.

Which field names a record, and how, is the kernel's (``panel_core/choices.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Connection, Table, select

from panel_core import fields as kernel
from panel_core.choices import MAX_OPTIONS, label_field, record_label
from panel_core.lifecycle import Actor

from .registry import PanelResource, Registry

Labels = dict[str, dict[Any, str]]


@dataclass(frozen=True)
class Target:
    """The resource a belongs-to field refers to, and the columns to show of it."""

    field: str
    panel: PanelResource
    key: Column[Any]
    label: Column[Any]


def targets(registry: Registry, panel: PanelResource) -> list[Target]:
    """The related resources of ``panel``'s belongs-to fields."""
    found = []
    for field in panel.resource.readable_fields:
        if isinstance(field, kernel.BelongsTo):
            target = registry.get(field.resource)
            table: Table = target.resource.model.__table__
            label = label_field(type(target.resource)).name
            key = table.c[target.resource.key_name()]
            found.append(Target(field.name, target, key, table.c[label]))
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
        keys = {r[target.field] for r in rows if r.get(target.field) is not None}
        reach = target.panel.store.scope(actors.get(target.field))
        statement = select(target.key, target.label).where(target.key.in_(keys), *reach)
        result = connection.execute(statement) if keys else []
        labels[target.field] = {key: record_label(key, label) for key, label in result}
    return labels


def load_options(
    connection: Connection, found: Iterable[Target], actors: Mapping[str, Actor]
) -> dict[str, list[tuple[Any, str]]]:
    """For each field, the records it may refer to, in label order.

    ``actors`` are the user acting on each field's target: its scope applies.
    """
    options = {}
    for target in found:
        statement = (
            select(target.key, target.label)
            .where(*target.panel.store.scope(actors.get(target.field)))
            .order_by(target.label, target.key)
            .limit(MAX_OPTIONS)
        )
        rows = connection.execute(statement)
        options[target.field] = [(key, record_label(key, label)) for key, label in rows]
    return options
