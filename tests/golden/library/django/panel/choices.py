"""Related records of belongs-to fields: labels in tables, options in forms.

Which fields name a record, and how, is the kernel's (``panel_core/labels.py``); this
module reads them with the ORM, one query per related resource, within the scope the
related resource gives the same user: a record the user may not reach is neither an
option nor labelled.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from panel_core import fields as kernel
from panel_core.choices import SELECT_LIMIT, Related, offer, referred, wanted_key
from panel_core.labels import record_label
from panel_core.lifecycle import Actor

from .registry import PanelResource, registry

Labels = dict[str, dict[Any, str]]


@dataclass(frozen=True)
class Target:
    """The resource a belongs-to field refers to, and the fields naming its records."""

    field: str
    panel: PanelResource

    def rows(self, acting: Actor) -> QuerySet[Any, tuple[Any, ...]]:
        """The key and named fields of every live record ``acting``'s user may reach."""
        resource = self.panel.resource
        records = resource.model._default_manager.all()
        reachable = acting.acting_on(self.panel.lifecycle).scope(records)
        if type(resource).soft_delete:
            reachable = reachable.filter(deleted_at__isnull=True)
        return reachable.values_list(resource.key_name(), *resource.display_fields)

    def label(self, row: tuple[Any, ...]) -> str:
        """The name of the record in ``row`` (its key, then the named fields)."""
        resource = type(self.panel.resource)
        values = dict(zip(resource.display_fields, row[1:], strict=True))
        return record_label(resource, row[0], values)


def targets(panel: PanelResource) -> list[Target]:
    """The related resources of ``panel``'s belongs-to fields."""
    found = []
    for field in type(panel.resource).readable_fields:
        if isinstance(field, kernel.BelongsTo):
            found.append(Target(field.name, registry().get(field.resource)))
    for link in type(panel.resource).many_to_many:
        found.append(Target(link.name, registry().get(link.resource)))
    return found


def load_labels(
    found: Iterable[Target], records: Iterable[Mapping[str, Any]], acting: Actor
) -> Labels:
    """For each field, the labels of the related records ``records`` refer to."""
    rows = list(records)
    labels: Labels = {}
    for target in found:
        keys = referred(rows, target.field)
        lookup = {f"{target.panel.resource.key_name()}__in": keys}
        pairs = target.rows(acting).filter(**lookup) if keys else []
        labels[target.field] = {row[0]: target.label(row) for row in pairs}
    return labels


def load_related(
    found: Iterable[Target], acting: Actor, current: Mapping[str, str]
) -> dict[str, Related]:
    """For each field, what its input offers: the records it may refer to, in the
    order of their labels' fields, or a picker and the name of ``current[field]``."""
    related = {}
    for target in found:
        resource = target.panel.resource
        order = (*resource.display_fields, resource.key_name())
        reachable = target.rows(acting)
        picked = reachable.order_by(*order)[: SELECT_LIMIT + 1]
        rows = [(row[0], target.label(row)) for row in picked]
        named = None
        text = current.get(target.field)
        key = wanted_key(type(resource), text) if len(rows) > SELECT_LIMIT else None
        if text and key is not None:
            row = reachable.filter(**{resource.key_name(): key}).first()
            named = (text, target.label(row)) if row is not None else None
        related[target.field] = offer(type(resource), rows, named)
    return related
