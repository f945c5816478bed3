"""The intermediate model as plain JSON data, and back: what the state file records.

A field's ``default`` key is present only when the manifest gave one (``null`` is a
legitimate default); tuples become lists. The round trip is the identity.
"""

from __future__ import annotations

from dataclasses import asdict, fields
from decimal import Decimal
from typing import Any

from . import ir


def project_to_data(project: ir.Project) -> dict[str, Any]:
    """``project`` as JSON-serialisable data, keys in a stable order."""
    return {
        "name": project.name,
        "title": project.title,
        "framework": project.framework,
        "manifest_name": project.manifest_name,
        "database": project.database,
        "jwt_issuer": project.jwt_issuer,
        "django_model_style": project.django_model_style,
        "auth": asdict(project.auth),
        "docs": asdict(project.docs),
        "resources": [_resource_to_data(r) for r in project.resources],
        "roles": [
            {"name": r.name, "grants": [[w, list(a)] for w, a in r.grants]}
            for r in project.roles
        ],
    }


def project_from_data(data: dict[str, Any]) -> ir.Project:
    """The project recorded by :func:`project_to_data`."""
    return ir.Project(
        name=data["name"],
        title=data["title"],
        framework=data["framework"],
        manifest_name=data["manifest_name"],
        # Recorded before identity was: the values the recorded name gave.
        database=data.get("database", f"{data['name']}.db"),
        jwt_issuer=data.get("jwt_issuer", data["name"]),
        # Recorded before Django's model style was: "+" on every key, no blank.
        django_model_style=data.get("django_model_style", 1),
        auth=ir.Auth(**data["auth"]),
        docs=ir.Docs(**data["docs"]),
        resources=tuple(_resource_from_data(r) for r in data["resources"]),
        # Recorded before roles were: none.
        roles=tuple(
            ir.Role(r["name"], tuple((w, tuple(a)) for w, a in r["grants"]))
            for r in data.get("roles", ())
        ),
    )


def _resource_to_data(resource: ir.Resource) -> dict[str, Any]:
    data: dict[str, Any] = {
        f.name: _plain(getattr(resource, f.name)) for f in fields(resource)
    }
    data["fields"] = [_field_to_data(f) for f in resource.fields]
    if not resource.unique_together:  # recorded only when declared
        del data["unique_together"]
    del data["has_many"]
    if resource.has_many:  # recorded only when declared
        data["has_many"] = [asdict(h) for h in resource.has_many]
    del data["many_to_many"]
    if resource.many_to_many:  # recorded only when declared
        data["many_to_many"] = [asdict(m) for m in resource.many_to_many]
    # Recorded only when declared, too.
    del data["actions"]
    if resource.actions:
        data["actions"] = [_action_to_data(a) for a in resource.actions]
    if not resource.bulk_update:
        del data["bulk_update"]
    if not resource.key_parts:  # recorded only for a composite key
        del data["key_parts"]
    del data["metrics"]
    if resource.metrics:  # recorded only when declared
        data["metrics"] = [
            {**asdict(m), "filter": [list(p) for p in m.filter]}
            for m in resource.metrics
        ]
    if not resource.adopted:  # recorded only when adopted
        del data["adopted"], data["table_indexes"]
    else:
        data["table_indexes"] = [asdict(i) for i in resource.table_indexes]
    data["query_tags"] = [
        {"uri": t.uri, "label": t.label, "filter": [list(p) for p in t.filter]}
        for t in resource.query_tags
    ]
    return data


def _resource_from_data(data: dict[str, Any]) -> ir.Resource:
    values = dict(data)
    values["fields"] = tuple(_field_from_data(f) for f in data["fields"])
    values["query_tags"] = tuple(
        ir.QueryTag(t["uri"], t["label"], tuple(tuple(p) for p in t["filter"]))
        for t in data["query_tags"]
    )
    values["search"] = tuple(data["search"])
    values["methods"] = tuple(data["methods"])
    # Recorded before field lists were: none.
    values["index_fields"] = tuple(data.get("index_fields", ()))
    values["readonly_fields"] = tuple(data.get("readonly_fields", ()))
    values["unique_together"] = tuple(
        tuple(group) for group in data.get("unique_together", ())
    )
    values["has_many"] = tuple(ir.HasMany(**h) for h in data.get("has_many", ()))
    values["many_to_many"] = tuple(
        ir.ManyToMany(**m) for m in data.get("many_to_many", ())
    )
    values["actions"] = tuple(_action_from_data(a) for a in data.get("actions", ()))
    values["bulk_update"] = tuple(data.get("bulk_update", ()))
    values["key_parts"] = tuple(data.get("key_parts", ()))
    values["metrics"] = tuple(
        ir.Metric(**{**m, "filter": tuple(tuple(p) for p in m["filter"])})
        for m in data.get("metrics", ())
    )
    values["table_indexes"] = tuple(
        ir.TableIndex(i["name"], tuple(i["fields"]), i["unique"], i["constraint"])
        for i in data.get("table_indexes", ())
    )
    return ir.Resource(**values)


def _action_to_data(action: ir.Action) -> dict[str, Any]:
    return {
        "name": action.name,
        "label": action.label,
        "bulk": action.bulk,
        "confirm": action.confirm,
        "fields": [_field_to_data(f) for f in action.fields],
    }


def _action_from_data(data: dict[str, Any]) -> ir.Action:
    fields_ = tuple(_field_from_data(f) for f in data["fields"])
    return ir.Action(
        data["name"], data["label"], data["bulk"], data["confirm"], fields_
    )


def _field_to_data(field: ir.Field) -> dict[str, Any]:
    data = {
        f.name: _plain(getattr(field, f.name))
        for f in fields(field)
        if f.name != "default"
        and (f.name != "default_sql" or field.default_sql)
        and (f.name != "column" or field.column)
        and (f.name != "on_delete" or field.on_delete)
        and (f.name != "key_part" or field.key_part)
        and (f.name != "enum_labels" or field.enum_labels)
        and f.name != "stored"
        and (f.name not in _FILE_OPTIONS or getattr(field, f.name) is not None)
    }
    if field.stored is not None:  # recorded only for an adopted table's columns
        data["stored"] = asdict(field.stored)
    if field.has_default:
        data["default"] = field.default
    if field.is_decimal:  # exact values are recorded as their text
        for name in _DECIMAL_VALUES:
            if isinstance(data.get(name), Decimal):
                data[name] = str(data[name])
    return data


def _field_from_data(data: dict[str, Any]) -> ir.Field:
    values = dict(data)
    if values.get("enum") is not None:
        values["enum"] = tuple(values["enum"])
    values["renamed_values"] = tuple(tuple(p) for p in values.get("renamed_values", ()))
    values["enum_labels"] = tuple(tuple(p) for p in values.get("enum_labels", ()))
    if values.get("stored") is not None:
        values["stored"] = ir.Stored(**values["stored"])
    if values.get("relation") and "on_delete" not in values:
        values["on_delete"] = _rule_before_delete_rules(values)
    if values.get("accept") is not None:
        values["accept"] = tuple(values["accept"])
    if values.get("format") == "decimal":
        for name in _DECIMAL_VALUES:
            if isinstance(values.get(name), str):
                values[name] = Decimal(values[name])
    return ir.Field(**values)


_DECIMAL_VALUES = ("default", "minimum", "maximum")
_FILE_OPTIONS = ("accept", "max_bytes")  # recorded only when given


def _rule_before_delete_rules(values: dict[str, Any]) -> str:
    """The delete rule of a relation recorded before ``on_delete`` existed: its
    foreign key cleared an optional link and refused otherwise."""
    recorded = ir.Field(**{**values, "on_delete": "restrict"})
    return "set_null" if recorded.column_nullable else "restrict"


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value
