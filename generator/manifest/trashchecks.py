"""A resource's ``soft_delete``: its trash needs a column of its own (M039).

A soft-deleting resource's table gets a ``deleted_at`` column, set when a record is
moved to the trash; a declared field of that name would be the same column.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import Issue
from ..model.ir import TRASH_COLUMN
from .yamlnodes import Document

CODE = "M039"


def trash_issues(document: Document, resource: str, spec: Any) -> Iterator[Issue]:
    """A field named like the trash column of a resource with ``soft_delete: true``."""
    options = spec if isinstance(spec, dict) else {}
    fields = options.get("fields")
    if options.get("soft_delete") is not True or not isinstance(fields, dict):
        return
    name = TRASH_COLUMN.name
    if name in fields:
        message = f"'{name}' is the trash's column (soft_delete), not a field name"
        hint = "rename the field, or leave soft_delete out"
        yield document.issue(
            ("resources", resource, "fields", name), message, CODE, hint, key=True
        )
