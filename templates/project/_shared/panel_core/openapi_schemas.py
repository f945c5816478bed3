"""JSON schemas of the panel's records, request bodies and shared replies, for the spec.

Every schema is built from the field declarations, so the spec states exactly what the
runtime checks: types, formats, limits, nullability and which fields may be written.
"""

from __future__ import annotations

import datetime as dt
import decimal
from collections.abc import Mapping
from typing import Any

from . import decimals
from .fields import Decimal, Field, File, Select, _StringField, json_type
from .openapi_files import file_value_schema, file_write_schema
from .query import INT64_MAX, INT64_MIN
from .resource import Resource
from .unique import listed_labels, taken_message

# The toast kinds a save or delete reply may carry (MoonShine's set).
MESSAGE_TYPES = (
    "default",
    "primary",
    "secondary",
    "success",
    "error",
    "warning",
    "info",
)
# Schema names the document uses for itself; no resource model may be called so.
RESERVED_NAMES = (
    "Message",
    "ValidationError",
    "ConflictError",
    "PaginationLink",
    "DeleteResponse",
    "MassDeleteResponse",
    "AuthenticateRequest",
    "AuthenticateResponse",
    "SessionAuthenticateResponse",
)

Schema = dict[str, Any]
# Every documented resource's key field, by URI key: what a has-many field lists.
KeyFields = Mapping[str, Field]


def ref(name: str) -> Schema:
    """A reference to the component schema ``name``."""
    return {"$ref": f"#/components/schemas/{name}"}


def typed(type_: str, *, null: bool, v30: bool) -> Schema:
    """``{"type": T}``, allowing null the way the OpenAPI version spells it."""
    if not null:
        return {"type": type_}
    if v30:
        return {"type": type_, "nullable": True}
    return {"type": [type_, "null"]}


def _format(field: Field) -> str | None:
    if isinstance(field, Select):
        return None
    return {"integer": "int64", "number": "double"}.get(
        field.json_type, field.json_format
    )


def _limits(field: Field, *, constrained: bool) -> Schema:
    found = field.constraints() if constrained else {}
    if isinstance(field, Select):
        found = {"enum": list(field.options)}
        if field.option_labels:  # what pages show for each value, in enum order
            found["x-enum-descriptions"] = [field.label_of(o) for o in field.options]
    elif json_type(field) == "integer":
        low, high = found.get("minimum", INT64_MIN), found.get("maximum", INT64_MAX)
        found = {"minimum": max(low, INT64_MIN), "maximum": min(high, INT64_MAX)}
    return found


def value_schema(
    field: Field, *, v30: bool, null: bool = False, constrained: bool = True
) -> Schema:
    """Type, format and (if ``constrained``) the declared limits of a field's values."""
    schema = typed(json_type(field), null=null, v30=v30)
    fmt = _format(field)
    if fmt:
        schema["format"] = fmt
    limits = _limits(field, constrained=constrained)
    if null and "enum" in limits:
        limits["enum"] = [*limits["enum"], None]
        if "x-enum-descriptions" in limits:  # aligned with enum, null shown as "—"
            limits["x-enum-descriptions"] = [*limits["x-enum-descriptions"], "—"]
    schema.update(limits)
    if isinstance(field, Decimal):
        schema["example"] = field.example
    return schema


def _json_value(value: Any) -> Any:
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return decimals.text(value)
    if isinstance(value, tuple | list):
        return [_json_value(v) for v in value]
    return value


def _has_json_default(field: Field) -> bool:
    scalars = (str, int, float, bool, type(None), list, tuple, dt.date, dt.time)
    scalars = (*scalars, decimal.Decimal)
    return field.has_default and isinstance(field.default, scalars)


def property_schema(field: Field, *, v30: bool, with_default: bool = False) -> Schema:
    """A field as an object property: value schema, default, title and description."""
    if isinstance(field, File):
        schema = file_value_schema(field, v30=v30, null=field.accepts_null)
    else:
        schema = value_schema(field, v30=v30, null=field.accepts_null)
    if with_default and _has_json_default(field):
        schema["default"] = _json_value(field.default)
    schema["title"] = field.label
    described = [field.description] if field.description else []
    if (filled := field.db_default) is not None:
        described.append(f"Left out on create, the database fills in {filled}.")
    if described:
        schema["description"] = " ".join(described)
    return schema


def read_only_names(resource: type[Resource]) -> frozenset[str]:
    """Fields no request sets: declared read-only, or named in ``readonly_fields``."""
    named = getattr(resource, "readonly_fields", ())
    return frozenset(f.name for f in resource.fields if f.read_only) | set(named)


def record_schema(
    resource: type[Resource], *, v30: bool, keys: KeyFields | None = None
) -> Schema:
    """A record as the API returns it: every readable field, always present, then
    its has-many fields, present only when asked (``children_schemas``).

    Fields no request sets say ``readOnly``.
    """
    read_only = read_only_names(resource)
    properties = {}
    for f in resource.readable_fields:
        properties[f.name] = property_schema(f, v30=v30)
        if f.name in read_only:
            properties[f.name]["readOnly"] = True
    properties.update(links_schemas(resource, v30=v30, write=False))
    required = list(properties)
    properties.update(children_schemas(resource, keys or {}, v30=v30))
    return {"type": "object", "required": required, "properties": properties}


def children_schemas(
    resource: type[Resource], keys: KeyFields, *, v30: bool
) -> dict[str, Schema]:
    """Each has-many field: the keys of the children, read-only, in key order.

    ``keys``: each resource's key field by URI key; a field whose child resource is
    not documented is left out. Create and update bodies never hold these fields,
    as they hold no other read-only one.
    """
    found: dict[str, Schema] = {}
    for many in resource.has_many:
        key = keys.get(many.resource)
        if key is None:
            continue
        described = [many.description] if many.description else []
        described.append(
            f"The keys of the {many.label.lower()}, in key order; in the answer of "
            f"a show only when asked with `with={many.name}`."
        )
        found[many.name] = {
            "type": "array",
            "items": value_schema(key, v30=v30, null=False),
            "readOnly": True,
            "title": many.label,
            "description": " ".join(described),
        }
    return found


def links_schemas(
    resource: type[Resource], *, v30: bool, write: bool
) -> dict[str, Schema]:
    """Each many-to-many field: the linked records' keys, in key order; written
    as a whole (the list replaces the links; a key given twice counts once)."""
    found: dict[str, Schema] = {}
    for link in resource.many_to_many:
        described = [link.description] if link.description else []
        if write:
            described.append(
                "Replaces the links: the keys of the records to link, each once "
                "(a key given twice counts once); a key of no live record is 422."
            )
        else:
            described.append("The keys of the linked records, in key order.")
        found[link.name] = {
            "type": "array",
            "items": value_schema(link.item_field, v30=v30, null=False),
            "title": link.label,
            "description": " ".join(described),
        }
    return found


def _not_blank(field: Field, schema: Schema) -> Schema:
    """A required text field's schema says it cannot be empty: blank (spaces only,
    once trimmed) is refused as "required"."""
    if field.required and isinstance(field, _StringField):
        schema["minLength"] = max(schema.get("minLength", 0), 1)
    return schema


def write_schema(resource: type[Resource], *, v30: bool, create: bool) -> Schema:
    """A create (or update) body: writable fields only (on create, a key the client
    gives too), closed to anything else. Required text is never empty."""
    read_only = read_only_names(resource)
    given = resource.creatable_fields if create else resource.writable_fields
    fields = [f for f in given if f.name not in read_only]
    schema: Schema = {"type": "object"}
    if resource.unique_together:
        schema["description"] = unique_description(resource)
    # A default fills in what the client leaves out, so such a field is optional.
    required = [f.name for f in fields if f.needed_on_create]
    if create and required:
        schema["required"] = required
    schema["properties"] = {
        f.name: (
            file_write_schema(f, v30=v30)
            if isinstance(f, File)
            else _not_blank(f, property_schema(f, v30=v30, with_default=create))
        )
        for f in fields
    }
    schema["properties"].update(links_schemas(resource, v30=v30, write=True))
    schema["additionalProperties"] = False
    return schema


def unique_description(resource: type[Resource]) -> str:
    """What the unique groups forbid, and the answer (NULLs never collide)."""
    return "\n".join(
        f"No two records have the same {listed_labels(resource, group)} (422 "
        f'"{taken_message(resource, group)}"); a null value never collides.'
        for group in resource.unique_together
    )


def _object(**properties: Schema) -> Schema:
    return {"type": "object", "required": list(properties), "properties": properties}


def _message_type() -> Schema:
    return {"type": "string", "enum": list(MESSAGE_TYPES)}


def save_response_schema(model: str) -> Schema:
    """What store and update answer: a toast, the record, and where to go next."""
    return {
        "type": "object",
        "required": ["message", "messageType", "redirect", "data"],
        "properties": {
            "message": {"type": "string"},
            "messageType": _message_type(),
            "redirect": {"type": "string"},
            "data": ref(model),
        },
    }


# What the paginators say of their URLs (panel_core.public_url).
ABSOLUTE_URLS = (
    "`path` and the page URLs (`*_page_url`, `links[].url`) are absolute: "
    "`scheme://host[:port]/…` as the client reached the server (with any prefix "
    "the panel is served under), with "
    "the request's query parameters. Behind a reverse proxy they follow its "
    "`X-Forwarded-Proto`, `X-Forwarded-Host` and `X-Forwarded-Prefix` when the "
    "server's TRUST_PROXY_HEADERS setting is on."
)


def paginator_schema(model: str, *, v30: bool) -> Schema:
    """One page of records, with the keys of Laravel's length-aware paginator.

    ``total``, ``last_page`` and ``last_page_url`` are null when not counted.
    """
    integer: Schema = {"type": "integer"}
    string: Schema = {"type": "string"}
    return _described(
        _object(
            current_page=integer,
            data={"type": "array", "items": ref(model)},
            first_page_url=string,
            **{"from": typed("integer", null=True, v30=v30)},
            last_page=typed("integer", null=True, v30=v30),
            last_page_url=typed("string", null=True, v30=v30),
            links={"type": "array", "items": ref("PaginationLink")},
            next_page_url=typed("string", null=True, v30=v30),
            path=string,
            per_page=integer,
            prev_page_url=typed("string", null=True, v30=v30),
            to=typed("integer", null=True, v30=v30),
            total=typed("integer", null=True, v30=v30),
        )
    )


def _described(schema: Schema) -> Schema:
    return {"description": ABSOLUTE_URLS, **schema}


def cursor_paginator_schema(model: str, *, v30: bool) -> Schema:
    """One keyset page, with the keys of Laravel's cursor paginator."""
    return _described(
        _object(
            data={"type": "array", "items": ref(model)},
            path={"type": "string"},
            per_page={"type": "integer"},
            next_cursor=typed("string", null=True, v30=v30),
            next_page_url=typed("string", null=True, v30=v30),
            prev_cursor=typed("string", null=True, v30=v30),
            prev_page_url=typed("string", null=True, v30=v30),
        )
    )


def shared_schemas(*, v30: bool, jwt: bool) -> dict[str, Schema]:
    """Component schemas that do not depend on any resource."""
    string: Schema = {"type": "string"}
    schemas = {
        "Message": _object(message=string),
        "ValidationError": _object(
            message=string,
            errors={
                "type": "object",
                "additionalProperties": {"type": "array", "items": string},
            },
        ),
        "ConflictError": {
            "type": "object",
            "required": ["message"],
            "properties": {
                "message": string,
                "references": {
                    "type": "array",
                    "items": _object(
                        resource=string,
                        label=string,
                        count={"type": "integer", "minimum": 1},
                    ),
                },
            },
        },
        "PaginationLink": _object(
            url=typed("string", null=True, v30=v30),
            label=string,
            active={"type": "boolean"},
        ),
        "DeleteResponse": _object(message=string, messageType=_message_type()),
        "MassDeleteResponse": _object(
            message=string,
            messageType=_message_type(),
            deleted={"type": "integer", "minimum": 0},
        ),
    }
    schemas["AuthenticateRequest"] = _object(
        username={"type": "string", "minLength": 1},
        password={"type": "string", "format": "password", "minLength": 1},
    )
    if not jwt:
        schemas["SessionAuthenticateResponse"] = _object(
            message=string, csrf_token=string
        )
    else:
        schemas["AuthenticateResponse"] = _object(
            token=string,
            token_type=string,
            expires_in={"type": "integer", "minimum": 1},
        )
    return schemas


def model_name(resource: type[Resource]) -> str:
    """Records' schema name: the model class's, else ``BookResource`` → ``Book``."""
    if resource.model is not None:
        return str(resource.model.__name__)
    return resource.__name__.removesuffix("Resource") or resource.__name__


def resource_schemas(
    resource: type[Resource], *, v30: bool, keys: KeyFields | None = None
) -> dict[str, Schema]:
    """The component schemas of one resource, by name (``keys``: every resource's
    key field by URI key, for its has-many fields)."""
    model = model_name(resource)
    return {
        model: record_schema(resource, v30=v30, keys=keys),
        f"{model}Create": write_schema(resource, v30=v30, create=True),
        f"{model}Update": write_schema(resource, v30=v30, create=False),
        f"{model}Paginator": paginator_schema(model, v30=v30),
        f"{model}CursorPaginator": cursor_paginator_schema(model, v30=v30),
        f"{model}SaveResponse": save_response_schema(model),
    }
