"""Cross-site request forgery: logged-in changes must carry the session's token.

Every POST, PUT, PATCH and DELETE of a logged-in session sends the token the session
holds, in an ``X-CSRF-Token`` header (scripts, JSON clients) or a ``_token`` form field
(HTML forms); otherwise the answer is 403 "CSRF token mismatch.". Async methods
(``/admin/method/…``) need it on every HTTP method, GET included. Pages carry the
token in ``<meta name="csrf-token">``; ``POST /admin/authenticate`` returns it to JSON
clients.

Requests without a logged-in session pass: every route but the login needs one, so they
are refused 401 there. The login form checks its token itself (``valid_token``), and a
JSON login needs none, since no other site can send JSON without a CORS preflight.

A multipart form (the CSV upload of the index page) carries ``_token`` too: its body,
up to ``MAX_IMPORT_SIZE`` bytes, is read here to find it, then handed on to the route.
"""

from __future__ import annotations

import hmac
from collections.abc import AsyncIterator
from functools import lru_cache

from starlette.datastructures import Headers
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import HTTPConnection, Request
from starlette.types import ASGIApp, Receive, Scope, Send

from app.core.config import Settings
from panel_core.imports import MULTIPART
from panel_core.routes import panel_prefix, url_for
from panel_core.translation import gettext

from .auth import USER_KEY
from .errorpages import error_response
from .errors import PanelError, PayloadTooLarge
from .formdata import UNSAFE_METHODS, form_value, read_buffered, replayed
from .sessions import stored_csrf_token

HEADER = "x-csrf-token"
FIELD = "_token"


class CSRFMismatch(PanelError):
    """A state-changing request without the session's CSRF token."""

    status_code = 403

    def __init__(self) -> None:
        super().__init__(gettext("CSRF token mismatch."))


def valid_token(connection: HTTPConnection, sent: str | None = None) -> bool:
    """Whether the request carries the session's token (header or form field, or
    ``sent``: the field of a multipart form)."""
    expected = stored_csrf_token(connection)
    sent = connection.headers.get(HEADER) or form_value(connection, FIELD) or sent
    if not expected or not sent:
        return False
    return hmac.compare_digest(sent.encode(), expected.encode())


def _is_multipart(scope: Scope) -> bool:
    content_type = Headers(scope=scope).get("content-type", "")
    return content_type.split(";")[0].strip().lower() == MULTIPART


async def _multipart_token(headers: Headers, body: bytes) -> str | None:
    """The ``_token`` field of a multipart body, if it has one."""

    async def stream() -> AsyncIterator[bytes]:
        yield body

    # A record's form may carry a file per file field and a part per field.
    parser = MultiPartParser(headers, stream(), max_files=100, max_fields=1000)
    try:
        form = await parser.parse()
    except MultiPartException:
        return None
    try:
        token = form.get(FIELD)
        return token if isinstance(token, str) else None
    finally:
        await form.close()


@lru_cache(maxsize=2)
def _always_checked(prefix: str) -> str:
    del prefix  # the cache's key: url_for reads the panel's prefix itself
    # Async methods may change data whatever the HTTP method, so their route is
    # checked on GET and HEAD too (scripts send the X-CSRF-Token header).
    return url_for("method", {"pageUri": "-"}).removesuffix("-")


def _needs_token(scope: Scope) -> bool:
    return scope["method"] in UNSAFE_METHODS or scope["path"].startswith(
        _always_checked(panel_prefix())
    )


class CSRFMiddleware:
    """Refuses state-changing requests of a logged-in session without its token."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        # The CSV import's or a record's files, whichever may be larger.
        self.upload_limit = max(settings.max_import_size, settings.max_upload_size)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and _needs_token(scope):
            if "session" not in scope:
                raise RuntimeError("CSRFMiddleware needs SessionMiddleware before it")
            connection = HTTPConnection(scope)
            if USER_KEY in connection.session and not valid_token(connection):
                if _is_multipart(scope):
                    await self._multipart(scope, receive, send)
                    return
                await self._refuse(scope, receive, send, CSRFMismatch())
                return
        await self.app(scope, receive, send)

    async def _multipart(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass a multipart form on if its ``_token`` field holds the token."""
        try:
            body = await read_buffered(scope, receive, self.upload_limit)
        except PayloadTooLarge as exc:
            await self._refuse(scope, receive, send, exc)
            return
        sent = await _multipart_token(Headers(scope=scope), body)
        if not valid_token(HTTPConnection(scope), sent):
            await self._refuse(scope, receive, send, CSRFMismatch())
            return
        await self.app(scope, replayed(body, receive), send)

    async def _refuse(
        self, scope: Scope, receive: Receive, send: Send, exc: PanelError
    ) -> None:
        response = error_response(Request(scope), exc)
        await response(scope, receive, send)
