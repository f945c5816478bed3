"""Related records of belongs-to fields: labels in tables, options in forms.

Which field names a record, and how, is the kernel's (``panel_core/choices.py``); this
module reads them with the ORM, one query per related resource.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from panel_core import fields as kernel
from panel_core.choices import MAX_OPTIONS, label_field, record_label
from panel_core.resource import Resource

from .site import resource_classes

Labels = dict[str, dict[Any, str]]


@dataclass(frozen=True)
class Target:
    """The resource a belongs-to field refers to, and the field naming its records."""

    field: str
    resource: type[Resource]
    label: str

    def rows(self) -> QuerySet[Any, tuple[Any, Any]]:
        """Every record's key and label."""
        manager = self.resource.model._default_manager
        return manager.values_list(self.resource.key_name(), self.label)


def targets(resource: type[Resource]) -> list[Target]:
    """The related resources of ``resource``'s belongs-to fields."""
    found = []
    for field in resource.readable_fields:
        if isinstance(field, kernel.BelongsTo):
            target = resource_classes()[field.resource]
            found.append(Target(field.name, target, label_field(target).name))
    return found


def load_labels(
    found: Iterable[Target], records: Iterable[Mapping[str, Any]]
) -> Labels:
    """For each field, the labels of the related records ``records`` refer to."""
    rows = list(records)
    labels: Labels = {}
    for target in found:
        keys = {r[target.field] for r in rows if r.get(target.field) is not None}
        lookup = {f"{target.resource.key_name()}__in": keys}
        pairs = target.rows().filter(**lookup) if keys else []
        labels[target.field] = {key: record_label(key, label) for key, label in pairs}
    return labels


def load_options(found: Iterable[Target]) -> dict[str, list[tuple[Any, str]]]:
    """For each field, the records it may refer to, in label order."""
    options = {}
    for target in found:
        key = target.resource.key_name()
        rows = target.rows().order_by(target.label, key)[:MAX_OPTIONS]
        options[target.field] = [(k, record_label(k, label)) for k, label in rows]
    return options
