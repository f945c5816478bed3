"""Semantic checks of one resource: its name, key, fields and what refers to them.

``required``, ``search``, ``list``, ``readonly``, ``default_sort``, ``query_tags`` and
the key name fields; each reference is resolved against the declared fields (plus the
implicit ``id`` key) and reported with a "did you mean" when it misses.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import Issue
from ..model import naming
from . import identifiers
from .fieldchecks import field_issues
from .fieldvalues import (
    FieldContext,
    field_kind,
    field_type,
    is_filterable,
    is_sortable,
    value_problem,
)
from .hints import shown, suggestion_hint
from .keychecks import composite_parts
from .schema import INVALID
from .yamlnodes import Document, Path

IMPLICIT_KEY = "id"
GENERATED_KEYS = ("integer", "uuid")  # key kinds the database fills in
_SEARCHABLE_FORMATS = (None, "text", "email", "uri")


@dataclass
class CheckedResource:
    """One resource being checked and what its references resolve against."""

    document: Document
    name: str
    spec: dict[str, Any]
    key_types: dict[str, str | None]  # every resource's key type, for relations
    fields: dict[str, Any] | None = field(init=False)  # None: the schema rejected them
    implicit_key: bool = field(init=False)
    key: str | None = field(init=False)  # None: the schema rejected it
    required: set[str] = field(init=False)

    def __post_init__(self) -> None:
        fields, key = self.spec.get("fields"), self.spec.get("key")
        self.fields = fields if isinstance(fields, dict) else None
        self.implicit_key = "key" not in self.spec
        self.key = (
            IMPLICIT_KEY if self.implicit_key else key if isinstance(key, str) else None
        )
        self.required = {item for _, item in _strings(self.spec.get("required"))}

    @property
    def path(self) -> Path:
        """Manifest path of the resource."""
        return ("resources", self.name)

    def issue(
        self,
        where: tuple[Any, ...],
        message: str,
        code: str,
        hint: str | None = None,
        *,
        key: bool = False,
    ) -> Issue:
        """An Issue about ``where`` inside this resource (at its key with ``key``)."""
        return self.document.issue((*self.path, *where), message, code, hint, key=key)

    def lookup(
        self, where: tuple[Any, ...], name: str, *, key: bool = False
    ) -> tuple[Issue | None, Any]:
        """The spec of the field ``name``; an M022 Issue when there is none."""
        if self.fields is None:
            return None, INVALID
        if self.implicit_key and name == IMPLICIT_KEY:
            return None, {"type": "integer", "readOnly": True}
        if name in self.fields:
            return None, self.fields[name]
        names = list(
            dict.fromkeys([IMPLICIT_KEY] * self.implicit_key + list(self.fields))
        )
        hint = suggestion_hint(name, names, f"fields of '{self.name}' are")
        message = f"refers to {shown(name)}, which is not a field of '{self.name}'"
        return self.issue(where, message, "M022", hint, key=key), INVALID


def _strings(value: Any) -> list[tuple[int, str]]:
    """The valid ``(index, name)`` items of a list of names."""
    items = value if isinstance(value, list) else []
    return [(index, item) for index, item in enumerate(items) if isinstance(item, str)]


def resource_issues(
    document: Document, name: str, spec: Any, key_types: dict[str, str | None]
) -> list[Issue]:
    """Every problem of the resource ``name``; ``key_types`` resolve relations."""
    issues: list[Issue] = []
    problem = identifiers.resource_problem(name)
    if problem:
        issues.append(
            document.issue(("resources", name), *problem_args(problem), key=True)
        )
    if not isinstance(spec, dict):
        return issues
    resource = CheckedResource(document, name, spec, key_types)
    for rule in _RESOURCE_RULES:
        issues += rule(resource)
    return issues


def problem_args(problem: tuple[str, str | None]) -> tuple[str, str, str | None]:
    """``(message, "M023", hint)`` from an identifiers problem."""
    return problem[0], "M023", problem[1]


def _key_issues(resource: CheckedResource) -> Iterator[Issue]:
    if resource.implicit_key or resource.key is None:
        return
    error, spec = resource.lookup(("key",), resource.key)
    if error:
        yield error
    if not isinstance(spec, dict) or field_type(spec) is None:
        return
    where = ("fields", resource.key)
    plain_string = field_type(spec) == "string" and spec.get("format") in (None, "uuid")
    if field_type(spec) != "integer" and not plain_string:
        message = f"'{resource.key}' is {field_kind(spec)}, which cannot be a key"
        hint = "a key is an integer field or a string field (plain or uuid)"
        yield resource.issue(("key",), message, "M029", hint)
    for option in ("nullable", "default", "relation"):
        if spec.get(option) not in (None, False, INVALID):
            message = f"the key '{resource.key}' cannot have '{option}'"
            yield resource.issue((*where, option), message, "M029")


def _key_kind(resource: CheckedResource) -> str | None:
    """``integer``/``uuid`` for a generated key, ``string`` for a supplied one."""
    if resource.implicit_key:
        return "integer"
    spec: Any = (resource.fields or {}).get(resource.key or "")
    if field_type(spec) == "integer":
        return "integer"
    if field_type(spec) == "string":
        return "uuid" if spec.get("format") == "uuid" else "string"
    return None


def _field_name_issues(resource: CheckedResource) -> Iterator[Issue]:
    for name in resource.fields or {}:
        where = ("fields", name)
        problem = identifiers.field_problem(name)
        declared_key = resource.key == IMPLICIT_KEY and not resource.implicit_key
        if problem is None and name == IMPLICIT_KEY and not declared_key:
            hint = "rename it, or make it the key with 'key: id'"
            problem = ("'id' is the name of the implicit key", hint)
        if problem:
            yield resource.issue(where, *problem_args(problem), key=True)


def _field_rule_issues(resource: CheckedResource) -> Iterator[Issue]:
    for name, spec in (resource.fields or {}).items():
        ftype = field_type(spec)
        if ftype is None:
            continue
        required = name in resource.required or (
            name == resource.key and _key_kind(resource) == "string"
        )
        required = required or name in (composite_parts(resource.spec) or ())
        path = (*resource.path, "fields", name)
        context = FieldContext(
            resource.document, path, spec, ftype, required, resource.key_types
        )
        yield from field_issues(context)


def _renamed_issues(resource: CheckedResource) -> Iterator[Issue]:
    first: dict[str, str] = {}
    for name, spec in (resource.fields or {}).items():
        old = spec.get("renamed_from") if isinstance(spec, dict) else None
        if not isinstance(old, str):
            continue
        where = ("fields", name, "renamed_from")
        if old in (resource.fields or {}):
            message = f"{shown(old)} is still a field of '{resource.name}'"
            yield resource.issue(
                where, message, "M020", "rename from a name no longer in use"
            )
        elif old in first:
            message = f"{shown(old)} is already renamed to '{first[old]}'"
            yield resource.issue(where, message, "M020")
        first.setdefault(old, name)


def _required_issues(resource: CheckedResource) -> Iterator[Issue]:
    for index, name in _strings(resource.spec.get("required")):
        error, _spec = resource.lookup(("required", index), name)
        if error:
            yield error
        elif name == resource.key and _key_kind(resource) in GENERATED_KEYS:
            message = f"'{name}' is a generated key, so it cannot be required"
            yield resource.issue(("required", index), message, "M029", "remove it")


def _field_list_issues(resource: CheckedResource) -> Iterator[Issue]:
    """``list`` and ``readonly`` name fields; a listed password is never shown, and a
    field no request may set cannot be one every create must set."""
    for key in ("list", "readonly"):
        for index, name in _strings(resource.spec.get(key)):
            error, spec = resource.lookup((key, index), name)
            if error:
                yield error
            elif field_type(spec) is None:
                continue
            elif key == "list" and spec.get("format") == "password":
                message = f"'{name}' is a password field, which is never shown"
                yield resource.issue((key, index), message, "M030", "remove it")
            elif key == "readonly" and _needs_a_request(resource, name, spec):
                message = (
                    f"'{name}' is required without a default, so making it read-only "
                    "means no record could ever be created"
                )
                hint = "give it a default, or remove it from 'required' or 'readonly'"
                yield resource.issue((key, index), message, "M027", hint)


def _needs_a_request(
    resource: CheckedResource, name: str, spec: dict[str, Any]
) -> bool:
    """Whether every create request must give field ``name`` a value."""
    if "default" in spec:
        return False
    if name == resource.key:
        return _key_kind(resource) == "string"
    return name in resource.required


def _search_issues(resource: CheckedResource) -> Iterator[Issue]:
    for index, name in _strings(resource.spec.get("search")):
        error, spec = resource.lookup(("search", index), name)
        if error:
            yield error
        elif field_type(spec) is not None and not _searchable(spec):
            message = f"'{name}' is {field_kind(spec)}, which cannot be searched"
            hint = "search takes string fields: plain, text, email or uri"
            yield resource.issue(("search", index), message, "M030", hint)


def _searchable(spec: dict[str, Any]) -> bool:
    plain_string = field_type(spec) == "string" and spec.get("relation") is None
    return plain_string and spec.get("format") in _SEARCHABLE_FORMATS


def _sort_issues(resource: CheckedResource) -> Iterator[Issue]:
    sort = resource.spec.get("default_sort")
    if not isinstance(sort, str):
        return
    error, spec = resource.lookup(("default_sort",), sort.removeprefix("-"))
    if error:
        yield error
    elif field_type(spec) is not None and not is_sortable(spec):
        message = f"{shown(sort)} sorts by a field that is not sortable"
        hint = "set 'sortable: true' on the field, or sort by another one"
        yield resource.issue(("default_sort",), message, "M030", hint)


def _table_issues(resource: CheckedResource) -> Iterator[Issue]:
    if "table" in resource.spec:
        table = resource.spec["table"]
        problem = identifiers.table_problem(table) if isinstance(table, str) else None
        if problem:
            yield resource.issue(("table",), *problem_args(problem))
        return
    if not identifiers.PASCAL.fullmatch(resource.name):
        return
    table = naming.table_name(resource.name)
    problem = identifiers.table_problem(table)
    if problem:
        message = f"its default table: {problem[0]}"
        hint = "set 'table' to another name"
        yield resource.issue((), message, "M023", hint, key=True)


def _method_issues(resource: CheckedResource) -> Iterator[Issue]:
    for index, name in _strings(resource.spec.get("methods")):
        problem = identifiers.method_problem(name)
        if problem:
            yield resource.issue(("methods", index), *problem_args(problem))


def _tag_issues(resource: CheckedResource) -> Iterator[Issue]:
    tags = resource.spec.get("query_tags")
    for uri, tag in (tags if isinstance(tags, dict) else {}).items():
        problem = identifiers.tag_problem(uri)
        if problem:
            yield resource.issue(("query_tags", uri), *problem_args(problem), key=True)
        conditions = tag.get("filter") if isinstance(tag, dict) else None
        for name, value in (conditions if isinstance(conditions, dict) else {}).items():
            yield from filter_issues(
                resource, ("query_tags", uri, "filter", name), value
            )


def filter_issues(
    resource: CheckedResource, where: tuple[Any, ...], value: Any
) -> Iterator[Issue]:
    """The problems of one exact filter value (a query tag's, a metric's)."""
    name = str(where[-1])
    error, spec = resource.lookup(where, name, key=True)
    if error:
        yield error
        return
    ftype = field_type(spec)
    if ftype is None or value is INVALID:
        return
    if not is_filterable(spec):
        yield resource.issue(where, f"'{name}' is not filterable", "M030", key=True)
        return
    # Checked as if the value were the field's, but placed where it is written.
    path = (*resource.path, *where)
    required = name in resource.required
    context = FieldContext(
        resource.document, path, spec, ftype, required, resource.key_types
    )
    problem = value_problem(context, (), value, "M031", null=not required)
    if problem:
        yield resource.issue(where, *problem)


_RESOURCE_RULES = (
    _key_issues,
    _field_name_issues,
    _field_rule_issues,
    _renamed_issues,
    _required_issues,
    _search_issues,
    _field_list_issues,
    _sort_issues,
    _table_issues,
    _method_issues,
    _tag_issues,
)
