"""File and image fields: multipart bodies of create and update, and downloads.

A multipart write to a resource with file fields streams through the kernel's
``MultipartReader`` (413 as soon as a file passes its field's ``maxBytes`` or the
body ``PANEL_MAX_UPLOAD_SIZE``), never through Django's own parser; the CSRF check
takes its ``_token`` from the same reading (``upload_of``). The files are checked and
stored (``panel_core.file_writes``) and the form's fields come back with them; any
other body is read as usual. ``crud.file`` serves a stored file to a logged-in user
who may view the resource (``panel_core.downloads``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_http_methods

from panel_core import fields as kernel
from panel_core.downloads import download
from panel_core.file_writes import (
    FileWrites,
    files_removed_after,
    form_pairs_with_files,
)
from panel_core.inputs import Body, without_blank_secrets
from panel_core.lifecycle import Actor
from panel_core.storage import CHUNK, Storage, storage_from
from panel_core.uploads import MultipartReader, is_multipart
from panel_core.versions import Expected

from .bodies import dechunk, keep_form, read_body
from .registry import PanelResource, registry

_READ = "panel_upload"  # the request attribute keeping a multipart body's reading


@lru_cache(maxsize=1)
def storage() -> Storage:
    """The project's file storage (``PANEL_STORAGE_URL``, else ``PANEL_MEDIA_ROOT``)."""
    return storage_from(settings.PANEL_STORAGE_URL, settings.PANEL_MEDIA_ROOT)


@receiver(setting_changed)
def _storage_changed(*, setting: str, **_kwargs: Any) -> None:
    """Another storage where a test changes its settings."""
    if setting in ("PANEL_STORAGE_URL", "PANEL_MEDIA_ROOT"):
        storage.cache_clear()


def file_specs(panel: PanelResource) -> tuple[kernel.File, ...]:
    """The file and image fields clients may write."""
    return kernel.file_fields(type(panel.resource).writable_fields)


def upload_of(request: HttpRequest, resource_uri: str) -> MultipartReader | None:
    """The multipart body of a write to ``resource_uri``, read once (``None``: not
    one, or the resource has no file fields)."""
    found = getattr(request, _READ, None)
    if found is not None:
        return found  # type: ignore[no-any-return]
    content_type = request.META.get("CONTENT_TYPE", "")
    if not is_multipart(content_type):
        return None
    specs = file_specs(registry().get(resource_uri))
    if not specs:
        return None
    dechunk(request, settings.PANEL_MAX_UPLOAD_SIZE)
    reader = MultipartReader(
        content_type,
        specs,
        ceiling=settings.PANEL_MAX_UPLOAD_SIZE,
        text_limit=settings.PANEL_MAX_BODY_SIZE,
    )
    while chunk := request.read(CHUNK):
        reader.feed(chunk)
    setattr(request, _READ, reader)
    # The form's fields, as an urlencoded form's: its version, its save button,
    # and its values again beside the errors if it is refused.
    keep_form(request, reader.pairs)
    return reader


def uploaded_fields(request: HttpRequest) -> tuple[str, ...]:
    """The file fields the record's multipart form carried a file for."""
    found = getattr(request, _READ, None)
    return () if found is None else tuple(found.uploads)


def multipart_form(request: HttpRequest) -> list[tuple[str, str]] | None:
    """The text fields of the record's multipart form the request carried (``None``:
    it carried none)."""
    found = getattr(request, _READ, None)
    return None if found is None else found.pairs


def file_body(
    request: HttpRequest, panel: PanelResource
) -> tuple[Body, FileWrites | None]:
    """The body of a create or an update, with its files stored (``None``: the
    resource has no file fields)."""
    specs = file_specs(panel)
    if not specs:
        return read_body(request), None
    writes = FileWrites(storage(), panel.uri, specs)
    reader = upload_of(request, panel.uri)
    if reader is None:
        body = read_body(request)
        if isinstance(body, list):
            body = form_pairs_with_files(body, {}, specs)
        return body, writes
    try:
        stored = writes.store(reader.uploads)
    finally:
        reader.close()
    pairs: Any = form_pairs_with_files(reader.pairs, stored, specs)
    return pairs, writes


def create_with_files(
    files: FileWrites, panel: PanelResource, body: Body, acting: Actor
) -> dict[str, Any]:
    """Create a record from ``body``: its uploads, stored already, are removed
    again if the record is refused."""
    return files.run(lambda: panel.store.create(panel.inputs.for_create(body), acting))


def update_with_files(
    files: FileWrites,
    panel: PanelResource,
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
        return panel.store.update(key, values, acting, expected)

    try:
        before = panel.store.fetch(key, acting)
    except BaseException:
        files.discard()
        raise
    return files.run(write, before)


def delete_with_files(
    panel: PanelResource,
    delete: Callable[[], Any],
    read: Callable[[], list[dict[str, Any]]],
    *,
    for_good: bool,
) -> Any:
    """``delete()`` of the records ``read()`` gives; once it has committed (and
    ``for_good``: not into the trash), the removal of their files and of those of
    the records its delete rules erased with them (a cascade)."""
    specs = kernel.file_fields(type(panel.resource).fields)
    with files_removed_after(storage()) as removed:
        if specs and for_good:
            removed.extend(r.get(spec.name) for r in read() for spec in specs)
        return delete()


@require_http_methods(["GET"])
def file(
    request: HttpRequest, resourceUri: str, fieldName: str, fileId: str  # noqa: N803
) -> HttpResponse:
    """A stored file: inline if an image, else an attachment (``?thumb=1``: an
    image's thumbnail)."""
    panel = registry().get(resourceUri)
    found = download(
        storage(),
        type(panel.resource).readable_fields,
        panel.uri,
        fieldName,
        fileId,
        thumb=request.GET.get("thumb") == "1",
    )
    response = StreamingHttpResponse(found.chunks, content_type=found.media_type)
    for name, value in found.headers.items():
        response[name] = value
    return response
