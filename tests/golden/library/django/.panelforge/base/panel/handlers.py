"""Every resource's handlers: CSV export and CSV import.

``GET …/handler/export`` streams the records the list shows for the same ``search``,
``filter[…]``, ``query-tag`` and ``sort`` (every page of them), in batches, with a
``StreamingHttpResponse``. ``POST …/handler/import`` writes a CSV file in one
transaction, all rows or none. What an upload may be, how rows are checked and what
the answer says are the kernel's (``panel_core.imports``, shared with the FastAPI
panels); the uploads may be up to ``PANEL_MAX_IMPORT_SIZE`` bytes (413 beyond). Both
keep to the user's scope; imported rows go through the resource's hooks. A browser's
upload (the index page's form) is sent back to the list: with a flash message, or with
every row's errors when the file is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qsl

from django.conf import settings
from django.http import HttpRequest, StreamingHttpResponse
from django.http.multipartparser import MultiPartParserError
from django.http.response import HttpResponseBase

from panel_core import csv_text, imports
from panel_core.errors import InvalidInput, PayloadTooLarge
from panel_core.routes import HANDLER_METHODS

from .accept import wants_json
from .acting import actor
from .bodies import dechunk
from .flash import flash
from .redirects import see_other
from .registry import PanelResource
from .resource_pages import index_page
from .responses import json_response


@dataclass(frozen=True)
class Handler:
    """What a handler answers to, and what it does."""

    methods: tuple[str, ...]
    run: Callable[[HttpRequest, PanelResource], HttpResponseBase]


def export_csv(request: HttpRequest, panel: PanelResource) -> HttpResponseBase:
    """The records matching the list parameters, as a CSV download."""
    params = parse_qsl(request.META.get("QUERY_STRING", ""), keep_blank_values=True)
    batches = panel.store.iter_batches(panel.list_query(params), actor(request, panel))
    disposition = f'attachment; filename="{panel.uri}.csv"'
    return StreamingHttpResponse(
        csv_text.export_chunks(type(panel.resource), batches),
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": disposition},
    )


def import_csv(request: HttpRequest, panel: PanelResource) -> HttpResponseBase:
    """Create and update records from a CSV file: all rows, or none."""
    try:
        text = read_upload(request, settings.PANEL_MAX_IMPORT_SIZE)
        keep_keys = imports.keeps_keys(_keys_choice(request))
        rows = csv_text.read_rows(type(panel.resource), text)
        acting = actor(request, panel)
        keys = imports.row_keys(rows)
        existing = panel.store.existing_keys(keys, acting) if keys else set()
        checked = imports.check_rows(rows, existing, panel.inputs, keep_keys=keep_keys)
        created, updated = panel.store.import_records(checked, acting)
    except (csv_text.CsvError, InvalidInput) as exc:
        if not wants_json(request):  # the list again, with every row's errors
            lines = imports.error_lines(exc.errors)
            return index_page(request, panel, import_errors=lines, status=422)
        return json_response(imports.refused(exc.errors), status=422)
    body = imports.imported(created, updated)
    if not wants_json(request):
        flash(request, body["message"], body["messageType"])
        return see_other(panel.resource.index_page_url())
    return json_response(body)


HANDLERS = {
    "export": Handler(HANDLER_METHODS["export"], export_csv),
    "import": Handler(HANDLER_METHODS["import"], import_csv),
}


def read_upload(request: HttpRequest, limit: int) -> str:
    """The uploaded CSV text: the ``file`` of a multipart form, or the whole body."""
    media_type = imports.check_media_type(request.META.get("CONTENT_TYPE", ""))
    dechunk(request, limit)
    declared = request.META.get("CONTENT_LENGTH", "")
    if declared.isdigit() and int(declared) > limit:
        raise _too_large(limit)
    if media_type == imports.MULTIPART:
        return imports.decode(_form_file(request, limit))
    # Read from the stream: ``request.body`` would apply the smaller
    # DATA_UPLOAD_MAX_MEMORY_SIZE (PANEL_MAX_BODY_SIZE) instead of ``limit``.
    raw = request.read(limit + 1)
    if len(raw) > limit:
        raise _too_large(limit)
    return imports.decode(raw)


def _form_file(request: HttpRequest, limit: int) -> bytes:
    """The ``file`` of a multipart form (Django's parser streams it to disk if big)."""
    try:
        upload = request.FILES.get(imports.FILE_FIELD)
    except MultiPartParserError as exc:
        raise InvalidInput({imports.FILE_FIELD: [str(exc)]}) from None
    if upload is None:
        raise imports.missing_file()
    if upload.size is not None and upload.size > limit:
        raise _too_large(limit)
    with upload:
        return upload.read()


def _keys_choice(request: HttpRequest) -> str | None:
    """The ``keys`` choice: the query's, else the upload form's (read after the file)."""
    choice = request.GET.get(imports.KEYS_FIELD)
    if choice is None and request.content_type == imports.MULTIPART:
        choice = request.POST.get(imports.KEYS_FIELD)
    return choice


def _too_large(limit: int) -> PayloadTooLarge:
    return PayloadTooLarge(f"The request body must not exceed {limit} bytes.")
