"""Every resource's handlers: CSV export and CSV import.

``GET …/handler/export`` streams the records the list shows for the same ``search``,
``filter[…]``, ``query-tag`` and ``sort`` (every page of them). ``POST
…/handler/import`` writes a CSV file in one transaction, all rows or none; what an
upload may be, how rows are checked and what the answer says are the kernel's
(``panel_core.imports``, shared with the Django panels). With ``dry_run=1`` it is a
preview that writes nothing (``panel_core.import_page``): the import page's upload
form asks for one, and its confirm form imports. A browser's import is sent back to
the list with a flash message; a refused one shows the preview of every row's errors.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import Any

from fastapi import Request, Response
from fastapi.responses import StreamingResponse
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser

from panel_core import csv_text, imports
from panel_core.import_page import (
    PREVIEW_FIELD,
    Preview,
    carry_limit,
    import_context,
    nouns,
    preview_text,
    previewed,
    previewing,
    upload_text,
)
from panel_core.lifecycle import Actor
from panel_core.resource_pages import resource_templates
from panel_core.routes import HANDLER_METHODS

from .accept import wants_json
from .authorize import actor
from .bodies import read_raw
from .errors import InvalidInput
from .flash import flash
from .redirects import see_other
from .registry import PanelResource
from .responses import json_response
from .templating import render


@dataclass(frozen=True)
class Handler:
    """What a handler answers to, and what it does."""

    methods: tuple[str, ...]
    run: Callable[[Request, PanelResource], Awaitable[Response]]


async def export_csv(request: Request, panel: PanelResource) -> Response:
    """The records matching the list parameters, as a CSV download."""
    query = panel.list_query(request.query_params.multi_items())
    engine: Engine = request.app.state.engine
    batches = panel.store.iter_batches(engine, query, actor(request, panel))
    disposition = f'attachment; filename="{panel.uri}.csv"'
    return StreamingResponse(
        csv_text.export_chunks(type(panel.resource), batches),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": disposition},
    )


async def import_csv(request: Request, panel: PanelResource) -> Response:
    """Create and update records from a CSV file: all rows, or none; with
    ``dry_run=1``, a preview that writes nothing (``panel_core.import_page``)."""
    limit = request.app.state.settings.max_import_size
    engine: Engine = request.app.state.engine
    query = request.query_params
    try:
        text, fields = await read_upload(request, limit)
        keep_keys = imports.keeps_keys(
            query.get(imports.KEYS_FIELD, fields.get(imports.KEYS_FIELD))
        )
    except InvalidInput as exc:
        return await _refused(request, panel, exc.errors)
    acting = actor(request, panel)
    if previewing(query.get(PREVIEW_FIELD, fields.get(PREVIEW_FIELD))):
        result = await run_in_threadpool(
            _preview, panel, engine, text, acting, keep_keys
        )
        if wants_json(request):
            status = 422 if result.errors else 200
            return json_response(previewed(result), status_code=status)
        return await _import_page(request, panel, result, text, keep_keys)
    try:
        rows = csv_text.read_rows(type(panel.resource), text)
        created, updated = await run_in_threadpool(
            _import, panel, engine, rows, acting, keep_keys
        )
    except (csv_text.CsvError, InvalidInput) as exc:
        if wants_json(request):
            return json_response(imports.refused(exc.errors), status_code=422)
        result = await run_in_threadpool(
            _preview, panel, engine, text, acting, keep_keys
        )
        return await _import_page(request, panel, result, text, keep_keys)
    if wants_json(request):
        return json_response(imports.imported(created, updated))
    body = imports.imported(created, updated, nouns(panel))
    flash(request, body["message"], body["messageType"])
    return see_other(panel.resource.index_page_url())


async def _refused(
    request: Request, panel: PanelResource, errors: dict[str, list[str]]
) -> Response:
    """An upload that could not be read: its errors, as JSON or on the import page."""
    if wants_json(request):
        return json_response(imports.refused(errors), status_code=422)
    return await _import_page(request, panel, Preview(0, 0, errors), None, True)


async def _import_page(
    request: Request,
    panel: PanelResource,
    result: Preview,
    text: str | None,
    keep_keys: bool,
) -> Response:
    """The import page showing the preview (422 when a row has errors)."""
    limit = carry_limit(request.app.state.settings.max_body_size)
    context = import_context(
        panel, result=result, text=text, keep_keys=keep_keys, limit=limit
    )
    names = resource_templates(panel.uri, "import.html")
    status = 422 if result.errors else 200
    return render(request, names, context, status_code=status)


HANDLERS = {
    "export": Handler(HANDLER_METHODS["export"], export_csv),
    "import": Handler(HANDLER_METHODS["import"], import_csv),
}


def _preview(
    panel: PanelResource, engine: Engine, text: str, acting: Actor, keep_keys: bool
) -> Preview:
    def rehearse(rows: list[imports.ImportRow]) -> None:
        panel.store.import_records(engine, rows, acting, rehearsal=True)

    def existing(keys: list[Any]) -> Collection[Any]:
        found: Collection[Any] = panel.store.existing_keys(engine, keys, acting)
        return found

    return preview_text(panel, text, existing, rehearse, keep_keys=keep_keys)


def _import(
    panel: PanelResource,
    engine: Engine,
    rows: list[csv_text.CsvRow],
    acting: Actor,
    keep_keys: bool,
) -> tuple[int, int]:
    keys = imports.row_keys(rows)
    existing = panel.store.existing_keys(engine, keys, acting) if keys else set()
    checked = imports.check_rows(rows, existing, panel.inputs, keep_keys=keep_keys)
    return panel.store.import_records(engine, checked, acting)


async def read_upload(request: Request, limit: int) -> tuple[str, dict[str, str]]:
    """The uploaded CSV text (the ``file`` of a multipart form, the text a preview
    carried, or the whole body), and the form's text fields (none without a form)."""
    media_type = imports.check_media_type(request.headers.get("content-type", ""))
    raw = await read_raw(request, limit)
    if media_type != imports.MULTIPART:
        return imports.decode(raw), {}
    return await _form_text(request.headers, raw, limit)


async def _form_text(
    headers: Headers, raw: bytes, limit: int
) -> tuple[str, dict[str, str]]:
    async def stream() -> AsyncGenerator[bytes, None]:
        yield raw

    parser = MultiPartParser(
        headers, stream(), max_files=1, max_fields=10, max_part_size=limit
    )
    try:
        form = await parser.parse()
    except MultiPartException as exc:
        raise InvalidInput({imports.FILE_FIELD: [exc.message]}) from None
    try:
        upload = form.get(imports.FILE_FIELD)
        fields = {k: v for k, v in form.multi_items() if isinstance(v, str)}
        content = await upload.read() if isinstance(upload, UploadFile) else None
        return upload_text(content, fields), fields
    finally:
        await form.close()
