"""Where page requests go next: the one check of targets a request names.

``_redirect`` fields and ``next`` parameters come from the client, so they are used
only when they are a path on this site; anything else (another host, a scheme, a
backslash or control character a browser would read differently) becomes the fallback.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi import Request
from fastapi.responses import RedirectResponse

from .flash import flash
from .formdata import form_value
from .urls import PREFIX


def safe_path(target: str | None, fallback: str = PREFIX) -> str:
    """``target`` when it is a path on this site, else ``fallback``."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return fallback
    if any(c == "\\" or ord(c) < 32 or ord(c) == 127 for c in target):
        return fallback
    try:
        parts = urlsplit(target)
    except ValueError:
        return fallback
    if parts.scheme or parts.netloc:
        return fallback
    return target


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
