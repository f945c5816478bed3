"""HEAD and OPTIONS for every route (the rules: ``panel_core.http_methods``).

The panel's views take only the methods they name, so HEAD was a 405: here HEAD runs
as GET and the body is dropped (status and headers stay the GET's, with the
``Content-Length`` the body had). OPTIONS on a path some route has is 204 with
``Allow``; on any other path it goes on to the 404.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.urls import Resolver404, resolve

from panel_core.http_methods import allow_header
from panel_core.routes import allowed_methods

# The routes outside the panel's table (the OpenAPI docs and spec) are GET only.
_OTHER_ROUTES = ("GET",)


def path_methods(request: HttpRequest) -> list[str]:
    """The methods the routes at the request's path take (none: no such path)."""
    found = allowed_methods(request.path)
    if found:
        return found
    try:
        resolve(request.path_info)
    except Resolver404:
        return []
    return list(_OTHER_ROUTES)


class HttpMethodsMiddleware:
    """Answers OPTIONS with ``Allow``, and HEAD as GET without the body."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method == "OPTIONS":
            methods = path_methods(request)
            if not methods:
                return self.get_response(request)
            answer = HttpResponse(status=204, headers={"Allow": allow_header(methods)})
            del answer["Content-Type"]
            return answer
        if request.method != "HEAD":
            return self.get_response(request)
        request.method = "GET"
        response = self.get_response(request)
        if isinstance(response, HttpResponse):
            length = len(response.content)
            response.content = b""
            response["Content-Length"] = str(length)
        elif isinstance(response, StreamingHttpResponse):
            response.streaming_content = []
        return response
