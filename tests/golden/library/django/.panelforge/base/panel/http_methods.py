"""HEAD and OPTIONS for every route (the rules: ``panel_core.http_methods``).

The panel's views take only the methods they name, so HEAD was a 405: here HEAD runs
as GET and the body is dropped (status and headers stay the GET's, with the
``Content-Length`` the body had). OPTIONS on a path some route has is 204 with
``Allow``; on any other path it goes on to the 404. A GET or HEAD of a route's URL
with a trailing slash is redirected (308) to the URL without; other methods get the
404 (``APPEND_SLASH = False``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.urls import Resolver404, resolve

from panel_core.http_methods import (
    REDIRECTED,
    allow_header,
    location,
    without_slash,
)
from panel_core.routes import allowed_methods

# The routes outside the panel's table (the OpenAPI docs and spec) are GET only.
_OTHER_ROUTES = ("GET",)


def path_methods(path: str) -> list[str]:
    """The methods the routes at ``path`` take (none: no such path)."""
    found = allowed_methods(path)
    if found:
        return found
    try:
        resolve(path)
    except Resolver404:
        return []
    return list(_OTHER_ROUTES)


def _redirect_target(request: HttpRequest) -> str | None:
    """The route a GET or HEAD with a trailing slash is redirected to, if any."""
    target = without_slash(request.path)
    if target is None or request.method not in REDIRECTED:
        return None
    return target if path_methods(target) else None


class HttpMethodsMiddleware:
    """Answers OPTIONS with ``Allow``, HEAD as GET without the body, and redirects
    trailing slashes."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        target = _redirect_target(request)
        if target is not None:
            query = request.META.get("QUERY_STRING", "")
            moved = HttpResponse(status=308, headers=_moved(target, query))
            del moved["Content-Type"]
            return moved
        if request.method == "OPTIONS":
            return self._options(request)
        if request.method == "HEAD":
            return self._head(request)
        return self.get_response(request)

    def _options(self, request: HttpRequest) -> HttpResponseBase:
        methods = path_methods(request.path)
        if not methods:
            return self.get_response(request)
        answer = HttpResponse(status=204, headers={"Allow": allow_header(methods)})
        del answer["Content-Type"]
        return answer

    def _head(self, request: HttpRequest) -> HttpResponseBase:
        request.method = "GET"
        response = self.get_response(request)
        if isinstance(response, HttpResponse):
            length = len(response.content)
            response.content = b""
            response["Content-Length"] = str(length)
        elif isinstance(response, StreamingHttpResponse):
            response.streaming_content = []
        return response


def _moved(target: str, query: str) -> dict[str, str]:
    return {"Location": location(target, query), "Content-Length": "0"}
