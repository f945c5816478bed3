"""File and image fields: multipart bodies of create and update, and downloads.

``file_body`` reads the body of a write to a resource with file fields: a multipart
form streams through the kernel's ``MultipartReader`` (413 as soon as a file passes
its field's ``maxBytes`` or the body ``MAX_UPLOAD_SIZE``), its files are checked and
stored (``panel_core.file_writes``), and the form's fields come back with them (and
are kept as an urlencoded form's are: ``formdata.form_value``); any other body is
read as usual. ``crud.file`` serves a stored file to a logged-in user
who may view the resource (``panel_core.downloads``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request, Response
from sqlalchemy import Engine
from starlette.concurrency import iterate_in_threadpool, run_in_threadpool
from starlette.responses import StreamingResponse

from panel_core import fields as kernel
from panel_core.downloads import download
from panel_core.file_writes import (
    FileWrites,
    files_removed_after,
    form_pairs_with_files,
)
from panel_core.inputs import Body, without_blank_secrets
from panel_core.lifecycle import Actor
from panel_core.storage import Storage
from panel_core.uploads import MultipartReader, is_multipart
from panel_core.versions import Expected

from .bodies import read_body
from .formdata import FORM_KEY
from .guards import PANEL_GUARDS
from .registry import PanelResource, Registry

# The file fields a multipart form carried a file for (a refused form says to choose
# them again, ``panel_core.refused_form``).
UPLOADED_KEY = "panel.uploaded"

router = APIRouter(
    prefix="/resource/{resourceUri}", dependencies=PANEL_GUARDS, include_in_schema=False
)


def file_specs(panel: PanelResource) -> tuple[kernel.File, ...]:
    """The file and image fields clients may write."""
    return kernel.file_fields(type(panel.resource).writable_fields)


def storage_of(request: Request) -> Storage:
    """The app's file storage."""
    storage: Storage = request.app.state.storage
    return storage


async def file_body(
    request: Request, panel: PanelResource
) -> tuple[Body, FileWrites | None]:
    """The body of a create or an update, with its files stored (``None``: the
    resource has no file fields)."""
    settings = request.app.state.settings
    specs = file_specs(panel)
    content_type = request.headers.get("content-type", "")
    if not specs or not is_multipart(content_type):
        body = await read_body(request, settings.max_body_size)
        if not specs:
            return body, None
        writes = FileWrites(storage_of(request), panel.uri, specs)
        if isinstance(body, list):
            body = form_pairs_with_files(body, {}, specs)
        return body, writes
    reader = MultipartReader(
        content_type,
        specs,
        ceiling=settings.max_upload_size,
        text_limit=settings.max_body_size,
    )
    try:
        async for chunk in request.stream():
            reader.feed(chunk)
        # The form's fields, as an urlencoded form's: its version, its save button,
        # and its values again beside the errors if it is refused.
        request.scope[FORM_KEY] = reader.pairs
        request.scope[UPLOADED_KEY] = tuple(reader.uploads)
        writes = FileWrites(storage_of(request), panel.uri, specs)
        stored = await run_in_threadpool(writes.store, reader.uploads)
    finally:
        reader.close()
    pairs: Any = form_pairs_with_files(reader.pairs, stored, specs)
    return pairs, writes


@router.get("/files/{fieldName}/{fileId}", name="crud.file")
async def file(request: Request) -> Response:
    """A stored file: inline if an image, else an attachment (``?thumb=1``: an
    image's thumbnail)."""
    registry: Registry = request.app.state.registry
    params = request.path_params
    panel = registry.get(params["resourceUri"])
    found = await run_in_threadpool(
        download,
        storage_of(request),
        type(panel.resource).readable_fields,
        panel.uri,
        params["fieldName"],
        params["fileId"],
        thumb=request.query_params.get("thumb") == "1",
    )
    return StreamingResponse(
        iterate_in_threadpool(found.chunks),
        media_type=found.media_type,
        headers=found.headers,
    )


def create_with_files(
    files: FileWrites, panel: PanelResource, engine: Engine, body: Body, acting: Actor
) -> dict[str, Any]:
    """Create a record from ``body`` (in the thread pool): its uploads, stored
    already, are removed again if the record is refused."""

    def write() -> dict[str, Any]:
        return panel.store.create(engine, panel.inputs.for_create(body), acting)

    return files.run(write)


def update_with_files(
    files: FileWrites,
    panel: PanelResource,
    engine: Engine,
    key: Any,
    body: Body,
    acting: Actor,
    expected: Expected | None,
) -> dict[str, Any]:
    """Change a record from ``body``; the files it held and no more are removed once
    the change has committed."""
    body = without_blank_secrets(type(panel.resource), body)

    def write() -> dict[str, Any]:
        values = panel.inputs.for_update(body)
        return panel.store.update(engine, key, values, acting, expected)

    try:
        before = panel.store.fetch(engine, key, acting)
    except BaseException:
        files.discard()
        raise
    return files.run(write, before)


def delete_with_files(
    panel: PanelResource,
    storage: Storage,
    delete: Callable[[], Any],
    read: Callable[[], list[dict[str, Any]]],
    *,
    for_good: bool,
) -> Any:
    """``delete()`` of the records ``read()`` gives; once it has committed (and
    ``for_good``: not into the trash), the removal of their files and of those of
    the records its delete rules erased with them (a cascade)."""
    specs = kernel.file_fields(type(panel.resource).fields)
    with files_removed_after(storage) as removed:
        if specs and for_good:
            removed.extend(r.get(spec.name) for r in read() for spec in specs)
        return delete()
