"""Errors answered in the client's language: JSON to JSON clients, a page otherwise."""

from __future__ import annotations

from typing import Any

from fastapi import Request, Response

from panel_core.error_page import error_context
from panel_core.errors import Referenced

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
    references = exc.references if isinstance(exc, Referenced) else []
    return error_page(
        request, exc.status_code, exc.message, errors, exc.headers, references
    )


def error_page(
    request: Request,
    status_code: int,
    message: str,
    errors: dict[str, list[str]] | None = None,
    headers: dict[str, str] | None = None,
    references: list[dict[str, Any]] | None = None,
) -> Response:
    """The error page: a title, the message, and the way back."""
    context = error_context(status_code, message, errors, references or [])
    response = render(request, "panel/error.html", context, status_code=status_code)
    response.headers.update(headers or {})
    return response
