"""The handlers answering every panel error in JSON with a ``message``.

The exceptions themselves are the kernel's (``panel_core/errors.py``), shared with the
Django panels; they are re-exported here.
"""

from __future__ import annotations

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException

from panel_core.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    NotAcceptable,
    NotFound,
    PanelError,
    PayloadTooLarge,
    PreconditionFailed,
    PreconditionRequired,
    TooManyRequests,
    Unauthenticated,
    UnsupportedMediaType,
    summarize,
)
from panel_core.http_methods import allow_header

from .http_methods import allowed_methods
from .responses import json_response

__all__ = [
    "Conflict",
    "Forbidden",
    "InvalidInput",
    "NotAcceptable",
    "NotFound",
    "PanelError",
    "PayloadTooLarge",
    "PreconditionFailed",
    "PreconditionRequired",
    "TooManyRequests",
    "Unauthenticated",
    "UnsupportedMediaType",
    "install_error_handlers",
    "summarize",
]


async def _panel_error(_request: Request, exc: PanelError) -> Response:
    return json_response(exc.body(), status_code=exc.status_code, headers=exc.headers)


async def _http_error(request: Request, exc: HTTPException) -> Response:
    headers = dict(exc.headers or {})
    if exc.status_code == 405:
        headers["Allow"] = allow_header(allowed_methods(request.scope))
    return json_response(
        {"message": exc.detail}, status_code=exc.status_code, headers=headers
    )


async def _request_validation_error(
    request: Request, exc: RequestValidationError
) -> Response:
    errors: dict[str, list[str]] = {}
    for error in exc.errors():
        key = str(error["loc"][-1]) if error["loc"] else "body"
        errors.setdefault(key, []).append(error["msg"])
    return await _panel_error(request, InvalidInput(errors))


async def _server_error(request: Request, exc: Exception) -> Response:
    # A database error raised outside the routes (say, in a middleware) may still
    # mean the database does not answer, or is behind the code: 503.
    from .not_migrated import database_error_answer  # it imports this module's peers

    answer = await database_error_answer(request, exc)
    if answer is not None:
        return answer
    return json_response({"message": "Server Error"}, status_code=500)


def install_error_handlers(app: FastAPI) -> None:
    """Answer every error of ``app`` in JSON with a ``message``."""
    app.add_exception_handler(PanelError, _panel_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _request_validation_error)
    app.add_exception_handler(Exception, _server_error)
