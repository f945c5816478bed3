"""Reading request bodies: a size limit first, then JSON or a urlencoded form.

The limit is ``PANEL_MAX_BODY_SIZE`` (Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is set
to the same); a bigger body is refused with 413 before it is read.
"""

from __future__ import annotations

from io import BytesIO
from urllib.parse import parse_qsl

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.handlers.wsgi import LimitedStream
from django.http import HttpRequest

from panel_core.errors import PayloadTooLarge
from panel_core.inputs import FORM, Body, body_kind, form_pairs, has_body

_FIELDS = "panel_form"  # the request attribute caching a form's fields


def media_type(request: HttpRequest) -> str:
    """The ``Content-Type`` without its parameters, lower case."""
    return request.META.get("CONTENT_TYPE", "").split(";")[0].strip().lower()


def carries_body(request: HttpRequest) -> bool:
    """Whether the request has a body: chunked, or a ``Content-Length`` above 0."""
    meta = request.META
    return has_body(meta.get("CONTENT_LENGTH"), meta.get("HTTP_TRANSFER_ENCODING"))


def read_body(request: HttpRequest) -> Body:
    """The body as raw JSON bytes or form pairs; refuses other types and big bodies.

    A request without a body (no ``Content-Length`` or 0, not chunked) is body-less
    whatever its ``Content-Type``.
    """
    kind = body_kind(request.META.get("CONTENT_TYPE"), has_body=carries_body(request))
    if kind == "none":
        return b""
    raw = read_raw(request)
    return form_pairs(raw) if kind == "form" else raw


def dechunk(request: HttpRequest, limit: int) -> None:
    """Read a chunked body (no ``Content-Length``) into the request, 413 over ``limit``.

    Django reads ``Content-Length`` bytes, so without one it would see no body at all;
    gunicorn (``wsgi.input_terminated``) ends its input where the chunked body ends.
    Afterwards the body reads as one sent with its length.
    """
    meta = request.META
    if meta.get("CONTENT_LENGTH") or not carries_body(request):
        return
    if not meta.get("wsgi.input_terminated"):
        return
    body = meta["wsgi.input"].read(limit + 1)
    if len(body) > limit:
        raise PayloadTooLarge(f"The request body must not exceed {limit} bytes.")
    meta["CONTENT_LENGTH"] = str(len(body))
    request._stream = LimitedStream(BytesIO(body), len(body))  # type: ignore[attr-defined]


def read_raw(request: HttpRequest) -> bytes:
    """The body as it came, whatever its type; 413 over ``PANEL_MAX_BODY_SIZE``."""
    limit: int = settings.PANEL_MAX_BODY_SIZE
    dechunk(request, limit)
    declared = request.META.get("CONTENT_LENGTH", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large()
    try:
        body = request.body
    except RequestDataTooBig:
        raise too_large() from None
    if len(body) > limit:
        raise too_large()
    return body


def too_large() -> PayloadTooLarge:
    """The error of a body over ``PANEL_MAX_BODY_SIZE``."""
    limit: int = settings.PANEL_MAX_BODY_SIZE
    return PayloadTooLarge(f"The request body must not exceed {limit} bytes.")


def keep_form(request: HttpRequest, fields: list[tuple[str, str]]) -> None:
    """Keep the text fields of a multipart form (read already) as ``form_value``
    gives an urlencoded form's."""
    setattr(request, _FIELDS, fields)


def form_value(request: HttpRequest, name: str) -> str | None:
    """The last value of field ``name`` in the submitted urlencoded form (or a
    record's multipart form: ``keep_form``), if any."""
    fields: list[tuple[str, str]] | None = getattr(request, _FIELDS, None)
    if fields is None:
        fields = []
        if media_type(request) == FORM and carries_body(request):
            text = read_raw(request).decode("utf-8", "replace")
            fields = parse_qsl(text, keep_blank_values=True)
        setattr(request, _FIELDS, fields)
    values = [value for key, value in fields if key == name]
    return values[-1] if values else None
