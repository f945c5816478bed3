"""The paths of file and image fields: multipart create and update, the download.

A resource with file fields takes a ``multipart/form-data`` body beside JSON on its
create and update (``panel_core.openapi_files.multipart_schema``), and has the
download route ``…/resource/{uri}/files/{fieldName}/{fileId}``: logged-in users who
may view the resource get the stored content.
"""

from __future__ import annotations

from typing import Any

from .fields import file_fields
from .openapi_files import MULTIPART, multipart_schema
from .openapi_paths import ResourceContext, by_status, operation
from .openapi_schemas import write_schema

Doc = dict[str, Any]
_FILE_ID = "^[0-9a-f]{32}-[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"


def with_uploads(ctx: ResourceContext, prefix: str, paths: Doc) -> Doc:
    """``paths`` of a resource, its writes taking multipart forms and its download
    route added when it has file fields."""
    resource = ctx.resource
    if not file_fields(resource.readable_fields):
        return paths
    base = f"{prefix}/resource/{resource.uri}/crud"
    item = f"{base}/{{resourceItem}}"
    _add_form(paths[base]["post"], ctx, create=True)
    for method in ("put", "patch"):
        _add_form(paths[item][method], ctx, create=False)
    return {**paths, **_download(ctx, prefix)}


def _add_form(op: Doc, ctx: ResourceContext, *, create: bool) -> None:
    json_schema = write_schema(ctx.resource, v30=ctx.v30, create=create)
    form = {"schema": multipart_schema(ctx.resource, json_schema, create=create)}
    body = op["requestBody"]
    op["requestBody"] = {**body, "content": {**body["content"], MULTIPART: form}}


def _path_parameter(name: str, description: str, schema: Doc) -> Doc:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": description,
        "schema": {"type": "string", **schema},
    }


def _download(ctx: ResourceContext, prefix: str) -> Doc:
    resource = ctx.resource
    names: list[Any] = [f.name for f in file_fields(resource.readable_fields)]
    path = f"{prefix}/resource/{resource.uri}/files/{{fieldName}}/{{fileId}}"
    binary = {"schema": {"type": "string", "format": "binary"}}
    ok = {
        "description": (
            "The stored content, its media type sniffed from it: images inline, "
            "anything else as an attachment (always X-Content-Type-Options: nosniff)."
        ),
        "content": {"application/octet-stream": binary, "image/*": binary},
    }
    thumb = {
        "name": "thumb",
        "in": "query",
        "required": False,
        "description": "1: a thumbnail of an image (a PNG, at most 96 pixels a side).",
        "schema": {"type": "string", "enum": ["1"]},
    }
    op = operation(
        ctx,
        "get",
        "crud.file",
        "download a file",
        parameters=[thumb],
        responses=by_status({"200": ok}, "401", "403", "404"),
    )
    op["description"] = "A stored file of the resource's file and image fields."
    parameters = [
        _path_parameter("fieldName", "The file or image field.", {"enum": names}),
        _path_parameter(
            "fileId", "The stored file's id, as the record's url gives it.", {}
        ),
    ]
    parameters[1]["schema"]["pattern"] = _FILE_ID
    return {path: {"parameters": parameters, "get": op}}
