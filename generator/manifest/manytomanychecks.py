"""Many-to-many fields: an array of another resource's keys, stored in a link table.

``tracks: {type: array, items: {type: integer, relation: Track}}`` on ``Playlist``
links playlists and tracks through the table ``through`` names (by default the
owner's table and the field: ``playlists_tracks``), whose key is the pair. Rules:
``through`` is a table name no resource nor other link table uses (M046); an array
with ``inverse`` is a has-many field, so ``through`` beside it and ``readOnly``
without it contradict (M047); the field has no column, so it cannot be required,
searched, sorted by, filtered in a query tag, in a unique group, the key or in
``display`` (M048); only ``label``, ``description`` and ``through`` may be said
besides ``type`` and ``items`` (M049). Its target is checked as a has-many field's
is (M021 with the declared resources, M028 for the item type).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import Issue
from ..model import naming
from . import identifiers
from .columnless import Columnless
from .hints import listing_hint, shown, suggestion_hint
from .schema import INVALID
from .yamlnodes import Document

THROUGH_CODE = "M046"
CONTRADICTION_CODE = "M047"
NO_COLUMN_CODE = "M048"
OPTION_CODE = "M049"
ARRAY = "array"
# What a many-to-many field may say; every other option is M049.
OPTIONS = ("type", "items", "through", "label", "description")
# Options a many-to-many field may carry only as false: it has no column.
_FALSE_ONLY = ("sortable", "nullable", "unique", "readOnly")
# Where no many-to-many field may be named, and why.
_COLUMNLESS = Columnless(
    kind="many-to-many",
    not_in={
        "required": "has no column a create must fill (an empty list is valid)",
        "search": "has no column to search",
    },
    code=NO_COLUMN_CODE,
    key_code=NO_COLUMN_CODE,
    unique_code=NO_COLUMN_CODE,
    tag_reason="; filter it with ?filter=",
    unique_reason="which has no column",
)


def is_many_to_many(spec: Any) -> bool:
    """Whether a field's options declare a many-to-many field (an array without
    ``inverse``)."""
    return (
        isinstance(spec, dict) and spec.get("type") == ARRAY and "inverse" not in spec
    )


def link_table(resource: str, spec: Any, field: str, options: Mapping[str, Any]) -> str:
    """The link table of ``field``: ``through``, else ``<owner table>_<field>``."""
    through = options.get("through")
    if isinstance(through, str):
        return through
    table = spec.get("table") if isinstance(spec, dict) else None
    owner = table if isinstance(table, str) else naming.table_name(resource)
    return f"{owner}_{field}"


def many_to_many_issues(
    document: Document, resources: Mapping[str, Any]
) -> Iterator[Issue]:
    """Every problem of the manifest's many-to-many fields, and ``through`` where
    it does not apply."""
    tables = {
        _table(name, spec): name for name, spec in resources.items() if spec is not None
    }
    links: dict[str, str] = {}
    for name, spec in resources.items():
        fields = spec.get("fields") if isinstance(spec, dict) else None
        if not isinstance(fields, dict):
            continue
        for field, options in fields.items():
            where = ("resources", name, "fields", field)
            if not isinstance(options, dict):
                continue
            if options.get("type") == ARRAY and "inverse" in options:
                yield from _has_many_contradictions(document, where, options)
            elif is_many_to_many(options):
                yield from _option_issues(document, where, options, resources)
                yield from _target_issues(document, where, options, resources)
                table = link_table(name, spec, field, options)
                yield from _through_issues(
                    document, where, options, table, tables, links
                )
                links[table] = f"{name}.{field}"
            elif "through" in options:
                message = "'through' applies to many-to-many (array) fields only"
                yield document.issue((*where, "through"), message, THROUGH_CODE)
        yield from _reference_issues(document, name, spec, fields)


def _table(name: str, spec: Any) -> str:
    table = spec.get("table") if isinstance(spec, dict) else None
    return table.lower() if isinstance(table, str) else naming.table_name(name)


def _has_many_contradictions(
    document: Document, where: tuple[Any, ...], options: dict[str, Any]
) -> Iterator[Issue]:
    if "through" in options:
        message = (
            "'through' names a link table, but 'inverse' makes this a has-many "
            "field, which has none"
        )
        hint = "remove 'inverse' for a many-to-many field, or 'through' for has-many"
        yield document.issue((*where, "through"), message, CONTRADICTION_CODE, hint)


def _inverse_hint(
    options: dict[str, Any], owner: str, resources: Mapping[str, Any]
) -> str:
    """Remove ``readOnly``, or list the children with the ``inverse`` it could name."""
    items = options.get("items")
    target = items.get("relation") if isinstance(items, dict) else None
    child = resources.get(target) if isinstance(target, str) else None
    fields = child.get("fields") if isinstance(child, dict) else None
    choices = [
        name
        for name, spec in (fields if isinstance(fields, dict) else {}).items()
        if isinstance(spec, dict) and spec.get("relation") == owner
    ]
    field = choices[0] if len(choices) == 1 else "<its relation to this resource>"
    return f"remove 'readOnly' to link records, or add 'inverse: {field}' (has-many)"


def _option_issues(
    document: Document,
    where: tuple[Any, ...],
    options: dict[str, Any],
    resources: Mapping[str, Any],
) -> Iterator[Issue]:
    for key, value in options.items():
        if value is INVALID or key in OPTIONS:
            continue
        if key == "readOnly" and value is True:
            message = "a many-to-many field without 'inverse' is written by requests"
            hint = _inverse_hint(options, where[1], resources)
            yield document.issue((*where, key), message, CONTRADICTION_CODE, hint)
        elif not (key in _FALSE_ONLY and value is False):
            message = f"'{key}' does not apply to many-to-many fields (no column)"
            yield document.issue((*where, key), message, OPTION_CODE, "remove it")


def _target_issues(
    document: Document,
    where: tuple[Any, ...],
    options: dict[str, Any],
    resources: Mapping[str, Any],
) -> Iterator[Issue]:
    items = options.get("items")
    target = items.get("relation") if isinstance(items, dict) else None
    if isinstance(target, str) and target not in resources:
        message = f"refers to {shown(target)}, which is not a resource"
        hint = suggestion_hint(target, list(resources), "declared resources are")
        yield document.issue((*where, "items", "relation"), message, "M021", hint)


def _through_issues(
    document: Document,
    where: tuple[Any, ...],
    options: dict[str, Any],
    table: str,
    tables: Mapping[str, str],
    links: Mapping[str, str],
) -> Iterator[Issue]:
    place = (*where, "through") if "through" in options else where
    at_key = "through" not in options
    through = options.get("through")
    if through is INVALID:
        return
    if isinstance(through, str) and not identifiers.SNAKE.fullmatch(through):
        message = f"{shown(through)} is not a table name (snake_case)"
        yield document.issue(place, message, THROUGH_CODE, key=at_key)
        return
    problem = identifiers.table_problem(table)
    if problem is not None:
        message, hint = problem
        yield document.issue(place, message, THROUGH_CODE, hint, key=at_key)
        return
    owner = tables.get(table.lower())
    if owner is not None:
        message = f"link table '{table}' is the table of resource '{owner}'"
        hint = listing_hint("resource tables are", sorted(tables))
        yield document.issue(place, message, THROUGH_CODE, hint, key=at_key)
    elif table.lower() in {t.lower() for t in links}:
        other = next(v for t, v in links.items() if t.lower() == table.lower())
        message = f"link table '{table}' is already the link table of '{other}'"
        hint = "name another one with 'through:'"
        yield document.issue(place, message, THROUGH_CODE, hint, key=at_key)


def _reference_issues(
    document: Document, resource: str, spec: dict[str, Any], fields: dict[str, Any]
) -> Iterator[Issue]:
    """A many-to-many field named where a column is meant."""
    many = {name for name, options in fields.items() if is_many_to_many(options)}
    if many:
        yield from _COLUMNLESS.issues(document, resource, spec, many)
