"""The dashboard in the OpenAPI document: ``GET <prefix>/dashboard`` and its schemas.

The same answer as the panel's home page (``panel_core.dashboard``): per resource the
user may list, its count (estimated past ``ESTIMATE_CAP``), its latest records and its
metrics.
"""

from __future__ import annotations

from typing import Any

from .openapi_paths import JSON_ONLY, by_status, reply, with_login
from .openapi_schemas import ref, typed
from .query import ESTIMATE_CAP

Doc = dict[str, Any]
DASHBOARD_TAG = "Dashboard"
_SCHEMA = "PanelDashboard"


def _object(**properties: Doc) -> Doc:
    return {"type": "object", "required": list(properties), "properties": properties}


def dashboard_schemas(*, v30: bool) -> Doc:
    """The dashboard's component schemas."""
    string: Doc = {"type": "string"}
    nullable_string = typed("string", null=True, v30=v30)
    scalar = ["integer", "number", "string"]
    if v30:
        value: Doc = {"nullable": True, "anyOf": [{"type": t} for t in scalar]}
    else:
        value = {"type": [*scalar, "null"]}
    return {
        f"{_SCHEMA}Record": _object(
            key={"oneOf": [{"type": "integer"}, string]},
            label=string,
            url=nullable_string,
        ),
        f"{_SCHEMA}Metric": _object(
            name=string,
            label=string,
            aggregate={"type": "string", "enum": ["count", "sum", "avg"]},
            field=nullable_string,
            value=value,
            display=string,
        ),
        f"{_SCHEMA}Resource": _object(
            name=string,
            uri=string,
            title=string,
            label=string,
            count={"type": "integer", "minimum": 0},
            count_is_estimate={"type": "boolean"},
            list_url=string,
            create_url=nullable_string,
            latest={"type": "array", "items": ref(f"{_SCHEMA}Record")},
            metrics={"type": "array", "items": ref(f"{_SCHEMA}Metric")},
        ),
        _SCHEMA: _object(
            resources={"type": "array", "items": ref(f"{_SCHEMA}Resource")}
        ),
    }


def dashboard_paths(prefix: str, *, jwt: bool) -> Doc:
    """``GET <prefix>/dashboard``."""
    op: Doc = {
        "tags": [DASHBOARD_TAG],
        "summary": "Dashboard",
        "description": (
            "Per resource the user may list: how many records it has (exact up to "
            f"{ESTIMATE_CAP:,}, estimated past that: `count_is_estimate`), its latest "
            "records (newest first; `url` is null without the view ability), "
            "`create_url` when the user may create, and the resource's metrics "
            "(a decimal's value is exact text; an average of nothing is null). "
            f"Trashed records are left out, the user's scope applies. {JSON_ONLY}"
        ),
        "operationId": "dashboard",
        "responses": by_status({"200": reply("The dashboard.", _SCHEMA)}, "401", "406"),
    }
    return {
        f"{prefix}/dashboard": {"get": with_login(op, "get", jwt=jwt, prefix=prefix)}
    }
