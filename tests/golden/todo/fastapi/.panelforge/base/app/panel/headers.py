"""Security headers on every answer (FastAPI and Starlette add none by themselves).

Frames are refused, types are not sniffed, other sites see no referrer. Everything but
the static files is ``no-store``: pages show private data and carry a CSRF token. Over
https, browsers are told to stay on https.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.config import Settings

from .templating import STATIC_URL

_ALWAYS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
_HSTS = "max-age=31536000"


class SecurityHeadersMiddleware:
    """Adds the security headers to every HTTP response."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        del settings
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = scope["path"].startswith(STATIC_URL + "/")
        secure = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in _ALWAYS.items():
                    headers.setdefault(name, value)
                if not static:
                    headers.setdefault("Cache-Control", "no-store")
                if secure:
                    headers.setdefault("Strict-Transport-Security", _HSTS)
            await send(message)

        await self.app(scope, receive, send_with_headers)
