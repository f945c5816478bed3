"""A resource's ``unique`` groups: fields whose values no two records share together.

Each group names two or more fields of the resource (M022 with a "did you mean"
otherwise); a group of one field is a field's own ``unique: true``, a group listed
twice (in any order) or holding the key or a password field cannot be one (M040).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import Issue
from .hints import shown, suggestion_hint
from .yamlnodes import Document

CODE = "M040"


def unique_issues(document: Document, resource: str, spec: Any) -> Iterator[Issue]:
    """Every problem of the ``unique`` groups of ``resource``."""
    options = spec if isinstance(spec, dict) else {}
    groups, fields = options.get("unique"), options.get("fields")
    if not isinstance(groups, list) or not isinstance(fields, dict):
        return
    key = options.get("key", "id")
    if "key" not in options:
        fields = {"id": {"type": "integer"}, **fields}
    seen: dict[frozenset[str], int] = {}
    for index, group in enumerate(groups):
        if not isinstance(group, list) or not all(isinstance(n, str) for n in group):
            continue  # the schema said so
        where = ("resources", resource, "unique", index)
        yield from _group_issues(document, where, resource, group, fields, key)
        members = frozenset(group)
        if members in seen and len(members) > 1:
            message = f"names the same fields as unique[{seen[members]}]"
            yield document.issue(where, message, CODE, "remove it")
        seen.setdefault(members, index)


def _group_issues(
    document: Document,
    where: tuple[Any, ...],
    resource: str,
    group: list[str],
    fields: dict[str, Any],
    key: Any,
) -> Iterator[Issue]:
    if len(group) == 1:
        message = f"{shown(group[0])} alone is not a group"
        hint = f"write 'unique: true' on the field {shown(group[0])} instead"
        yield document.issue(where, message, CODE, hint)
        return
    for position, name in enumerate(group):
        place = (*where, position)
        found = fields.get(name)
        if not isinstance(found, dict):
            message = f"refers to {shown(name)}, which is not a field of '{resource}'"
            hint = suggestion_hint(name, list(fields), f"fields of '{resource}' are")
            yield document.issue(place, message, "M022", hint)
        elif name == key:
            message = f"{shown(name)} is the key, unique on its own"
            yield document.issue(place, message, CODE, "remove it from the group")
        elif found.get("format") == "password":
            message = f"{shown(name)} is a password field, which cannot be unique"
            yield document.issue(place, message, CODE, "remove it from the group")
