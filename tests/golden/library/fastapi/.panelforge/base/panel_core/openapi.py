"""The OpenAPI document of the panel's JSON API, built from the resource declarations.

The running project (``python -m app oag:generate``) and panelforge, at generation time,
run this same builder, so the committed spec and the served API cannot drift. Output is
deterministic: keys in a fixed order, resources in the order given.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from . import openapi_schemas as schemas
from .openapi_actions import action_paths
from .openapi_dashboard import DASHBOARD_TAG, dashboard_paths, dashboard_schemas
from .openapi_paths import (
    CSRF_HEADER,
    ITEM_PARAMETER,
    JSON_ONLY,
    MASS_DELETE_LIMIT,
    SECURITY_SCHEME,
    SESSION_COOKIE,
    SESSION_SCHEME,
    ResourceContext,
    by_status,
    content,
    header,
    operation_id,
    reply,
    resource_paths,
    with_login,
)
from .openapi_uploads import with_uploads
from .resource import DeclarationError, Resource
from .routes import DEFAULT_PREFIX
from .yaml_text import to_yaml

__all__ = [
    "AUTH_TAG",
    "ITEM_PARAMETER",
    "MASS_DELETE_LIMIT",
    "SECURITY_SCHEME",
    "SESSION_SCHEME",
    "build_openapi",
    "dump_json",
    "dump_yaml",
    "operation_id",
    "write_spec",
]

Doc = dict[str, Any]
AUTH_TAG = "Authentication"
# The body of a 403 for what the user's role may not do (and of a CSRF refusal).
UNAUTHORIZED = {"message": "This action is unauthorized."}
CSRF_MISMATCH = {"message": "CSRF token mismatch."}


def _forbidden(*, jwt: bool) -> Doc:
    """The 403 every resource operation may answer: the role refuses it, or (with
    session logins) a request changing data came without the CSRF token."""
    text = "This action is unauthorized: the user's role does not allow it."
    media: Doc = {"schema": schemas.ref("Message"), "example": dict(UNAUTHORIZED)}
    if not jwt:
        text += (
            " Also when a request that changes data lacks the X-CSRF-Token header "
            "or it does not match the session's."
        )
        media = {
            "schema": schemas.ref("Message"),
            "examples": {
                "unauthorized": {"value": dict(UNAUTHORIZED)},
                "csrfTokenMismatch": {"value": dict(CSRF_MISMATCH)},
            },
        }
    return {"description": text, "content": {"application/json": media}}


def _shared_responses(*, jwt: bool) -> Doc:
    unauthorized = reply("Not logged in.", "Message")
    if jwt:
        unauthorized = reply(
            "The bearer token is missing, invalid or expired.",
            "Message",
            **{"WWW-Authenticate": header("`Bearer`.", "string")},
        )
    responses = {
        "Unauthorized": unauthorized,
        "Forbidden": _forbidden(jwt=jwt),
        "NotFound": reply("No record has this key.", "Message"),
        "NotAcceptable": reply(
            "The `Accept` header accepts neither JSON nor HTML.", "Message"
        ),
        "Conflict": reply(
            "Other records still refer to it. When a delete rule (`on_delete: "
            "restrict`) refuses a delete, `references` lists what refers, by "
            "resource (URI key), label and count; nothing was deleted.",
            "ConflictError",
        ),
        "PreconditionFailed": reply(
            "The record changed since it was loaded: `If-Match` does not hold its "
            "`ETag`. Nothing was changed; load the record again.",
            "Message",
        ),
        "PreconditionRequired": reply(
            "The server requires `If-Match` (REQUIRE_IF_MATCH) and the request has "
            "none.",
            "Message",
        ),
        "PayloadTooLarge": reply("The body is over the size limit.", "Message"),
        "UnsupportedMediaType": reply("The body is not JSON.", "Message"),
        "ValidationFailed": reply(
            "The input breaks the rules; `errors` lists them by name.",
            "ValidationError",
        ),
    }
    responses["TooManyRequests"] = reply(
        "Too many failed logins; retry later.",
        "Message",
        **{"Retry-After": header("Seconds to wait.", "integer")},
    )
    return responses


def _authenticate_path(*, jwt: bool) -> Doc:
    no_store = header("`no-store`: keep the token out of caches.", "string")
    if jwt:
        then = "Then send `Authorization: Bearer <token>`."
        token = reply(
            "Logged in.", "AuthenticateResponse", **{"Cache-Control": no_store}
        )
    else:
        then = (
            f"The answer sets the session cookie (`{SESSION_COOKIE}`); send it with "
            f"every request, and `csrf_token` in the `{CSRF_HEADER}` header of those "
            "that change data."
        )
        cookie = header(f"The session cookie, `{SESSION_COOKIE}=…`.", "string")
        token = reply(
            "Logged in.",
            "SessionAuthenticateResponse",
            **{"Cache-Control": no_store, "Set-Cookie": cookie},
        )
    login = {
        "tags": [AUTH_TAG],
        "summary": "Log in",
        "description": f"{JSON_ONLY} {then}",
        "operationId": "authenticate",
        "security": [],
        "requestBody": {"required": True, "content": content("AuthenticateRequest")},
        "responses": by_status({"200": token}, "406", "413", "415", "422", "429"),
    }
    return {"post": login}


def _logout_path(prefix: str, *, jwt: bool) -> Doc:
    if jwt:
        text = "Revokes the bearer token sent: it is refused from then on."
        errors: tuple[str, ...] = ("401",)
    else:
        text = "Ends the session: its cookie is refused from then on."
        errors = ("401", "403")
    logout = {
        "tags": [AUTH_TAG],
        "summary": "Log out",
        "description": text,
        "operationId": "logout",
        "responses": by_status({"200": reply("Logged out.", "Message")}, *errors),
    }
    return {"delete": with_login(logout, "delete", jwt=jwt, prefix=prefix)}


def _auth_paths(prefix: str, *, jwt: bool) -> Doc:
    return {
        f"{prefix}/authenticate": _authenticate_path(jwt=jwt),
        f"{prefix}/logout": _logout_path(prefix, jwt=jwt),
    }


def _security_schemes(prefix: str, *, jwt: bool) -> Doc:
    if jwt:
        bearer = {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}
        return {SECURITY_SCHEME: bearer}
    cookie = {
        "type": "apiKey",
        "in": "cookie",
        "name": SESSION_COOKIE,
        "description": (
            f"The session cookie `POST {prefix}/authenticate` sets (or the login page)."
        ),
    }
    return {SESSION_SCHEME: cookie}


def _info(title: str, version: str, *, jwt: bool, prefix: str) -> Doc:
    text = f"The JSON API of the panel. {JSON_ONLY}"
    if jwt:
        text += f" Log in with `POST {prefix}/authenticate` to get a bearer token."
    else:
        text += (
            f" Log in with `POST {prefix}/authenticate` (or at `{prefix}/login`): "
            "requests carry the session cookie, and those that change data the "
            f"`{CSRF_HEADER}` header with the session's token (the `csrf_token` of "
            "the login answer, or a panel page's `csrf-token` meta tag)."
        )
    return {"title": title, "description": text, "version": version}


def _require_unique(values: Iterable[str], what: str) -> None:
    twice = sorted(v for v, n in Counter(values).items() if n > 1)
    if twice:
        raise DeclarationError(f"OpenAPI {what} used twice: {', '.join(twice)}")


def _operation_ids(paths: Iterable[Doc]) -> Iterator[str]:
    for item in paths:
        for name, op in item.items():
            if name != "parameters":
                yield op["operationId"]


def _merge(groups: Iterable[Doc]) -> Doc:
    return {k: v for group in groups for k, v in group.items()}


def build_openapi(
    resources: Sequence[type[Resource]],
    *,
    title: str,
    version: str = "1.0.0",
    openapi_version: str = "3.1.0",
    jwt: bool = False,
    prefix: str = DEFAULT_PREFIX,
    max_per_page: int | None = None,
    max_ids: int = MASS_DELETE_LIMIT,
) -> Doc:
    """The OpenAPI document of the panel's JSON API over ``resources``.

    ``max_per_page`` and ``max_ids`` are the app's settings of the same names, so the
    spec states the limits the running app enforces.
    """
    v30 = openapi_version.startswith("3.0.")
    prefix = prefix.rstrip("/")
    tags = [AUTH_TAG, DASHBOARD_TAG]
    schema_groups = [
        schemas.shared_schemas(v30=v30, jwt=jwt),
        dashboard_schemas(v30=v30),
    ]
    path_groups = [_auth_paths(prefix, jwt=jwt), dashboard_paths(prefix, jwt=jwt)]
    keys = {resource.uri: resource.key_field for resource in resources}
    for resource in resources:
        model = schemas.model_name(resource)
        ctx = ResourceContext(
            resource, model, v30, jwt, max_per_page, max_ids, prefix=prefix
        )
        tags.append(resource.title)
        schema_groups.append(schemas.resource_schemas(resource, v30=v30, keys=keys))
        path_groups.append(with_uploads(ctx, prefix, resource_paths(ctx, prefix)))
        path_groups.append(action_paths(ctx, prefix))
    _require_unique(tags, "tag names (resource titles)")
    _require_unique((n for g in schema_groups for n in g), "schema names")
    _require_unique((p for g in path_groups for p in g), "paths (resource URI keys)")
    paths = _merge(path_groups)
    _require_unique(_operation_ids(paths.values()), "operationIds")
    components: Doc = {
        "schemas": _merge(schema_groups),
        "responses": _shared_responses(jwt=jwt),
        "securitySchemes": _security_schemes(prefix, jwt=jwt),
    }
    return {
        "openapi": openapi_version,
        "info": _info(title, version, jwt=jwt, prefix=prefix),
        "tags": [{"name": t} for t in tags],
        "paths": paths,
        "components": components,
    }


def dump_json(doc: Doc) -> str:
    """The document as JSON text: two-space indent, UTF-8 as is, trailing newline."""
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def dump_yaml(doc: Doc) -> str:
    """The document as block-style YAML, holding exactly the data of ``dump_json``."""
    return to_yaml(doc)


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        Path(temp).chmod(mode)
        Path(temp).replace(path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def write_spec(
    doc: Doc, yaml_path: str | os.PathLike[str], json_path: str | os.PathLike[str]
) -> None:
    """Write ``doc`` to both files, each replaced atomically (never half-written)."""
    texts = {Path(yaml_path): dump_yaml(doc), Path(json_path): dump_json(doc)}
    for path, text in texts.items():
        _write_atomically(path, text)
