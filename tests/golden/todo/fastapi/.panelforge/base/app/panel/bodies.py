"""Reading request bodies: a size limit first, then JSON or a urlencoded form."""

from __future__ import annotations

from starlette.requests import Request

from panel_core.inputs import Body, body_kind, form_pairs, has_body

from .errors import PayloadTooLarge


async def read_body(request: Request, limit: int) -> Body:
    """The body as raw JSON bytes or form pairs; refuses other types and big bodies.

    A request without a body (no ``Content-Length`` or 0, not chunked) is body-less
    whatever its ``Content-Type``.
    """
    headers = request.headers
    present = has_body(headers.get("content-length"), headers.get("transfer-encoding"))
    kind = body_kind(headers.get("content-type"), has_body=present)
    if kind == "none":
        return b""
    raw = await _read_limited(request, limit)
    return form_pairs(raw) if kind == "form" else raw


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
