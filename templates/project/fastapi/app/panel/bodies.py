"""Reading request bodies: a size limit first, then JSON or a urlencoded form."""

from __future__ import annotations

from urllib.parse import parse_qsl

from starlette.requests import Request

from .errors import InvalidInput, PayloadTooLarge, UnsupportedMediaType
from .validation import Body

_FORM = "application/x-www-form-urlencoded"


async def read_body(request: Request, limit: int) -> Body:
    """The body as raw JSON bytes or form pairs; refuses other types and big bodies."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type == _FORM:
        return _form_pairs(await _read_limited(request, limit))
    if media_type in {"", "application/json"} or media_type.endswith("+json"):
        return await _read_limited(request, limit)
    raise UnsupportedMediaType(
        "Send the body as application/json or application/x-www-form-urlencoded."
    )


async def read_raw(request: Request, limit: int) -> bytes:
    """The body as it came, whatever its type; refused with 413 over ``limit`` bytes."""
    return await _read_limited(request, limit)


def _form_pairs(raw: bytes) -> list[tuple[str, str]]:
    try:
        pairs = parse_qsl(raw.decode(), keep_blank_values=True)
    except UnicodeDecodeError:
        raise InvalidInput({"body": ["The form is not valid UTF-8."]}) from None
    # "_token", "_method", "_redirect": the form's own fields, never a record's.
    return [(name, value) for name, value in pairs if not name.startswith("_")]


async def _read_limited(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise PayloadTooLarge(f"The request body must not exceed {limit} bytes.")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise PayloadTooLarge(f"The request body must not exceed {limit} bytes.")
        chunks.append(chunk)
    return b"".join(chunks)
