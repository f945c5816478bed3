"""Every resource's handlers: CSV export and CSV import.

``GET …/handler/export`` streams the records the list shows for the same ``search``,
``filter[…]``, ``query-tag`` and ``sort`` (every page of them). ``POST
…/handler/import`` writes a CSV file in one transaction, all rows or none; what an
upload may be, how rows are checked and what the answer says are the kernel's
(``panel_core.imports``, shared with the Django panels). A browser's upload (the index
page's form) is sent back to the list: with a flash message, or with every row's
errors when the file is refused.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass

from fastapi import Request, Response
from fastapi.responses import StreamingResponse
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser

from panel_core import csv_text, imports
from panel_core.lifecycle import Actor
from panel_core.routes import HANDLER_METHODS

from .accept import wants_json
from .authorize import actor
from .bodies import read_raw
from .errors import InvalidInput
from .flash import flash
from .redirects import see_other
from .registry import PanelResource
from .responses import json_response
from .views import index_page


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
    """Create and update records from a CSV file: all rows, or none."""
    limit = request.app.state.settings.max_import_size
    engine: Engine = request.app.state.engine
    try:
        text, choice = await read_upload(request, limit)
        keep_keys = imports.keeps_keys(
            request.query_params.get(imports.KEYS_FIELD, choice)
        )
        rows = csv_text.read_rows(type(panel.resource), text)
        acting = actor(request, panel)
        created, updated = await run_in_threadpool(
            _import, panel, engine, rows, acting, keep_keys
        )
    except (csv_text.CsvError, InvalidInput) as exc:
        if not wants_json(request):  # the list again, with every row's errors
            lines = imports.error_lines(exc.errors)
            return await index_page(
                request, panel, import_errors=lines, status_code=422
            )
        return json_response(imports.refused(exc.errors), status_code=422)
    body = imports.imported(created, updated)
    if not wants_json(request):
        flash(request, body["message"], body["messageType"])
        return see_other(panel.resource.index_page_url())
    return json_response(body)


HANDLERS = {
    "export": Handler(HANDLER_METHODS["export"], export_csv),
    "import": Handler(HANDLER_METHODS["import"], import_csv),
}


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


async def read_upload(request: Request, limit: int) -> tuple[str, str | None]:
    """The uploaded CSV text (the ``file`` of a multipart form, or the whole body),
    and the form's ``keys`` choice (``None`` without a form)."""
    media_type = imports.check_media_type(request.headers.get("content-type", ""))
    raw = await read_raw(request, limit)
    if media_type != imports.MULTIPART:
        return imports.decode(raw), None
    raw, choice = await _form_file(request.headers, raw, limit)
    return imports.decode(raw), choice


async def _form_file(
    headers: Headers, raw: bytes, limit: int
) -> tuple[bytes, str | None]:
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
        if not isinstance(upload, UploadFile):
            raise imports.missing_file()
        choice = form.get(imports.KEYS_FIELD)
        return await upload.read(), choice if isinstance(choice, str) else None
    finally:
        await form.close()
