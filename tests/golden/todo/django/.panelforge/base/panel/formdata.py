"""HTML form submissions, and the ``_method`` field standing for PUT, PATCH or DELETE.

Browsers only send GET and POST, so a POST form names the method it stands for in a
``_method`` field, as Laravel's forms do. ``MethodOverrideMiddleware`` applies it
before the CSRF check or any view sees the request, which then reads the form's
fields with ``panel.bodies`` whatever its method.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from panel_core.errors import PayloadTooLarge

from .bodies import form_value, media_type

FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"
_OVERRIDES = frozenset({"PUT", "PATCH", "DELETE"})


def is_form_submission(request: HttpRequest) -> bool:
    """Whether the request carried an urlencoded form (what HTML forms send)."""
    return request.method != "GET" and media_type(request) == FORM


class MethodOverrideMiddleware:
    """Turns a form's POST into the PUT, PATCH or DELETE its ``_method`` names."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and media_type(request) == FORM:
            try:
                override = (form_value(request, "_method") or "").upper()
            except PayloadTooLarge:
                override = ""  # the view answers 413 when it reads the body
            if override in _OVERRIDES:
                request.method = override
        elif request.method == "POST" and media_type(request) == MULTIPART:
            # A multipart form (a record's files) names it in its query string.
            override = request.GET.get("_method", "").upper()
            if override in _OVERRIDES:
                request.method = override
        return self.get_response(request)
