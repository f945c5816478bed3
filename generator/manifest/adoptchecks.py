"""A resource's ``adopted:`` facts: each names fields the resource has (M058) and
fits them (M059): ``int32`` an integer key or relation to one, ``naive`` a
date-time, ``foreign_keys`` a relation, an index or constraint one field at most once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import Issue
from .hints import shown, suggestion_hint
from .yamlnodes import Document

_UNKNOWN, _MISFIT = "M058", "M059"
_NAMED = ("indexes", "unique_indexes", "unique")


def adoption_issues(document: Document, resource: str, spec: Any) -> Iterator[Issue]:
    """Every problem of the ``adopted`` facts of ``resource``."""
    options = spec if isinstance(spec, dict) else {}
    facts, fields = options.get("adopted"), options.get("fields")
    if not isinstance(facts, dict) or not isinstance(fields, dict):
        return
    if "key" not in options:
        fields = {"id": {"type": "integer"}, **fields}
    where = ("resources", resource, "adopted")
    for kind in ("int32", "naive"):
        for position, name in enumerate(_listed(facts.get(kind))):
            place = (*where, kind, position)
            yield from _name_issues(document, place, resource, name, fields)
            yield from _fit_issues(document, place, kind, name, fields.get(name))
    yield from _named_issues(document, where, resource, facts, fields)
    for name in _mapping(facts.get("foreign_keys")):
        place = (*where, "foreign_keys", name)
        yield from _name_issues(document, place, resource, name, fields)
        yield from _fit_issues(document, place, "foreign_keys", name, fields.get(name))


def _named_issues(
    document: Document,
    where: tuple[Any, ...],
    resource: str,
    facts: dict[str, Any],
    fields: dict[str, Any],
) -> Iterator[Issue]:
    single: dict[str, str] = {}
    for kind in _NAMED:
        for index, members in _mapping(facts.get(kind)).items():
            names = _listed(members)
            for position, name in enumerate(names):
                place = (*where, kind, index, position)
                yield from _name_issues(document, place, resource, name, fields)
            if len(names) != 1 or kind == "indexes":
                continue
            if names[0] in single:
                message = f"{shown(names[0])} is already unique by {single[names[0]]}"
                hint = "list one UNIQUE index or constraint per field"
                yield document.issue((*where, kind, index), message, _MISFIT, hint)
            single.setdefault(names[0], index)


def _named_issues(
    document: Document,
    where: tuple[Any, ...],
    resource: str,
    facts: dict[str, Any],
    fields: dict[str, Any],
) -> Iterator[Issue]:
    """Indexes and constraints name fields; a field is unique by one of them only."""
    single: dict[str, str] = {}
    for kind in _NAMED:
        for index, members in _mapping(facts.get(kind)).items():
            names = _listed(members)
            for position, name in enumerate(names):
                place = (*where, kind, index, position)
                yield from _name_issues(document, place, resource, name, fields)
            if len(names) != 1 or kind == "indexes":
                continue
            if names[0] in single:
                message = f"{shown(names[0])} is already unique by {single[names[0]]}"
                hint = "list one UNIQUE index or constraint per field"
                yield document.issue((*where, kind, index), message, _MISFIT, hint)
            single.setdefault(names[0], index)


def _listed(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    return [n for n in value if isinstance(n, str)]


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _name_issues(
    document: Document,
    place: tuple[Any, ...],
    resource: str,
    name: str,
    fields: dict[str, Any],
) -> Iterator[Issue]:
    if not isinstance(fields.get(name), dict):
        message = f"refers to {shown(name)}, which is not a field of '{resource}'"
        hint = suggestion_hint(name, list(fields), f"fields of '{resource}' are")
        yield document.issue(place, message, _UNKNOWN, hint)


def _fit_issues(
    document: Document, place: tuple[Any, ...], kind: str, name: str, found: Any
) -> Iterator[Issue]:
    if not isinstance(found, dict):
        return
    relation = "relation" in found
    fits = {
        "int32": found.get("type") == "integer",
        "naive": found.get("format") == "date-time",
        "foreign_keys": relation,
    }[kind]
    if not fits:
        wanted = {
            "int32": "an integer field (a key, a relation to one, or a plain integer)",
            "naive": "a date-time field",
            "foreign_keys": "a relation",
        }[kind]
        message = f"{shown(name)} is not {wanted}"
        yield document.issue(place, message, _MISFIT, f"remove it from '{kind}'")
