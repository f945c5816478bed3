"""HTML form submissions: read once within the size limit, and ``_method`` applied.

Browsers only send GET and POST, so a POST form names the method it stands for in a
``_method`` field (PUT, PATCH or DELETE), as Laravel's forms do (a multipart form,
whose body is not read here, in its query string: ``?_method=PUT``). This middleware reads
urlencoded bodies of state-changing requests before routing (the route depends on the
method), keeps their fields in the scope for the CSRF check and the redirect target,
and hands the same bytes on to the route.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from starlette.requests import HTTPConnection, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.config import Settings
from panel_core.uploads import is_multipart

from .errorpages import error_response
from .errors import PayloadTooLarge

FORM_KEY = "panel.form"
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_OVERRIDES = frozenset({"PUT", "PATCH", "DELETE"})
_FORM = b"application/x-www-form-urlencoded"


def form_value(connection: HTTPConnection, name: str) -> str | None:
    """The last value of field ``name`` in the submitted form, if there was one."""
    pairs: list[tuple[str, str]] = connection.scope.get(FORM_KEY, [])
    values = [value for key, value in pairs if key == name]
    return values[-1] if values else None


def is_form_submission(connection: HTTPConnection) -> bool:
    """Whether the request carried an urlencoded form (what HTML forms send), or a
    record's multipart form (read by ``files.file_body``)."""
    return FORM_KEY in connection.scope


class FormMiddleware:
    """Buffers urlencoded bodies of state-changing requests and applies ``_method``."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.limit = settings.max_body_size

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _is_form(scope):
            _multipart_override(scope)
            await self.app(scope, receive, send)
            return
        try:
            body = await read_buffered(scope, receive, self.limit)
        except PayloadTooLarge as exc:
            await error_response(Request(scope), exc)(scope, receive, send)
            return
        pairs = parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)
        scope[FORM_KEY] = pairs
        override = (form_value(HTTPConnection(scope), "_method") or "").upper()
        if scope["method"] == "POST" and override in _OVERRIDES:
            scope["method"] = override
        await self.app(scope, replayed(body, receive), send)


def _multipart_override(scope: Scope) -> None:
    """A multipart form (a record's files) names its method in the query string,
    ``?_method=PUT``: its body streams to the route unread."""
    if scope["type"] != "http" or scope["method"] != "POST":
        return
    if not is_multipart(dict(scope["headers"]).get(b"content-type", b"").decode()):
        return
    query = parse_qsl(scope.get("query_string", b"").decode("latin-1"))
    override = next((v.upper() for k, v in query if k == "_method"), "")
    if override in _OVERRIDES:
        scope["method"] = override


def _is_form(scope: Scope) -> bool:
    if scope["type"] != "http" or scope["method"] not in UNSAFE_METHODS:
        return False
    headers = dict(scope["headers"])
    media_type = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
    return media_type == _FORM


async def read_buffered(scope: Scope, receive: Receive, limit: int) -> bytes:
    """The whole body of the request, ``PayloadTooLarge`` over ``limit`` bytes."""
    too_large = PayloadTooLarge(f"The request body must not exceed {limit} bytes.")
    declared = dict(scope["headers"]).get(b"content-length", b"")
    if declared.isdigit() and int(declared) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def replayed(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` (read already) to the app first."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay
