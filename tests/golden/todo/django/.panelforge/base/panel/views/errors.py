"""The answer to a request Django's CSRF check refuses (``CSRF_FAILURE_VIEW``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from panel_core.errors import PanelError
from panel_core.translation import gettext

from ..errors import error_response


class CSRFMismatch(PanelError):
    """A state-changing request without the session's CSRF token."""

    status_code = 403

    def __init__(self) -> None:
        super().__init__(gettext("CSRF token mismatch."))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """403 "CSRF token mismatch.": JSON for JSON clients, the error page otherwise."""
    del reason  # Django's wording; the panel's clients know one message
    return error_response(request, CSRFMismatch())
