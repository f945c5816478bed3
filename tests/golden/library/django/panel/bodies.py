"""Reading request bodies: a size limit first, then JSON or a urlencoded form.

The limit is ``PANEL_MAX_BODY_SIZE`` (Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is set
to the same); a bigger body is refused with 413 before it is read.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest

from panel_core.errors import PayloadTooLarge, UnsupportedMediaType
from panel_core.inputs import Body, form_pairs

_FORM = "application/x-www-form-urlencoded"
_FIELDS = "panel_form"  # the request attribute caching a form's fields


def media_type(request: HttpRequest) -> str:
    """The ``Content-Type`` without its parameters, lower case."""
    return request.META.get("CONTENT_TYPE", "").split(";")[0].strip().lower()


def read_body(request: HttpRequest) -> Body:
    """The body as raw JSON bytes or form pairs; refuses other types and big bodies."""
    kind = media_type(request)
    if kind == _FORM:
        return form_pairs(read_raw(request))
    if kind in {"", "application/json"} or kind.endswith("+json"):
        return read_raw(request)
    raise UnsupportedMediaType(
        "Send the body as application/json or application/x-www-form-urlencoded."
    )


def read_raw(request: HttpRequest) -> bytes:
    """The body as it came, whatever its type; 413 over ``PANEL_MAX_BODY_SIZE``."""
    limit: int = settings.PANEL_MAX_BODY_SIZE
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


def form_value(request: HttpRequest, name: str) -> str | None:
    """The last value of field ``name`` in the submitted urlencoded form, if any."""
    fields: list[tuple[str, str]] | None = getattr(request, _FIELDS, None)
    if fields is None:
        fields = []
        if media_type(request) == _FORM:
            text = read_raw(request).decode("utf-8", "replace")
            fields = parse_qsl(text, keep_blank_values=True)
        setattr(request, _FIELDS, fields)
    values = [value for key, value in fields if key == name]
    return values[-1] if values else None
