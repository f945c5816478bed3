"""Where clients reach the panel, for the JSON answers' absolute links.

The rules are the kernel's (``panel_core.public_url``); this reads them off a
Starlette request: its scheme (uvicorn's, which takes ``X-Forwarded-Proto`` from
``FORWARDED_ALLOW_IPS``), its ``Host`` and its ``root_path`` (``uvicorn --root-path``),
and the ``X-Forwarded-*`` headers when ``TRUST_PROXY_HEADERS`` is on.
"""

from __future__ import annotations

from starlette.requests import Request

from panel_core.public_url import public_origin


def public_origin_of(request: Request) -> str:
    """``scheme://host/prefix`` of ``request``, as its client reached it."""
    trusted = request.app.state.settings.trust_proxy_headers
    return public_origin(
        request.url.scheme,
        request.url.netloc,
        request.scope.get("root_path", ""),
        request.headers if trusted else None,
    )
