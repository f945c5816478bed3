"""A field's ``on_delete``: what deleting the related record does (M041, M042).

``set_null`` clears the link, so it needs a column that may be empty (M041); a field
that is not a relation has no related record to delete (M042). The rule itself
(``restrict``, ``cascade`` or ``set_null``) is checked by the schema.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import Issue
from .yamlnodes import Document

NOT_NULLABLE = "M041"
NOT_A_RELATION = "M042"


def delete_rule_issues(document: Document, resource: str, spec: Any) -> Iterator[Issue]:
    """``on_delete`` on a field that is not a relation, or ``set_null`` on one that
    cannot be empty."""
    options = spec if isinstance(spec, dict) else {}
    fields = options.get("fields")
    required = options.get("required")
    required = set(required) if isinstance(required, list) else set()
    for name, field in (fields if isinstance(fields, dict) else {}).items():
        if not isinstance(field, dict) or "on_delete" not in field:
            continue
        where = ("resources", resource, "fields", name, "on_delete")
        if field.get("relation") is None:
            message = "on_delete applies to relations only, and this field is not one"
            hint = "remove on_delete, or add 'relation: <Resource>' to the field"
            yield document.issue(where, message, NOT_A_RELATION, hint)
        elif field["on_delete"] == "set_null" and not _may_be_empty(
            field, name in required
        ):
            message = "'set_null' needs a relation that may be empty"
            hint = _empty_hint(field, name in required)
            yield document.issue(where, message, NOT_NULLABLE, hint)


def _may_be_empty(field: dict[str, Any], required: bool) -> bool:
    """Whether the column accepts NULL (as ``ir.Field.column_nullable`` says)."""
    if field.get("nullable") is True:
        return True
    return not required and "default" not in field and "default_sql" not in field


def _empty_hint(field: dict[str, Any], required: bool) -> str:
    if required or "default" in field:
        return "add 'nullable: true' to the field, or use 'restrict' or 'cascade'"
    return "use 'restrict' or 'cascade'"
