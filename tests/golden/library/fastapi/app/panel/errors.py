"""Panel exceptions, and the handlers answering every error in JSON with a ``message``.

::

    PanelError                 .status_code, .message, .headers
    ├── Unauthenticated        401: nobody (valid) is logged in
    ├── NotAcceptable          406: the client does not accept JSON
    ├── NotFound               404: unknown resource or record
    ├── Conflict               409: other records still refer to this one
    ├── PayloadTooLarge        413
    ├── UnsupportedMediaType   415: neither JSON nor a urlencoded form
    ├── InvalidInput           422: .errors maps a field (or parameter) to its messages
    └── TooManyRequests        429: too many failed logins; retry after .retry_after s
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException
from starlette.routing import Match

from .responses import json_response

_METHODS = ("DELETE", "GET", "HEAD", "PATCH", "POST", "PUT")


class PanelError(Exception):
    """An error answered with ``{"message": ...}`` and its status code."""

    status_code = 400
    headers: dict[str, str] | None = None

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Unauthenticated(PanelError):
    """No user is logged in; ``headers`` go with the 401 (``WWW-Authenticate``)."""

    status_code = 401

    def __init__(self, headers: Mapping[str, str] | None = None) -> None:
        super().__init__("Unauthenticated.")
        self.headers = dict(headers or {})


class NotAcceptable(PanelError):
    """The request does not accept a JSON answer."""

    status_code = 406


class NotFound(PanelError):
    """No such resource, or no such record."""

    status_code = 404


class Conflict(PanelError):
    """The change would break a reference between records."""

    status_code = 409


class PayloadTooLarge(PanelError):
    """The request body is over the configured limit."""

    status_code = 413


class UnsupportedMediaType(PanelError):
    """The body is neither JSON nor ``application/x-www-form-urlencoded``."""

    status_code = 415


class InvalidInput(PanelError):
    """The body or the query string failed validation."""

    status_code = 422

    def __init__(self, errors: Mapping[str, Sequence[str]]) -> None:
        self.errors = {key: list(messages) for key, messages in errors.items()}
        super().__init__(summarize(self.errors))


class TooManyRequests(PanelError):
    """Too many failed logins; ``Retry-After`` says how many seconds to wait."""

    status_code = 429

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            f"Too many login attempts. Please try again in {retry_after} seconds."
        )
        self.retry_after = retry_after
        self.headers = {"Retry-After": str(retry_after)}


def summarize(errors: Mapping[str, Sequence[str]]) -> str:
    """The first message, plus how many others there are: "… (and 2 more errors)"."""
    messages = [message for group in errors.values() for message in group]
    if not messages:
        return "The given data was invalid."
    others = len(messages) - 1
    if others == 0:
        return messages[0]
    noun = "error" if others == 1 else "errors"
    return f"{messages[0]} (and {others} more {noun})"


async def _panel_error(_request: Request, exc: PanelError) -> Response:
    body: dict[str, object] = {"message": exc.message}
    if isinstance(exc, InvalidInput):
        body["errors"] = exc.errors
    return json_response(body, status_code=exc.status_code, headers=exc.headers)


async def _http_error(request: Request, exc: HTTPException) -> Response:
    headers = dict(exc.headers or {})
    if exc.status_code == 405:
        headers["Allow"] = ", ".join(_allowed_methods(request))
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


async def _server_error(_request: Request, _exc: Exception) -> Response:
    return json_response({"message": "Server Error"}, status_code=500)


def _allowed_methods(request: Request) -> list[str]:
    # Starlette names the methods of the first route whose path matched, but a path
    # can have several routes: ask every route about every method instead.
    allowed = []
    for method in _METHODS:
        scope = {**request.scope, "method": method}
        if any(r.matches(scope)[0] is Match.FULL for r in request.app.router.routes):
            allowed.append(method)
    return allowed


def install_error_handlers(app: FastAPI) -> None:
    """Answer every error of ``app`` in JSON with a ``message``."""
    app.add_exception_handler(PanelError, _panel_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _request_validation_error)
    app.add_exception_handler(Exception, _server_error)
