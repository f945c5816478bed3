"""How related records are named: in tables, on detail pages and in select boxes.

A related record is labelled by its resource's first text field (its key when it has
none), as the select boxes of MoonShine's ``BelongsTo`` are. Each framework loads the
labels and options with its own database layer, by these rules.
"""

from __future__ import annotations

from typing import Any

from . import fields as kernel
from .resource import Resource

# A select box with more options than this is no help; the list stops there.
MAX_OPTIONS = 1000
_TEXT = (kernel.Text, kernel.Email)


def label_field(resource: type[Resource]) -> kernel.Field:
    """The field naming a record of ``resource``: its first text field, or its key."""
    for field in resource.readable_fields:
        if isinstance(field, _TEXT) and not field.key:
            return field
    return resource.key_field


def record_label(key: Any, label: Any) -> str:
    """The text naming a related record: its label, or ``#<key>`` when it is blank."""
    return f"#{key}" if label is None or label == "" else str(label)
