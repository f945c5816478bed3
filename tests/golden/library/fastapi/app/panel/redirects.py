"""Where page requests go next.

``_redirect`` fields and ``next`` parameters come from the client, so they are used
only when the kernel's ``safe_path`` accepts them (a path on this site).
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import RedirectResponse

from panel_core.urls import safe_path

from .flash import flash
from .formdata import form_value


def see_other(url: str) -> RedirectResponse:
    """A 303 to ``url``: the browser follows it with a GET."""
    return RedirectResponse(url, status_code=303)


def back(
    request: Request, fallback: str, message: str, kind: str = "success"
) -> RedirectResponse:
    """Flash ``message``, then go to the form's ``_redirect`` (if safe) or ``fallback``."""
    flash(request, message, kind)
    target = form_value(request, "_redirect") or request.query_params.get("_redirect")
    return see_other(safe_path(target, fallback))
