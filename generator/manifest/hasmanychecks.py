"""Has-many fields: a parent's read-only list of the records that belong to it.

``tracks: {type: array, readOnly: true, items: {type: integer, relation: Track},
inverse: album}`` on ``Album`` lists the tracks whose ``album`` is the album. It has
no column: ``inverse`` names the child's belongs-to field back to this resource, and
every value comes from there. So the field is read-only, never required, without a
default, and cannot be searched, sorted, filtered, listed as a column or be part of
a unique group. An array without ``inverse`` is a many-to-many field
(:mod:`~generator.manifest.manytomanychecks`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import Issue
from .columnless import Columnless
from .hints import listing_hint, shown, suggestion_hint
from .schema import INVALID
from .yamlnodes import Document

ARRAY = "array"
# What a has-many field may say besides its type; every other option is M027.
_OPTIONS = ("type", "items", "inverse", "readOnly", "label", "description")
# Options a has-many field may carry only as false: it has no column to use.
_FALSE_ONLY = ("sortable", "filterable", "nullable", "unique")
# Where no has-many field may be named, and why.
_COLUMNLESS = Columnless(
    kind="has-many",
    not_in={
        "required": "is read-only, so no request gives it",
        "search": "has no column to search",
        "list": "is shown on the detail page, not as a column of the list",
    },
    code="M030",
    key_code="M029",
    unique_code="M040",
    tag_reason=", which cannot be filtered on",
    unique_reason="which has no column to share",
)


def is_has_many(spec: Any) -> bool:
    """Whether a field's options declare a has-many field (an array with
    ``inverse``)."""
    return isinstance(spec, dict) and spec.get("type") == ARRAY and "inverse" in spec


def _is_array(spec: Any) -> bool:
    return isinstance(spec, dict) and spec.get("type") == ARRAY


def has_many_issues(
    document: Document,
    resources: Mapping[str, Any],
    key_types: Mapping[str, str | None],
) -> Iterator[Issue]:
    """Every problem of the manifest's has-many fields, and of ``items`` or
    ``inverse`` on fields that are not arrays (``key_types``: each resource's key
    type, None when unknown)."""
    for name, spec in resources.items():
        fields = spec.get("fields") if isinstance(spec, dict) else None
        if not isinstance(fields, dict):
            continue
        for field, options in fields.items():
            where = ("resources", name, "fields", field)
            if is_has_many(options):
                yield from _field_issues(document, where, options, name, resources)
            if _is_array(options):
                yield from _item_type_issues(document, where, options, key_types)
            elif isinstance(options, dict):
                yield from _stray_options(document, where, options)
        yield from _reference_issues(document, name, spec, fields)


def _stray_options(
    document: Document, where: tuple[Any, ...], options: dict[str, Any]
) -> Iterator[Issue]:
    for key in ("items", "inverse"):
        if key in options and options.get("type") != ARRAY:
            message = f"'{key}' applies to array (has-many) fields only"
            yield document.issue((*where, key), message, "M027")


def _field_issues(
    document: Document,
    where: tuple[Any, ...],
    options: dict[str, Any],
    parent: str,
    resources: Mapping[str, Any],
) -> Iterator[Issue]:
    for key, value in options.items():
        if value is INVALID or (key in _FALSE_ONLY and value is False):
            continue
        if key not in _OPTIONS and key != "through":  # "through": M047
            message = f"'{key}' does not apply to has-many fields (they have no column)"
            yield document.issue((*where, key), message, "M027", "remove it")
    if options.get("readOnly") is not True:
        message = "a has-many field is read-only: its values are the children's"
        place = (*where, "readOnly") if "readOnly" in options else where
        hint = "add 'readOnly: true'; change the children's own field to move one"
        yield document.issue(
            place, message, "M027", hint, key="readOnly" not in options
        )
    items = options.get("items")
    if not isinstance(items, dict):
        return
    yield from _target_issues(document, where, options, parent, resources)


def _target_issues(
    document: Document,
    where: tuple[Any, ...],
    options: dict[str, Any],
    parent: str,
    resources: Mapping[str, Any],
) -> Iterator[Issue]:
    items, inverse = options["items"], options["inverse"]
    target = items.get("relation")
    if not isinstance(target, str) or not isinstance(inverse, str):
        return
    if target not in resources:
        message = f"refers to {shown(target)}, which is not a resource"
        hint = listing_hint("declared resources are", list(resources))
        yield document.issue((*where, "items", "relation"), message, "M021", hint)
        return
    child = resources[target]
    fields = child.get("fields") if isinstance(child, dict) else None
    if not isinstance(fields, dict):
        return
    place = (*where, "inverse")
    if inverse not in fields:
        message = f"refers to {shown(inverse)}, which is not a field of '{target}'"
        prefix = f"relations of '{target}' to '{parent}' are"
        hint = suggestion_hint(inverse, _relations_to(fields, parent), prefix)
        yield document.issue(place, message, "M022", hint)
        return
    spec = fields[inverse]
    if not isinstance(spec, dict) or spec.get("relation") != parent:
        message = f"'{target}.{inverse}' is not a relation to '{parent}'"
        choices = _relations_to(fields, parent)
        prefix = f"relations of '{target}' to '{parent}' are"
        hint = suggestion_hint(inverse, choices, prefix)
        hint = hint or f"add '{inverse}: {{type: integer, relation: {parent}}}'"
        yield document.issue(place, message, "M030", hint)
        return
    if spec.get("filterable") is False:
        message = (
            f"'{target}.{inverse}' is not filterable, so its records cannot be listed"
        )
        yield document.issue(place, message, "M030", "leave it filterable")


def _item_type_issues(
    document: Document,
    where: tuple[Any, ...],
    options: dict[str, Any],
    key_types: Mapping[str, str | None],
) -> Iterator[Issue]:
    """``items.type`` must be the type of the child resource's key (M028)."""
    items = options.get("items")
    if not isinstance(items, dict):
        return
    target, own_type = items.get("relation"), items.get("type")
    key_type = key_types.get(target) if isinstance(target, str) else None
    if key_type is not None and own_type not in (None, INVALID, key_type):
        message = f"'{own_type}' is not the type of the key of '{target}' ({key_type})"
        hint = f"write 'type: {key_type}' in items"
        yield document.issue((*where, "items", "type"), message, "M028", hint)


def _relations_to(fields: Mapping[str, Any], parent: str) -> list[str]:
    return [
        name
        for name, spec in fields.items()
        if isinstance(spec, dict) and spec.get("relation") == parent
    ]


def _reference_issues(
    document: Document, resource: str, spec: dict[str, Any], fields: dict[str, Any]
) -> Iterator[Issue]:
    """A has-many field named where a column is meant: required, search, list,
    default_sort, a query tag's filter, a unique group or the key."""
    many = {name for name, options in fields.items() if is_has_many(options)}
    if many:
        yield from _COLUMNLESS.issues(document, resource, spec, many)
