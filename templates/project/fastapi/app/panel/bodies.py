"""Reading request bodies: a size limit first, then JSON or a urlencoded form."""

from __future__ import annotations

from starlette.requests import Request

from panel_core.inputs import Body, form_pairs

from .errors import PayloadTooLarge, UnsupportedMediaType

_FORM = "application/x-www-form-urlencoded"


async def read_body(request: Request, limit: int) -> Body:
    """The body as raw JSON bytes or form pairs; refuses other types and big bodies."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type == _FORM:
        return form_pairs(await _read_limited(request, limit))
    if media_type in {"", "application/json"} or media_type.endswith("+json"):
        return await _read_limited(request, limit)
    raise UnsupportedMediaType(
        "Send the body as application/json or application/x-www-form-urlencoded."
    )


async def read_raw(request: Request, limit: int) -> bytes:
    """The body as it came, whatever its type; refused with 413 over ``limit`` bytes."""
    return await _read_limited(request, limit)


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
