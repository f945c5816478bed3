"""Errors answered in the client's language: JSON to JSON clients, a page otherwise."""

from __future__ import annotations

from fastapi import Request, Response

from panel_core.pages import ERROR_TITLES

from .accept import wants_json
from .errors import InvalidInput, PanelError
from .responses import json_response
from .templating import render


def error_response(request: Request, exc: PanelError) -> Response:
    """``exc`` as JSON ``{"message": …}`` or as the error page, by the Accept header."""
    if wants_json(request):
        return json_response(
            exc.body(), status_code=exc.status_code, headers=exc.headers
        )
    errors = exc.errors if isinstance(exc, InvalidInput) else {}
    return error_page(request, exc.status_code, exc.message, errors, exc.headers)


def error_page(
    request: Request,
    status_code: int,
    message: str,
    errors: dict[str, list[str]] | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    """The error page: a title, the message, and the way back."""
    context = {
        "title": ERROR_TITLES.get(status_code, "Error"),
        "status_code": status_code,
        "message": message,
        "errors": errors or {},
    }
    response = render(request, "panel/error.html", context, status_code=status_code)
    response.headers.update(headers or {})
    return response
