"""Panel exceptions: every error the panel answers, with its status and message.

::

    PanelError                 .status_code, .message, .headers
    ├── Unauthenticated        401: nobody (valid) is logged in
    ├── Forbidden              403: the user may not do this (``can()`` said no)
    ├── NotAcceptable          406: the client does not accept JSON
    ├── NotFound               404: unknown resource or record
    ├── MethodNotAllowed       405: the path takes other methods (``Allow``)
    ├── Conflict               409: other records still refer to this one
    │   └── Referenced         409: a delete rule (restrict) refuses; .references
    ├── PreconditionFailed     412: the record changed since the client loaded it
    ├── PayloadTooLarge        413
    ├── UnsupportedMediaType   415: neither JSON nor a urlencoded form
    ├── InvalidInput           422: .errors maps a field (or parameter) to its messages
    ├── PreconditionRequired   428: the settings require ``If-Match`` on writes
    ├── TooManyRequests        429: too many failed logins; retry after .retry_after s
    ├── ServerError            500: a bug; the answer never shows its traceback
    └── DatabaseUnavailable    503: the database does not answer; retry after a while

Each framework answers them its own way (JSON ``{"message": ...}``, or a page), with
the same statuses and messages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .http_methods import allow_header
from .translation import gettext


class PanelError(Exception):
    """An error answered with ``{"message": ...}`` and its status code."""

    status_code = 400
    headers: dict[str, str] | None = None

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def body(self) -> dict[str, object]:
        """The JSON answer: ``{"message": ...}`` (and ``errors`` for invalid input)."""
        return {"message": self.message}


class Unauthenticated(PanelError):
    """No user is logged in; ``headers`` go with the 401 (``WWW-Authenticate``)."""

    status_code = 401

    def __init__(self, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(gettext("Unauthenticated."))
        self.headers = dict(headers or {})


class Forbidden(PanelError):
    """The user is logged in but may not do this; the message may say why."""

    status_code = 403

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or gettext("This action is unauthorized."))


class NotAcceptable(PanelError):
    """The request does not accept a JSON answer."""

    status_code = 406


class NotFound(PanelError):
    """No such resource, or no such record."""

    status_code = 404


class MethodNotAllowed(PanelError):
    """The path exists, but not for this method; ``Allow`` lists the methods it takes
    (with HEAD and OPTIONS, which every path answers)."""

    status_code = 405

    def __init__(self, allowed: Sequence[str]) -> None:
        super().__init__(gettext("Method Not Allowed"))
        self.headers = {"Allow": allow_header(allowed)}


class Conflict(PanelError):
    """The change would break a reference between records."""

    status_code = 409


class Referenced(Conflict):
    """A delete refused by ``restrict`` references: what refers, and how many."""

    def __init__(self, message: str, references: Sequence[Mapping[str, Any]]) -> None:
        super().__init__(message)
        self.references = [dict(entry) for entry in references]

    def body(self) -> dict[str, object]:
        """The message and, by resource, how many records refer."""
        return {"message": self.message, "references": self.references}


class PreconditionFailed(PanelError):
    """The record is no longer the version the client loaded (``If-Match``)."""

    status_code = 412

    def __init__(self) -> None:
        super().__init__(gettext("The record changed since you loaded it."))


class PreconditionRequired(PanelError):
    """A write of one record came without ``If-Match``, which the settings require."""

    status_code = 428

    def __init__(self) -> None:
        super().__init__(
            "Send If-Match with the record's ETag: this panel requires it to change "
            "or delete a record."
        )


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

    def body(self) -> dict[str, object]:
        """The message and, by field, every message."""
        return {"message": self.message, "errors": self.errors}


class TooManyRequests(PanelError):
    """Too many failed logins; ``Retry-After`` says how many seconds to wait."""

    status_code = 429

    def __init__(self, retry_after: int) -> None:
        message = gettext(
            "Too many login attempts. Please try again in %(seconds)s seconds."
        )
        super().__init__(message % {"seconds": retry_after})
        self.retry_after = retry_after
        self.headers = {"Retry-After": str(retry_after)}


class ServerError(PanelError):
    """Something failed that the client cannot fix."""

    status_code = 500

    def __init__(self) -> None:
        super().__init__(gettext("Server Error"))


class DatabaseUnavailable(PanelError):
    """The database does not answer (down, unreachable, refusing the login)."""

    status_code = 503

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            gettext("The database is not available. Please try again in a moment.")
        )
        self.headers = {"Retry-After": str(retry_after)}


def summarize(errors: Mapping[str, Sequence[str]]) -> str:
    """The first message, plus how many others there are: "… (and 2 more errors)"."""
    messages = [message for group in errors.values() for message in group]
    if not messages:
        return gettext("The given data was invalid.")
    others = len(messages) - 1
    if others == 0:
        return messages[0]
    noun = "error" if others == 1 else "errors"
    return f"{messages[0]} (and {others} more {noun})"
