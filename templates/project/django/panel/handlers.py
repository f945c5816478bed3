"""Every resource's handlers: CSV export and CSV import.

``GET …/handler/export`` streams the records the list shows for the same ``search``,
``filter[…]``, ``query-tag`` and ``sort`` (every page of them), in batches, with a
``StreamingHttpResponse``. ``POST …/handler/import`` writes a CSV file in one
transaction, all rows or none. What an upload may be, how rows are checked and what
the answer says are the kernel's (``panel_core.imports``, shared with the FastAPI
panels); the uploads may be up to ``PANEL_MAX_IMPORT_SIZE`` bytes (413 beyond). Both
keep to the user's scope; imported rows go through the resource's hooks. With
``dry_run=1`` an import is a preview that writes nothing (``panel_core.import_page``):
the import page's upload form asks for one, and its confirm form imports. A browser's
import is sent back to the list with a flash message; a refused one shows the preview
of every row's errors.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from django.conf import settings
from django.http import HttpRequest, StreamingHttpResponse
from django.http.multipartparser import MultiPartParserError
from django.http.response import HttpResponseBase

from panel_core import csv_text, imports
from panel_core.errors import InvalidInput, PayloadTooLarge
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
from .acting import actor
from .bodies import dechunk
from .flash import flash
from .redirects import see_other
from .registry import PanelResource
from .responses import json_response
from .templating import render


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
    """Create and update records from a CSV file: all rows, or none; with
    ``dry_run=1``, a preview that writes nothing (``panel_core.import_page``)."""
    try:
        text = read_upload(request, settings.PANEL_MAX_IMPORT_SIZE)
        keep_keys = imports.keeps_keys(_field(request, imports.KEYS_FIELD))
    except InvalidInput as exc:
        if wants_json(request):
            return json_response(imports.refused(exc.errors), status=422)
        return _import_page(request, panel, Preview(0, 0, exc.errors), None, True)
    acting = actor(request, panel)
    if previewing(_field(request, PREVIEW_FIELD)):
        result = _preview(panel, text, acting, keep_keys)
        if wants_json(request):
            return json_response(
                previewed(result), status=422 if result.errors else 200
            )
        return _import_page(request, panel, result, text, keep_keys)
    try:
        rows = csv_text.read_rows(type(panel.resource), text)
        keys = imports.row_keys(rows)
        existing = panel.store.existing_keys(keys, acting) if keys else set()
        checked = imports.check_rows(rows, existing, panel.inputs, keep_keys=keep_keys)
        created, updated = panel.store.import_records(checked, acting)
    except (csv_text.CsvError, InvalidInput) as exc:
        if wants_json(request):
            return json_response(imports.refused(exc.errors), status=422)
        result = _preview(panel, text, acting, keep_keys)
        return _import_page(request, panel, result, text, keep_keys)
    if wants_json(request):
        return json_response(imports.imported(created, updated))
    body = imports.imported(created, updated, nouns(panel))
    flash(request, body["message"], body["messageType"])
    return see_other(panel.resource.index_page_url())


def _preview(
    panel: PanelResource, text: str, acting: Actor, keep_keys: bool
) -> Preview:
    def rehearse(rows: list[imports.ImportRow]) -> None:
        panel.store.import_records(rows, acting, rehearsal=True)

    def existing(keys: list[Any]) -> Collection[Any]:
        found: Collection[Any] = panel.store.existing_keys(keys, acting)
        return found

    return preview_text(panel, text, existing, rehearse, keep_keys=keep_keys)


def _import_page(
    request: HttpRequest,
    panel: PanelResource,
    result: Preview,
    text: str | None,
    keep_keys: bool,
) -> HttpResponseBase:
    """The import page showing the preview (422 when a row has errors)."""
    limit = carry_limit(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    context = import_context(
        panel, result=result, text=text, keep_keys=keep_keys, limit=limit
    )
    names = resource_templates(panel.uri, "import.html")
    return render(request, names, context, status=422 if result.errors else 200)


HANDLERS = {
    "export": Handler(HANDLER_METHODS["export"], export_csv),
    "import": Handler(HANDLER_METHODS["import"], import_csv),
}


def read_upload(request: HttpRequest, limit: int) -> str:
    """The uploaded CSV text: the ``file`` of a multipart form (or the text a
    preview carried), or the whole body."""
    media_type = imports.check_media_type(request.META.get("CONTENT_TYPE", ""))
    dechunk(request, limit)
    declared = request.META.get("CONTENT_LENGTH", "")
    if declared.isdigit() and int(declared) > limit:
        raise _too_large(limit)
    if media_type == imports.MULTIPART:
        return _form_text(request, limit)
    # Read from the stream: ``request.body`` would apply the smaller
    # DATA_UPLOAD_MAX_MEMORY_SIZE (PANEL_MAX_BODY_SIZE) instead of ``limit``.
    raw = request.read(limit + 1)
    if len(raw) > limit:
        raise _too_large(limit)
    return imports.decode(raw)


def _form_text(request: HttpRequest, limit: int) -> str:
    """The ``file`` of a multipart form (Django's parser streams it to disk if big),
    or the text a preview's confirm form carried."""
    try:
        upload = request.FILES.get(imports.FILE_FIELD)
        fields = {k: v for k, v in request.POST.items() if isinstance(v, str)}
    except MultiPartParserError as exc:
        raise InvalidInput({imports.FILE_FIELD: [str(exc)]}) from None
    if upload is None:
        return upload_text(None, fields)
    if upload.size is not None and upload.size > limit:
        raise _too_large(limit)
    with upload:
        return upload_text(upload.read(), fields)


def _field(request: HttpRequest, name: str) -> str | None:
    """Field ``name``: the query's, else the upload form's (read after the file)."""
    choice = request.GET.get(name)
    if choice is None and request.content_type == imports.MULTIPART:
        choice = request.POST.get(name)
    return choice


def _too_large(limit: int) -> PayloadTooLarge:
    return PayloadTooLarge(f"The request body must not exceed {limit} bytes.")
