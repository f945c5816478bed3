"""Every resource's handlers: CSV export and CSV import.

``GET …/handler/export`` streams the records the list shows for the same ``search``,
``filter[…]``, ``query-tag`` and ``sort`` (every page of them). ``POST
…/handler/import`` takes a file in the field ``file`` of a multipart form, or a
``text/csv`` body. Rows whose key exists update that record; the others (empty or
unknown key) create a new one, with a key the database allocates. Every row is checked
first, as a form would be, and the file is written in one transaction: one bad row and
nothing is written.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

from fastapi import Request, Response
from fastapi.responses import StreamingResponse
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser

from .accept import wants_json
from .bodies import read_raw
from .core import csv_text
from .errors import InvalidInput, UnsupportedMediaType, summarize
from .flash import flash
from .redirects import see_other
from .registry import PanelResource
from .responses import json_response
from .store_bulk import ImportRow

_CSV_TYPES = frozenset({"text/csv", "application/csv", "text/plain"})


@dataclass(frozen=True)
class Handler:
    """What a handler answers to, and what it does."""

    methods: tuple[str, ...]
    run: Callable[[Request, PanelResource], Awaitable[Response]]


async def export_csv(request: Request, panel: PanelResource) -> Response:
    """The records matching the list parameters, as a CSV download."""
    query = panel.list_query(request.query_params.multi_items())
    engine: Engine = request.app.state.engine
    resource = type(panel.resource)

    def chunks() -> Iterator[str]:
        yield csv_text.lines([csv_text.header(resource)])
        for batch in panel.store.iter_batches(engine, query):
            yield csv_text.export_lines(resource, batch)

    disposition = f'attachment; filename="{panel.uri}.csv"'
    return StreamingResponse(
        chunks(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": disposition},
    )


async def import_csv(request: Request, panel: PanelResource) -> Response:
    """Create and update records from a CSV file: all rows, or none."""
    limit = request.app.state.settings.max_import_size
    engine: Engine = request.app.state.engine
    try:
        text = await read_upload(request, limit)
        rows = csv_text.read_rows(type(panel.resource), text)
        created, updated = await run_in_threadpool(_import, panel, engine, rows)
    except (csv_text.CsvError, InvalidInput) as exc:
        message = "Nothing was imported: " + _summary(exc.errors)
        return _answer(request, panel, 422, message, exc.errors)
    total = created + updated
    message = f"Imported {total} record{'' if total == 1 else 's'}: "
    message += f"{created} created, {updated} updated."
    return _answer(request, panel, 200, message, created=created, updated=updated)


HANDLERS = {
    "export": Handler(("GET", "HEAD"), export_csv),
    "import": Handler(("POST",), import_csv),
}


def _import(
    panel: PanelResource, engine: Engine, rows: list[csv_text.CsvRow]
) -> tuple[int, int]:
    keys = [row.key for row in rows if row.key is not None]
    existing = panel.store.existing_keys(engine, keys) if keys else set()
    checked: list[ImportRow] = []
    errors: dict[str, list[str]] = {}
    for row in rows:
        update = row.key is not None and row.key in existing
        try:
            values = panel.inputs.from_text(row.values, create=not update)
        except InvalidInput as exc:
            errors[row.label] = [m for group in exc.errors.values() for m in group]
            continue
        checked.append((row.label, row.key if update else None, values))
    if errors:
        raise InvalidInput(errors)
    return panel.store.import_records(engine, checked)


def _summary(errors: dict[str, list[str]]) -> str:
    """The first error, naming its row, and how many others there are."""
    return summarize(
        {
            label: [
                m if label == "file" else f"{label.capitalize()}: {m}" for m in messages
            ]
            for label, messages in errors.items()
        }
    )


def _answer(
    request: Request,
    panel: PanelResource,
    status_code: int,
    message: str,
    errors: dict[str, list[str]] | None = None,
    **counts: Any,
) -> Response:
    """JSON for API clients; for a page, a flash message and back to the list."""
    kind = "success" if status_code < 400 else "error"
    if not wants_json(request):
        flash(request, message, kind)
        return see_other(panel.resource.index_page_url())
    body: dict[str, Any] = {"message": message, "messageType": kind}
    if errors is not None:
        body["errors"] = errors
    return json_response({**body, **counts}, status_code=status_code)


async def read_upload(request: Request, limit: int) -> str:
    """The uploaded CSV text: the ``file`` of a multipart form, or the whole body."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "multipart/form-data" and media_type not in _CSV_TYPES:
        raise UnsupportedMediaType(
            "Send the file as multipart/form-data (field 'file') or as text/csv."
        )
    raw = await read_raw(request, limit)
    if media_type == "multipart/form-data":
        raw = await _form_file(request.headers, raw, limit)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput({"file": ["The file must be UTF-8 text."]}) from None


async def _form_file(headers: Headers, raw: bytes, limit: int) -> bytes:
    async def stream() -> AsyncGenerator[bytes, None]:
        yield raw

    parser = MultiPartParser(
        headers, stream(), max_files=1, max_fields=10, max_part_size=limit
    )
    try:
        form = await parser.parse()
    except MultiPartException as exc:
        raise InvalidInput({"file": [exc.message]}) from None
    try:
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise InvalidInput({"file": ["The file field is required."]})
        return await upload.read()
    finally:
        await form.close()
