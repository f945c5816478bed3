"""Composite keys: ``key: [playlist, track]`` names a record by two or more fields.

The parts are fields of the resource (M022 with a "did you mean" otherwise), listed
once each (M018, the schema's), at least two (M054). Each is a value the client gives
when it creates the record and never changes: an integer field, a plain, uuid or date
string field, or a relation to a resource whose key is such a value (M054); never
empty or filled in by the database (``nullable``, ``default``, ``default_sql``,
``readOnly``: M055). A relation holds one key, so no relation (a field's, an array's
items' or a has-many's) may point at a composite-key resource (M056).

A valid composite key is generated: the record's URL names it in one path segment
(the kernel's codec, ``panel_core.composite_keys``), on both frameworks.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import Issue
from .fieldvalues import field_kind, field_type
from .hints import shown, suggestion_hint
from .schema import INVALID
from .yamlnodes import Document

PART_CODE, OPTION_CODE, RELATION_CODE = "M054", "M055", "M056"
_PART_FORMATS = (None, "uuid", "date")
_NEVER_ON_A_PART = ("nullable", "default", "default_sql", "readOnly")


def composite_parts(spec: Any) -> list[str] | None:
    """The parts of a resource's composite key, None when its key is one field."""
    key = spec.get("key") if isinstance(spec, dict) else None
    if not isinstance(key, list):
        return None
    return [part for part in key if isinstance(part, str)]


def composite_key_issues(
    document: Document, resource: str, spec: Any
) -> Iterator[Issue]:
    """Every problem of the composite key of ``resource`` (none for one-field keys)."""
    parts = composite_parts(spec)
    if parts is None:
        return
    where = ("resources", resource, "key")
    if len(spec["key"]) < 2:
        message = "a composite key names at least two fields"
        hint = f"write 'key: {parts[0]}' for a key of one field" if parts else None
        yield document.issue(where, message, PART_CODE, hint)
    fields = spec.get("fields")
    if not isinstance(fields, dict):
        return
    issues: list[Issue] = []
    for index, part in enumerate(spec["key"]):
        if not isinstance(part, str):
            continue  # the schema said so
        if part not in fields:
            hint = suggestion_hint(part, list(fields), f"fields of '{resource}' are")
            message = f"refers to {shown(part)}, which is not a field of '{resource}'"
            issues.append(document.issue((*where, index), message, "M022", hint))
            continue
        issues += _part_issues(document, resource, part, fields[part], index)
    yield from issues


def _part_issues(
    document: Document, resource: str, part: str, spec: Any, index: int
) -> Iterator[Issue]:
    if not isinstance(spec, dict) or field_type(spec) is None:
        return
    kind = field_type(spec)
    fits = kind == "integer" or (
        kind == "string" and spec.get("format") in _PART_FORMATS
    )
    if not fits:
        message = f"'{part}' is {field_kind(spec)}, which cannot be part of a key"
        hint = (
            "a part is an integer field, a plain, uuid or date string field, "
            "or a relation"
        )
        yield document.issue(
            ("resources", resource, "key", index), message, PART_CODE, hint
        )
    for option in _NEVER_ON_A_PART:
        if spec.get(option) not in (None, False, INVALID):
            message = f"'{part}' is part of the key, so it cannot have '{option}'"
            where = ("resources", resource, "fields", part, option)
            yield document.issue(where, message, OPTION_CODE, "remove it")


def relation_to_composite_issues(
    document: Document, resources: Mapping[str, Any]
) -> Iterator[Issue]:
    """Relations, array items and has-many fields that point at a composite key."""
    composite = {
        name: parts
        for name, spec in resources.items()
        if (parts := composite_parts(spec)) is not None
    }
    if not composite:
        return
    for name, spec in resources.items():
        fields = spec.get("fields") if isinstance(spec, dict) else None
        for field, options in (fields if isinstance(fields, dict) else {}).items():
            if not isinstance(options, dict):
                continue
            items = options.get("items")
            for where, target in (
                ((field, "relation"), options.get("relation")),
                ((field, "items", "relation"), _get(items, "relation")),
            ):
                if isinstance(target, str) and target in composite:
                    path = ("resources", name, "fields", *where)
                    yield _relation_issue(document, path, target, composite[target])


def _get(value: Any, key: str) -> Any:
    return value.get(key) if isinstance(value, dict) else None


def _relation_issue(
    document: Document, path: tuple[Any, ...], target: str, parts: list[str]
) -> Issue:
    message = (
        f"refers to '{target}', whose key is composite ({', '.join(parts)}): "
        "a relation holds a key of one field"
    )
    hint = "relate to the resources its key's parts refer to instead"
    return document.issue(path, message, RELATION_CODE, hint)
