"""Paths and operations of one resource's JSON CRUD API, for the OpenAPI document.

Each operation is a small function; the responses every operation shares live in
``components.responses`` and are referenced by status code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from . import openapi_schemas as schemas
from .composite_keys import key_pattern
from .fields import BelongsTo
from .filters import CONTAINS, FROM, STARTS_WITH, TO, operators, parameter
from .query import ESTIMATE_CAP, MAX_CURSOR_LENGTH, MAX_PAGE, TOTAL_MODES
from .resource import Resource
from .routes import DEFAULT_PREFIX

SECURITY_SCHEME = "bearerAuth"
# Session logins: the session cookie, and the header carrying the session's CSRF token
# on every request that changes data.
SESSION_SCHEME = "sessionCookie"
SESSION_COOKIE = "panel_session"
CSRF_HEADER = "X-CSRF-Token"
_CSRF = (
    "The session's CSRF token: the `csrf_token` of `POST {prefix}/authenticate` (or "
    "a panel page's `csrf-token` meta tag). Without it, or with another, a request "
    "that changes data is refused with 403."
)
# The methods that change data, and need the CSRF token with session logins.
_UNSAFE = frozenset({"post", "put", "patch", "delete"})
ITEM_PARAMETER = "resourceItem"
MASS_DELETE_LIMIT = 500  # ids[] per mass delete by default (max_mass_delete setting)

JSON_ONLY = (
    "The answer is JSON for `Accept: application/json`, `*/*` or no `Accept`: "
    "unless the client prefers `text/html` (q-values), which gets the panel's "
    "pages; a client accepting neither gets 406 before anything is done."
)
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_ERRORS = {
    "401": "Unauthorized",
    "403": "Forbidden",
    "404": "NotFound",
    "406": "NotAcceptable",
    "409": "Conflict",
    "412": "PreconditionFailed",
    "413": "PayloadTooLarge",
    "415": "UnsupportedMediaType",
    "422": "ValidationFailed",
    "428": "PreconditionRequired",
    "429": "TooManyRequests",
}

_TOTAL = (
    "How to count the matching records: `exact` (COUNT), `estimate` (exact up to "
    f"{ESTIMATE_CAP:,}; past that the table's estimated size, or {ESTIMATE_CAP + 1:,} "
    "when filtered), or `none` (`total`, `last_page` and `last_page_url` are null). "
    "By default `exact`, and `none` with `cursor` (which takes no other)."
)
_CURSOR = (
    "Keyset paging: empty for the first page, then a `next_cursor` or `prev_cursor` "
    "as answered; the body is then a cursor paginator and nothing is counted. Not "
    "with `page`, nor with a sort on a field that can be null or on a relation."
)

# What every operation that reads a body can answer besides success; 403: the user's
# role may not (and, with session logins, a write without the CSRF token).
_BODY_ERRORS = ("401", "403", "406", "413", "415", "422")
# What a change of one record can answer about its version (``If-Match``).
_VERSION_ERRORS = ("412", "428")
_IF_MATCH = (
    "The record's `ETag`, as loaded: the change is refused with 412 if the record "
    "changed since (optimistic concurrency; `*`: any version). Required (else 428) "
    "when the server's REQUIRE_IF_MATCH setting is on."
)
_ETAG = "The record's version: send it back in `If-Match` to change the record."

Doc = dict[str, Any]


def _words(name: str) -> list[str]:
    parts: list[str] = []
    for chunk in re.split(r"[_\-\s]+", name):
        parts += [p.lower() for p in _CAMEL_BOUNDARY.split(chunk) if p]
    return parts


def operation_id(uri: str, route: str) -> str:
    """``("book-resource", "crud.massDelete")`` → ``bookResourceCrudMassDelete``."""
    head = "".join(w.capitalize() for w in _words(uri))
    tail = "".join(w.capitalize() for w in _words(route.replace(".", "_")))
    return head[:1].lower() + head[1:] + tail


@dataclass(frozen=True)
class ResourceContext:
    """One resource being documented, and the document-wide settings."""

    resource: type[Resource]
    model: str
    v30: bool
    jwt: bool
    max_per_page: int | None = None  # the app-wide cap, if lower than the resource's
    max_ids: int = MASS_DELETE_LIMIT
    prefix: str = DEFAULT_PREFIX  # where the panel is mounted


def content(schema_name: str) -> Doc:
    """A JSON body holding the component schema ``schema_name``."""
    return {"application/json": {"schema": schemas.ref(schema_name)}}


def header(description: str, type_: str) -> Doc:
    """A response header the server always sends."""
    return {"description": description, "required": True, "schema": {"type": type_}}


def reply(description: str, schema_name: str, **headers: Doc) -> Doc:
    """A response object with a JSON body and optional headers."""
    found: Doc = {"description": description}
    if headers:
        found["headers"] = headers
    found["content"] = content(schema_name)
    return found


def by_status(success: Doc, *errors: str) -> Doc:
    """Responses by status code: the given ones plus references to shared errors."""
    refs = {c: {"$ref": f"#/components/responses/{_ERRORS[c]}"} for c in errors}
    return dict(sorted({**success, **refs}.items()))


def csrf_parameter(prefix: str = DEFAULT_PREFIX) -> Doc:
    """The ``X-CSRF-Token`` header a session's request that changes data sends."""
    return {
        "name": CSRF_HEADER,
        "in": "header",
        "required": True,
        "description": _CSRF.format(prefix=prefix),
        "schema": {"type": "string", "minLength": 1},
    }


def security(*, jwt: bool) -> list[Doc]:
    """The security requirement of an operation that needs a login."""
    return [{SECURITY_SCHEME if jwt else SESSION_SCHEME: []}]


def with_login(op: Doc, method: str, *, jwt: bool, prefix: str = DEFAULT_PREFIX) -> Doc:
    """``op`` requiring a login; with sessions, a change also sends the CSRF token."""
    op["security"] = security(jwt=jwt)
    if not jwt and method in _UNSAFE:
        op["parameters"] = [*op.get("parameters", ()), csrf_parameter(prefix)]
    return op


def _operation(
    ctx: ResourceContext, method: str, route: str, summary: str, **parts: Any
) -> Doc:
    op: Doc = {
        "tags": [ctx.resource.title],
        "summary": f"{ctx.resource.title}: {summary}",
        "description": JSON_ONLY,
        "operationId": operation_id(ctx.resource.uri, route),
    }
    op.update((k, v) for k, v in parts.items() if v)
    return with_login(op, method, jwt=ctx.jwt, prefix=ctx.prefix)


def _body(schema_name: str) -> Doc:
    # JSON only: the server also reads the urlencoded forms of its pages, which API
    # clients have no use for (and some client generators cannot tell apart).
    return {"required": True, "content": content(schema_name)}


def _query(name: str, description: str, schema: Doc, **extra: Any) -> Doc:
    found = {"name": name, "in": "query", "description": description, **extra}
    found["schema"] = schema
    return found


def _paging_parameters(ctx: ResourceContext) -> list[Doc]:
    # No default: a client that sends defaults must still be able to use a cursor.
    page = {"type": "integer", "minimum": 1, "maximum": MAX_PAGE}
    cap = ctx.resource.max_per_page
    per_page = {
        "type": "integer",
        "minimum": 1,
        "maximum": min(cap, ctx.max_per_page or cap),
        "default": ctx.resource.per_page,
    }
    return [
        _query("page", "Page number (not with `cursor`); the first by default.", page),
        _query("per_page", "Records per page.", per_page),
    ]


def _big_table_parameters() -> list[Doc]:
    # No default: `exact` without a cursor, `none` with one (the only mode it takes).
    total = {"type": "string", "enum": list(TOTAL_MODES)}
    cursor = {"type": "string", "maxLength": MAX_CURSOR_LENGTH}
    return [_query("total", _TOTAL, total), _query("cursor", _CURSOR, cursor)]


def _sort_parameters(resource: type[Resource]) -> list[Doc]:
    names = resource.sortable_fields
    if not names:
        return []
    one = "-?(?:" + "|".join(re.escape(n) for n in names) + ")"
    schema = {
        "type": "string",
        "pattern": f"^{one}(?:,{one})*$",
        "default": resource.default_sort,
    }
    text = "Comma-separated fields; a leading `-` sorts descending. Sortable: "
    text += ", ".join(names) + "."
    relations = [n for n in names if isinstance(resource.field_map[n], BelongsTo)]
    if relations:
        text += " A relation sorts by the related record's name (its resource's "
        text += "`display` fields), then its key."
    return [_query("sort", text, schema)]


# What each operator of ``filter[<field>][<operator>]`` keeps (``panel_core.filters``).
_OPERATOR_TEXT = {
    FROM: "Only records whose {label} is at least this value (inclusive).",
    TO: "Only records whose {label} is at most this value (inclusive).",
    CONTAINS: (
        "Only records whose {label} contains this text, in any case (`%` and `_` "
        "are themselves)."
    ),
    STARTS_WITH: (
        "Only records whose {label} starts with this text, in any case (`%` and "
        "`_` are themselves)."
    ),
}


def _filter_parameters(ctx: ResourceContext) -> list[Doc]:
    """Per filterable field, ``filter[<field>]`` and one parameter per operator it
    takes (``filter[<field>][from]``…): explicit names every client can send (a
    deepObject is not), each typed as the field's values, or as text to look for."""
    fields = ctx.resource.field_map
    found = []
    for name in ctx.resource.filterable_fields:
        field = fields[name]
        schema = schemas.value_schema(field, v30=ctx.v30, constrained=False)
        text = f"Only records whose {field.label} is this value (422 if it "
        text += "cannot be one)."
        found.append(_query(parameter(name), text, schema))
        for operator in operators(field):
            text = _OPERATOR_TEXT[operator].format(label=field.label)
            if operator in (FROM, TO):
                found.append(_query(parameter(name, operator), text, schema))
            else:
                typed = {"type": "string", "minLength": 1}
                found.append(_query(parameter(name, operator), text, typed))
    for link in ctx.resource.many_to_many:
        schema = schemas.value_schema(link.item_field, v30=ctx.v30, constrained=False)
        text = f"Only records linked to this record of {link.label} (422 if it "
        text += "cannot be a key)."
        found.append(_query(parameter(link.name), text, schema))
    return found


def _search_parameters(resource: type[Resource]) -> list[Doc]:
    found = []
    if resource.search:
        text = f"Text to look for in {', '.join(resource.search)}."
        found.append(_query("search", text, {"type": "string"}))
    if resource.query_tags:
        labels = "; ".join(f"`{t.uri}`: {t.label}" for t in resource.query_tags)
        enum = [t.uri for t in resource.query_tags]
        schema = {"type": "string", "enum": enum}
        found.append(_query("query-tag", f"A preset filter. {labels}.", schema))
    return found


def _if_match_parameter() -> Doc:
    return {
        "name": "If-Match",
        "in": "header",
        "required": False,
        "description": _IF_MATCH,
        "schema": {"type": "string"},
    }


def _key_schema(ctx: ResourceContext) -> Doc:
    if ctx.resource.key_parts:  # one text naming every part (composite_keys)
        return {"type": "string", "pattern": key_pattern(len(ctx.resource.key_parts))}
    return schemas.value_schema(ctx.resource.key_field, v30=ctx.v30)


def key_description(resource: type[Resource]) -> str:
    """The record URL's key parameter, said in words (a composite key's encoding)."""
    if not resource.key_parts:
        return f"{resource.key_field.label} of the record."
    labels = " and ".join(f.label for f in resource.key_fields)
    return (
        f"The record's key: its {labels}, each percent-encoded and joined with a "
        "comma in that order (`3,17`; a comma in a part is `%2C`). A key with the "
        "wrong number of parts, or a part that is not a value of its field, is not "
        "found (404)."
    )


def _list_operation(ctx: ResourceContext) -> Doc:
    parameters = [
        *_paging_parameters(ctx),
        *_sort_parameters(ctx.resource),
        *_filter_parameters(ctx),
        *_search_parameters(ctx.resource),
        *_big_table_parameters(),
    ]
    pages = [f"{ctx.model}Paginator", f"{ctx.model}CursorPaginator"]
    page = {
        "description": "One page of records (a cursor paginator with `cursor`).",
        "content": {
            "application/json": {"schema": {"oneOf": [schemas.ref(n) for n in pages]}}
        },
    }
    responses = by_status({"200": page}, "401", "403", "406", "422")
    return _operation(
        ctx, "get", "crud.index", "list", parameters=parameters, responses=responses
    )


# What a client can do next with the record a create answered (OpenAPI links): the
# item operations, each naming the record by the key in the answer's ``data``.
_NEXT = {
    "show": ("crud.show", "The new record."),
    "update": ("crud.update", "Update the new record."),
    "patch": ("crud.patch", "Update some fields of the new record."),
    "delete": ("crud.destroy", "Delete the new record."),
}


def created_links(ctx: ResourceContext) -> Doc:
    """The links of a create's 201: show, update, patch, delete the new record."""
    key = f"$response.body#/data/{ctx.resource.key_name()}"
    return {
        name: {
            "operationId": operation_id(ctx.resource.uri, route),
            "parameters": {ITEM_PARAMETER: key},
            "description": text,
        }
        for name, (route, text) in _NEXT.items()
    }


def _store_operation(ctx: ResourceContext) -> Doc:
    location = header("Absolute URL of the new record (as the list's links).", "string")
    created = reply(
        "Created.",
        f"{ctx.model}SaveResponse",
        Location=location,
        ETag=header(_ETAG, "string"),
    )
    created["links"] = created_links(ctx)
    responses = by_status({"201": created}, *_BODY_ERRORS)
    body = _body(f"{ctx.model}Create")
    return _operation(
        ctx, "post", "crud.store", "create", requestBody=body, responses=responses
    )


def _mass_delete_operation(ctx: ResourceContext) -> Doc:
    ids = {
        "type": "array",
        "minItems": 1,
        "maxItems": ctx.max_ids,
        "items": _key_schema(ctx),
    }
    text = (
        "Keys of the records to delete, in the query (`?ids[]=1&ids[]=2`) when the "
        "body does not list them."
    )
    param = _query("ids[]", text, ids, style="form", explode=True)
    body = {
        "required": False,
        "description": 'The keys as JSON, `{"ids": [1, 2]}`; else `ids[]`.',
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "required": ["ids"],
                    "properties": {"ids": ids},
                    "additionalProperties": False,
                }
            }
        },
    }
    deleted = reply("Deleted.", "MassDeleteResponse")
    responses = by_status({"200": deleted}, "409", *_BODY_ERRORS)
    return _operation(
        ctx,
        "delete",
        "crud.massDelete",
        "delete many",
        parameters=[param],
        requestBody=body,
        responses=responses,
    )


def _show_operation(ctx: ResourceContext) -> Doc:
    record = reply("The record.", ctx.model, ETag=header(_ETAG, "string"))
    parameters = _with_parameters(ctx.resource)
    errors = ("401", "403", "404", "406") + (("422",) if parameters else ())
    responses = by_status({"200": record}, *errors)
    return _operation(
        ctx, "get", "crud.show", "show", parameters=parameters, responses=responses
    )


def _with_parameters(resource: type[Resource]) -> list[Doc]:
    """``with``: the has-many fields whose children's keys the show answers."""
    names = [many.name for many in resource.has_many]
    if not names:
        return []
    description = (
        "The has-many fields to include, comma-separated: each holds the keys of "
        "the records that belong to this one. Any other name is refused (422)."
    )
    items = {"type": "string", "enum": names}
    schema = {"type": "array", "items": items}
    return [_query("with", description, schema, style="form", explode=False)]


def _update_operation(
    ctx: ResourceContext, method: str, route: str, summary: str
) -> Doc:
    saved = reply("Saved.", f"{ctx.model}SaveResponse", ETag=header(_ETAG, "string"))
    responses = by_status({"200": saved}, "404", *_VERSION_ERRORS, *_BODY_ERRORS)
    body = _body(f"{ctx.model}Update")
    return _operation(
        ctx,
        method,
        route,
        summary,
        parameters=[_if_match_parameter()],
        requestBody=body,
        responses=responses,
    )


def _destroy_operation(ctx: ResourceContext) -> Doc:
    deleted = reply("Deleted.", "DeleteResponse")
    errors = ("401", "403", "404", "406", "409", *_VERSION_ERRORS)
    responses = by_status({"200": deleted}, *errors)
    return _operation(
        ctx,
        "delete",
        "crud.destroy",
        "delete",
        parameters=[_if_match_parameter()],
        responses=responses,
    )


_TRASH_JSON = (
    "JSON for a client naming `application/json` (at least as high as `text/html`); "
    "any other client gets the trash page."
)


def _trash_operation(ctx: ResourceContext) -> Doc:
    op = _list_operation(ctx)
    op["summary"] = f"{ctx.resource.title}: list the trash"
    op["description"] = _TRASH_JSON
    op["operationId"] = operation_id(ctx.resource.uri, "crud.trash")
    op["responses"] = by_status(dict(op["responses"]), "404")
    return op


def _restore_operation(ctx: ResourceContext) -> Doc:
    record = reply("Restored: the record, back in the list.", ctx.model)
    responses = by_status({"200": record}, "401", "403", "404", "406")
    return _operation(
        ctx, "post", "crud.restore", "restore from the trash", responses=responses
    )


def _force_delete_operation(ctx: ResourceContext) -> Doc:
    deleted = reply("Deleted for good.", "DeleteResponse")
    responses = by_status({"200": deleted}, "401", "403", "404", "406", "409")
    return _operation(
        ctx, "delete", "crud.forceDelete", "delete for good", responses=responses
    )


def trash_paths(ctx: ResourceContext, prefix: str, key: Doc) -> Doc:
    """The trash of a resource with ``soft_delete``: its list, restore, force delete."""
    base = f"{prefix}/resource/{ctx.resource.uri}"
    item = f"{base}/crud/{{{ITEM_PARAMETER}}}"
    return {
        f"{base}/trash": {"get": _trash_operation(ctx)},
        f"{item}/restore": {"parameters": [key], "post": _restore_operation(ctx)},
        f"{item}/force": {"parameters": [key], "delete": _force_delete_operation(ctx)},
    }


def resource_paths(ctx: ResourceContext, prefix: str) -> Doc:
    """The collection and item paths of one resource, with all their operations."""
    base = f"{prefix}/resource/{ctx.resource.uri}/crud"
    key = {
        "name": ITEM_PARAMETER,
        "in": "path",
        "required": True,
        "description": key_description(ctx.resource),
        "schema": _key_schema(ctx),
    }
    trash = trash_paths(ctx, prefix, key) if ctx.resource.soft_delete else {}
    return {
        base: {
            "get": _list_operation(ctx),
            "post": _store_operation(ctx),
            "delete": _mass_delete_operation(ctx),
        },
        f"{base}/{{{ITEM_PARAMETER}}}": {
            "parameters": [key],
            "get": _show_operation(ctx),
            "put": _update_operation(ctx, "put", "crud.update", "update"),
            "patch": _update_operation(
                ctx, "patch", "crud.patch", "update some fields"
            ),
            "delete": _destroy_operation(ctx),
        },
        **trash,
    }


# The parts the actions' paths (``panel_core.openapi_actions``) are built from.
operation = _operation
query_parameter = _query
filter_parameters = _filter_parameters
list_parameters = _search_parameters
