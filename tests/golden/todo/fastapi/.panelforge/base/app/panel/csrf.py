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
"""

from __future__ import annotations

import hmac

from starlette.requests import HTTPConnection, Request
from starlette.types import ASGIApp, Receive, Scope, Send

from app.core.config import Settings
from panel_core.routes import url_for

from .auth import USER_KEY
from .errorpages import error_response
from .errors import PanelError
from .formdata import UNSAFE_METHODS, form_value
from .sessions import stored_csrf_token

HEADER = "x-csrf-token"
FIELD = "_token"


class CSRFMismatch(PanelError):
    """A state-changing request without the session's CSRF token."""

    status_code = 403

    def __init__(self) -> None:
        super().__init__("CSRF token mismatch.")


def valid_token(connection: HTTPConnection) -> bool:
    """Whether the request carries the session's token (header or form field)."""
    expected = stored_csrf_token(connection)
    sent = connection.headers.get(HEADER) or form_value(connection, FIELD)
    if not expected or not sent:
        return False
    return hmac.compare_digest(sent.encode(), expected.encode())


# Async methods may change data whatever the HTTP method, so their route is
# checked on GET and HEAD too (scripts send the X-CSRF-Token header).
_ALWAYS_CHECKED = url_for("method", {"pageUri": "-"}).removesuffix("-")


def _needs_token(scope: Scope) -> bool:
    return scope["method"] in UNSAFE_METHODS or scope["path"].startswith(
        _ALWAYS_CHECKED
    )


class CSRFMiddleware:
    """Refuses state-changing requests of a logged-in session without its token."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        del settings
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and _needs_token(scope):
            if "session" not in scope:
                raise RuntimeError("CSRFMiddleware needs SessionMiddleware before it")
            connection = HTTPConnection(scope)
            if USER_KEY in connection.session and not valid_token(connection):
                response = error_response(Request(scope), CSRFMismatch())
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
