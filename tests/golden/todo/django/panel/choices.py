"""Related records of belongs-to fields: labels in tables, options in forms.

Which field names a record, and how, is the kernel's (``panel_core/choices.py``); this
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
from panel_core.choices import MAX_OPTIONS, label_field, record_label
from panel_core.lifecycle import Actor

from .registry import PanelResource, registry

Labels = dict[str, dict[Any, str]]


@dataclass(frozen=True)
class Target:
    """The resource a belongs-to field refers to, and the field naming its records."""

    field: str
    panel: PanelResource
    label: str

    def rows(self, acting: Actor) -> QuerySet[Any, tuple[Any, Any]]:
        """The key and label of every record ``acting``'s user may reach there."""
        resource = self.panel.resource
        records = resource.model._default_manager.all()
        reachable = acting.acting_on(self.panel.lifecycle).scope(records)
        return reachable.values_list(resource.key_name(), self.label)


def targets(panel: PanelResource) -> list[Target]:
    """The related resources of ``panel``'s belongs-to fields."""
    found = []
    for field in type(panel.resource).readable_fields:
        if isinstance(field, kernel.BelongsTo):
            related = registry().get(field.resource)
            label = label_field(type(related.resource)).name
            found.append(Target(field.name, related, label))
    return found


def load_labels(
    found: Iterable[Target], records: Iterable[Mapping[str, Any]], acting: Actor
) -> Labels:
    """For each field, the labels of the related records ``records`` refer to."""
    rows = list(records)
    labels: Labels = {}
    for target in found:
        keys = {r[target.field] for r in rows if r.get(target.field) is not None}
        lookup = {f"{target.panel.resource.key_name()}__in": keys}
        pairs = target.rows(acting).filter(**lookup) if keys else []
        labels[target.field] = {key: record_label(key, label) for key, label in pairs}
    return labels


def load_options(
    found: Iterable[Target], acting: Actor
) -> dict[str, list[tuple[Any, str]]]:
    """For each field, the records it may refer to, in label order."""
    options = {}
    for target in found:
        key = target.panel.resource.key_name()
        rows = target.rows(acting).order_by(target.label, key)[:MAX_OPTIONS]
        options[target.field] = [(k, record_label(k, label)) for k, label in rows]
    return options
