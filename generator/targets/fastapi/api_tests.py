"""Context of the FastAPI project's emitted API tests: sample payloads and cases.

Every value the tests compare is a module constant of the emitted test file, so the
test bodies are fixed text and only the constants vary with the manifest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...model import ir
from ...model.samples import (
    distinct_samples,
    key_is_given,
    key_samples,
    missing_key,
)
from ...model.uploads import sample_uploads
from ..pysource import call, exploded, literal
from ..test_values import assignment, distinct_fields, sample, sampled_fields

_RESERVED_NAMES = {"client", "payload", "record", "response", "body"}


def _query_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _variable(resource: ir.Resource) -> str:
    name = resource.module
    return f"{name}_record" if name in _RESERVED_NAMES else name


@dataclass(frozen=True)
class Parent:
    """A related record a test creates first."""

    variable: str
    constant: str
    uri: str
    payload: str  # the constant's value, black-laid-out
    create: str  # the statement creating it


def _needs(target: ir.Resource, resource: ir.Resource, project: ir.Project) -> bool:
    """Whether a record of ``target`` needs one of ``resource`` first (its required
    relations, followed): then ``resource``'s own relation to it closes a cycle."""
    seen: set[str] = set()
    pending = [target]
    while pending:
        current = pending.pop()
        for field in current.fields:
            if field.relation and field.required and field.relation not in seen:
                if field.relation == resource.name:
                    return True
                seen.add(field.relation)
                pending.append(project.resource(field.relation))
    return False


def _linked(resource: ir.Resource, project: ir.Project, every: bool) -> list[ir.Field]:
    """The relations a valid payload fills: the required ones, or (``every``) each
    one but those to itself and those closing a cycle (left empty)."""
    return [
        field
        for field in resource.fields
        if field.relation
        and field.relation != resource.name
        and (
            field.required
            or every
            and not _needs(project.resource(field.relation), resource, project)
        )
    ]


def _parent_resources(resource: ir.Resource, project: ir.Project) -> list[ir.Resource]:
    """Targets of the relations (and their required ones), dependencies first."""
    order: list[ir.Resource] = []

    def visit(current: ir.Resource, every_relation: bool) -> None:
        for field in _linked(current, project, every_relation):
            target = project.resource(field.relation or "")
            if target not in order:
                visit(target, False)
                if target not in order and target is not resource:
                    order.append(target)

    visit(resource, True)
    return order


def _relation_items(
    resource: ir.Resource, project: ir.Project, every: bool
) -> list[str]:
    items = []
    for field in _linked(resource, project, every):
        target = project.resource(field.relation or "")
        items.append(
            f"{literal(field.name)}: {_variable(target)}[{literal(target.key)}]"
        )
    return items


def _payload_items(resource: ir.Resource) -> list[str]:
    items = [
        f"{literal(f.name)}: {literal(sample(f))}" for f in sampled_fields(resource)
    ]
    if key_is_given(resource) and (keys := key_samples(resource)):
        items.insert(0, f"{literal(resource.key)}: {literal(keys[0])}")
    return items


def parents_context(resource: ir.Resource, project: ir.Project) -> list[Parent]:
    """The records to create before a valid payload of ``resource`` can be sent."""
    parents = []
    for target in _parent_resources(resource, project):
        constant = target.module.upper() + "_PAYLOAD"
        relations = _relation_items(target, project, every=False)
        body = (
            "{**" + constant + ", " + ", ".join(relations) + "}"
            if relations
            else constant
        )
        statement = call(
            "create",
            ["client", literal(target.uri), body],
            indent=1,
            prefix=f"{_variable(target)} = ",
        )
        payload = exploded("{", _payload_items(target), "}", indent=0)
        parents.append(
            Parent(_variable(target), constant, target.uri, payload, statement)
        )
    return parents


Constants = list[tuple[str, Any]]


def _required_constants(resource: ir.Resource) -> Constants:
    given = key_is_given(resource)
    required = [
        f
        for f in resource.fields
        if (f.is_key and given)
        or f.required
        and not (f.has_default or f.is_key or resource.is_read_only(f))
    ]
    if not required:
        return []
    message = f"The {required[0].label} field is required."
    if len(required) > 1:
        others = len(required) - 1
        message += f" (and {others} more error{'s' if others > 1 else ''})"
    return [("REQUIRED", [f.name for f in required]), ("REQUIRED_MESSAGE", message)]


def _type_constants(resource: ir.Resource) -> Constants:
    sampled = sampled_fields(resource)
    constants: Constants = []
    if sampled:
        first = sampled[0]
        wrong = 12345 if isinstance(sample(first), str) else "12345"
        constants += [("WRONG_TYPE_FIELD", first.name), ("WRONG_TYPE_VALUE", wrong)]
    not_null = [f for f in sampled if not f.column_nullable]
    if not_null:
        constants.append(("NOT_NULL_FIELD", not_null[0].name))
    return constants


def _list_constants(resource: ir.Resource) -> Constants:
    """The fields the list tests filter and search on, fields whose values ``create``
    keeps as sent first; of a field it varies (unique), the first record's value."""
    distinct = distinct_fields(resource)
    varied = distinct_samples(resource)
    kept = sorted(distinct, key=lambda f: f.name in varied)
    filterable = [f for f in kept if f.filterable]
    searchable = [f for f in kept if f.name in resource.search]
    constants: Constants = []
    if distinct:
        field = distinct[0]
        constants += [("PATCH_FIELD", field.name), ("PATCH_VALUE", sample(field, 2))]
    if filterable:
        field = filterable[0]
        value = varied[field.name][0] if field.name in varied else sample(field)
        constants += [
            ("FILTER_FIELD", field.name),
            ("FILTER_TEXT", _query_text(value)),
            ("FILTER_VALUE", value),
            ("FILTER_OTHER", sample(field, 2)),
        ]
    if searchable:
        field = searchable[0]
        value = varied[field.name][0] if field.name in varied else sample(field)
        constants += [
            ("SEARCH_FIELD", field.name),
            ("SEARCH_TEXT", str(value).upper()),
            ("SEARCH_OTHER", sample(field, 2)),
        ]
    return constants


def _relation_field(resource: ir.Resource, project: ir.Project) -> ir.Field | None:
    """The relation the tests exercise: the first one the payload fills."""
    return next(iter(_linked(resource, project, True)), None)


def _relation_constants(resource: ir.Resource, project: ir.Project) -> Constants:
    field = _relation_field(resource, project)
    if field is None:
        return []
    target = project.resource(field.relation or "")
    return [
        ("RELATION_FIELD", field.name),
        ("RELATION_URL", f"/admin/resource/{target.uri}/crud"),
    ]


def _cases(
    constants: Constants, resource: ir.Resource, project: ir.Project
) -> dict[str, bool]:
    """Which optional tests the module has: those whose constants exist."""
    names = {name for name, _ in constants}
    cases = {"required": "REQUIRED" in names}
    for case in ("wrong_type", "not_null", "patch", "filter", "search", "relation"):
        cases[case] = f"{case.upper()}_FIELD" in names
    relation = _relation_field(resource, project)
    rule = relation.delete_rule if relation is not None else None
    cases["restricted_relation"] = rule == "restrict"
    cases["cascading_relation"] = rule == "cascade"
    target = project.resource(relation.relation or "") if relation else None
    cases["trashed_relation"] = target is not None and target.soft_delete
    cases["round_trip"] = _round_trips(resource)
    cases["soft_delete"] = resource.soft_delete
    cases["uploads"] = bool(sample_uploads(resource))
    return cases


def _round_trips(resource: ir.Resource) -> bool:
    """Whether a CSV export imports back as it was: nothing it cannot write back (a
    required password or file)."""
    return not any(
        (f.format == "password" or f.is_file)
        and f.required
        or (resource.is_read_only(f) and not f.is_key)
        for f in resource.fields
    )


def files_line(resource: ir.Resource) -> str | None:
    """The ``FILES`` a create uploads, where the resource requires a file."""
    files = sample_uploads(resource)
    if not files:
        return None
    return call("uploads", [literal(files)], indent=0, prefix="FILES = ")


def api_test_context(resource: ir.Resource, project: ir.Project) -> dict[str, Any]:
    """Context of ``tests/test_<module>_api.py``: sample payloads, cases to try."""
    constants: Constants = [
        ("URI", resource.uri),
        ("URL", f"/admin/resource/{resource.uri}/crud"),
        ("HANDLER", f"/admin/resource/{resource.uri}/handler"),
        ("FORM_PAGE", f"/admin/resource/{resource.uri}/form-page"),
        ("LABEL", resource.model_name),
        ("KEY", resource.key),
        ("MISSING_KEY", str(missing_key(resource))),
        ("HIDDEN", tuple(f.name for f in resource.fields if f.format == "password")),
    ]
    constants += _required_constants(resource) + _type_constants(resource)
    constants += _list_constants(resource) + _relation_constants(resource, project)
    items = _payload_items(resource) + _relation_items(resource, project, every=True)
    return {
        "resource_name": resource.name,
        "url": f"/admin/resource/{resource.uri}/crud",
        "constants": [assignment(name, value) for name, value in constants],
        "parents": parents_context(resource, project),
        "payload": exploded("{", items, "}", indent=1),
        "files": files_line(resource),
        "tags": [
            call(
                "", [literal(tag.uri), literal(dict(tag.filter))], indent=2, suffix=","
            )
            for tag in resource.query_tags
        ],
        "has": _cases(constants, resource, project),
    }
