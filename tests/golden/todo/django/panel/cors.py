"""CORS for the front ends ``CORS_ORIGINS`` lists (the rules: ``panel_core.cors``).

Preflights from a listed origin are answered here, before the view; every other answer
gets the origin's CORS headers on the way out, and ``Vary: Origin``. Not used (Django
drops it) when no origin is listed.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.http import HttpRequest, HttpResponse

from panel_core.cors import Cors, add_vary


class CorsMiddleware:
    """Answers preflights and adds the CORS headers for the listed origins."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.cors = Cors(tuple(settings.CORS_ORIGINS))
        if not self.cors.enabled:
            raise MiddlewareNotUsed

    def __call__(self, request: HttpRequest) -> HttpResponse:
        origin = request.headers.get("Origin")
        requested = request.headers.get("Access-Control-Request-Method")
        if self.cors.is_preflight(request.method or "", origin, requested):
            assert origin is not None
            response = HttpResponse(status=204)
            for name, value in self.cors.preflight_headers(origin):
                response[name] = value
            response["Vary"] = add_vary(None)
            return response
        response = self.get_response(request)
        for name, value in self.cors.response_headers(origin):
            response[name] = value
        response["Vary"] = add_vary(response.get("Vary"))
        return response
