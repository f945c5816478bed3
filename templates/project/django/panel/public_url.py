"""Where clients reach the panel, for the JSON answers' absolute links.

The rules are the kernel's (``panel_core.public_url``); this reads them off a Django
request: ``request.scheme`` and ``request.get_host()`` (which follow
``X-Forwarded-Proto`` and ``X-Forwarded-Host`` when ``TRUST_PROXY_HEADERS`` sets
``SECURE_PROXY_SSL_HEADER`` and ``USE_X_FORWARDED_HOST``, the host checked against
``ALLOWED_HOSTS``), the script prefix (``SCRIPT_NAME`` or ``FORCE_SCRIPT_NAME``), and
``X-Forwarded-Prefix`` when trusted.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.urls import get_script_prefix

from panel_core.public_url import public_origin


def public_origin_of(request: HttpRequest) -> str:
    """``scheme://host/prefix`` of ``request``, as its client reached it."""
    trusted = settings.TRUST_PROXY_HEADERS
    return public_origin(
        request.scheme or "http",
        request.get_host(),
        get_script_prefix(),
        request.headers if trusted else None,
    )
