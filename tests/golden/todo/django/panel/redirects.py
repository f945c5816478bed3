"""Where page requests go next: 303 see-other, and back to a form's ``_redirect``.

``_redirect`` fields come from the client, so they are used only when the kernel's
``safe_path`` accepts them (a path on this site).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from panel_core.urls import safe_path

from .bodies import form_value
from .flash import flash


def see_other(url: str) -> HttpResponse:
    """A 303 to ``url``: the browser follows it with a GET."""
    response = HttpResponse(
        status=303, headers={"Location": url, "Content-Length": "0"}
    )
    # An empty redirect has no type (as in the FastAPI panels).
    del response["Content-Type"]
    return response


def back(
    request: HttpRequest, fallback: str, message: str, kind: str = "success"
) -> HttpResponse:
    """Flash ``message``, then go to the form's ``_redirect`` (if safe) or ``fallback``."""
    flash(request, message, kind)
    target = form_value(request, "_redirect") or request.GET.get("_redirect")
    return see_other(safe_path(target, fallback))
