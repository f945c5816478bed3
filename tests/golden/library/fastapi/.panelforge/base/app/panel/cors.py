"""CORS for the front ends ``CORS_ORIGINS`` lists (the rules: ``panel_core.cors``).

Preflights from a listed origin are answered here, before routing; every other answer
gets the origin's CORS headers on the way out, and ``Vary: Origin``.
"""

from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.config import Settings
from panel_core.cors import Cors, add_vary, parse_origins


class CorsMiddleware:
    """Answers preflights and adds the CORS headers for the listed origins."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.cors = Cors(parse_origins(settings.cors_origins))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Headers(scope=scope)
        origin = request.get("origin")
        requested = request.get("access-control-request-method")
        if self.cors.is_preflight(scope["method"], origin, requested):
            assert origin is not None
            headers = dict(self.cors.preflight_headers(origin))
            headers["Vary"] = add_vary(None)
            await Response(status_code=204, headers=headers)(scope, receive, send)
            return
        added = self.cors.response_headers(origin)

        async def send_with_cors(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in added:
                    headers[name] = value
                headers["Vary"] = add_vary(headers.get("vary"))
            await send(message)

        await self.app(scope, receive, send_with_cors)
