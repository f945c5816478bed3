"""The spec of a resource's actions: one path per action, its input as the body.

``POST …/crud/actions/<name>`` takes the records in the query (``ids[]``, or
``all=true`` with the list's filters, search and query tag) and the action's fields
as a JSON object; it answers ``{"message": …, "count": N}``. Only resources with
actions (or ``bulk_update``) have these paths.
"""

from __future__ import annotations

from typing import Any

from . import openapi_schemas as schemas
from .openapi_paths import (
    ResourceContext,
    by_status,
    filter_parameters,
    list_parameters,
    operation,
    query_parameter,
)
from .record_actions import Action, input_class

Doc = dict[str, Any]
_ERRORS = ("401", "403", "404", "406", "409", "413", "415", "422")
_RESULT = {
    "type": "object",
    "required": ["message", "count"],
    "properties": {
        "message": {"type": "string"},
        "count": {"type": "integer", "minimum": 0},
    },
}
_MISSING = (
    "The hooks module defines no function for this action (a `bulk_update` action "
    "needs none)."
)


def _selection(ctx: ResourceContext) -> list[Doc]:
    ids = {
        "type": "array",
        "minItems": 1,
        "maxItems": ctx.max_ids,
        "items": schemas.value_schema(
            ctx.resource.key_field, v30=ctx.v30, constrained=False
        ),
    }
    text = "Keys of the records to run the action on (`?ids[]=1&ids[]=2`)."
    every = (
        "`true`: run it on every record matching the filters, search and query tag "
        "given with it (`ids[]` is then left out)."
    )
    return [
        query_parameter("ids[]", text, ids, style="form", explode=True),
        query_parameter("all", every, {"type": "boolean"}),
        *filter_parameters(ctx),
        *list_parameters(ctx.resource),
    ]


def _operation(ctx: ResourceContext, action: Action) -> Doc:
    form = input_class(ctx.resource, action)
    schema = schemas.write_schema(form, v30=ctx.v30, create=True)
    if action.sets:  # the field to set is always given, even as null
        schema["required"] = [action.sets]
    body = {
        "required": bool(schema.get("required")),
        "description": f"The input of {action.label}."
        + (f" It asks: {action.confirm}" if action.confirm else ""),
        "content": {"application/json": {"schema": schema}},
    }
    done = {
        "description": "Done, on every selected record (one transaction).",
        "content": {"application/json": {"schema": _RESULT}},
    }
    responses = by_status({"200": done}, *_ERRORS)
    if not action.sets:
        responses["501"] = {
            "description": _MISSING,
            "content": {"application/json": {"schema": schemas.ref("Message")}},
        }
    op = operation(
        ctx,
        "post",
        f"crud.action.{action.name}",
        action.label.lower(),
        parameters=_selection(ctx),
        requestBody=body,
        responses=responses,
    )
    return op


def action_paths(ctx: ResourceContext, prefix: str) -> Doc:
    """``…/crud/actions/<name>`` of each action of the resource."""
    base = f"{prefix}/resource/{ctx.resource.uri}/crud/actions"
    return {
        f"{base}/{action.name}": {"post": _operation(ctx, action)}
        for action in ctx.resource.all_actions
    }
