"""Every error of the project answered alike: JSON ``{"message": …}`` or a page.

Views raise the kernel's exceptions (``panel_core.errors``); ``PanelErrorMiddleware``
answers them, and turns Django's own 405 (a view without the method) into the panel's,
with ``Allow`` naming every method of the path. ``config/urls.py`` points Django's
error handlers here, so unknown paths (404), bodies Django refuses (400 → 413) and
errors raised outside views (500, or a ``PanelError`` a middleware raised) are
answered the same way, never with a traceback. JSON clients get JSON; the pages are
``panel.pages.error_response``'s.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed

from panel_core.errors import (
    MethodNotAllowed,
    NotFound,
    PanelError,
    ServerError,
)
from panel_core.routes import allowed_methods
from panel_core.translation import gettext

from .accept import wants_json
from .bodies import too_large
from .not_migrated import not_migrated_answer
from .responses import json_response
from .unavailable import unavailable_answer


def error_response(request: HttpRequest, exc: PanelError) -> HttpResponse:
    """``exc`` in JSON for JSON clients, else as the panel's page for it."""
    if wants_json(request):
        return json_response(exc.body(), status=exc.status_code, headers=exc.headers)
    from .pages import error_response as page  # pages import this module's peers

    return page(request, exc)


class _BadRequest(PanelError):
    """A request Django refused before any view saw it."""


class PanelErrorMiddleware:
    """Answers the ``PanelError`` a view raises, and 405s, as the panel does."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if isinstance(response, HttpResponseNotAllowed):
            allowed = allowed_methods(request.path) or _allowed(response)
            return error_response(request, MethodNotAllowed(allowed))
        return response

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponse | None:
        """A ``PanelError`` becomes its answer, so does a database error when the
        database does not answer or is not migrated (503); Django handles the rest.
        """
        if isinstance(exception, PanelError):
            return error_response(request, exception)
        return database_error_answer(request, exception)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler404``: no route has this path."""
    del exception
    return error_response(request, NotFound(gettext("Not Found")))


def bad_request(
    request: HttpRequest, exception: Exception | None = None
) -> HttpResponse:
    """``handler400``: a body over Django's limits is 413, as the panel's are."""
    if isinstance(exception, RequestDataTooBig):
        return error_response(request, too_large())
    return error_response(request, _BadRequest("Bad Request"))


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: a ``PanelError`` raised outside a view, or a bug (logged)."""
    exception = sys.exception()
    if isinstance(exception, PanelError):
        return error_response(request, exception)
    return database_error_answer(request, exception) or error_response(
        request, ServerError()
    )


def database_error_answer(
    request: HttpRequest, exception: BaseException | None
) -> HttpResponse | None:
    """503 if ``exception`` is a database error because the database does not answer
    (``panel.unavailable``) or is behind the code (``panel.not_migrated``)."""
    return unavailable_answer(request, exception) or not_migrated_answer(
        request, exception
    )


def _allowed(response: HttpResponse) -> list[str]:
    return sorted(m.strip() for m in response.get("Allow", "").split(",") if m)
