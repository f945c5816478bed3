"""HEAD and OPTIONS for every route (the rules: ``panel_core.http_methods``).

FastAPI routes take only the methods they declare, so HEAD was a 405: here HEAD runs
as GET and the body is dropped on the way out (status and headers, ``Content-Length``
included, stay the GET's). OPTIONS on a path some route has is 204 with ``Allow``;
on any other path it goes on to the router's 404. A GET or HEAD of a route's URL
with a trailing slash is redirected (308) to the URL without; other methods get the
router's 404 (``redirect_slashes=False``).
"""

from __future__ import annotations

from starlette.responses import RedirectResponse, Response
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.config import Settings
from panel_core.http_methods import (
    REDIRECTED,
    allow_header,
    location,
    without_slash,
)
from panel_core.routes import handler_methods

_METHODS = ("DELETE", "GET", "PATCH", "POST", "PUT")


def allowed_methods(scope: Scope) -> list[str]:
    """The methods the app's routes take at the scope's path (none: no such path)."""
    # Starlette names the methods of the first route whose path matched, but a path
    # can have several routes: ask every route about every method instead.
    named = handler_methods(scope["path"])
    if named is not None:  # a handler route takes any method; the handler, its own
        return [method for method in _METHODS if method in named]
    routes = scope["app"].router.routes
    allowed = []
    for method in _METHODS:
        asked = {**scope, "method": method}
        if any(route.matches(asked)[0] is Match.FULL for route in routes):
            allowed.append(method)
    return allowed


def _redirect_target(scope: Scope) -> str | None:
    """The route a GET or HEAD with a trailing slash is redirected to, if any."""
    target = without_slash(scope["path"])
    if target is None or scope["method"] not in REDIRECTED:
        return None
    return target if allowed_methods({**scope, "path": target}) else None


class HttpMethodsMiddleware:
    """Answers OPTIONS with ``Allow``, HEAD as GET without the body, and redirects
    trailing slashes."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        del settings
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        target = _redirect_target(scope)
        if target is not None:
            query = scope["query_string"].decode("latin-1")
            moved = RedirectResponse(location(target, query), status_code=308)
            await moved(scope, receive, send)
        elif method == "OPTIONS":
            await self._options(scope, receive, send)
        elif method == "HEAD":
            await self._head(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _options(self, scope: Scope, receive: Receive, send: Send) -> None:
        methods = allowed_methods(scope)
        if not methods:
            await self.app(scope, receive, send)
            return
        answer = Response(status_code=204, headers={"Allow": allow_header(methods)})
        await answer(scope, receive, send)

    async def _head(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_without_body)
