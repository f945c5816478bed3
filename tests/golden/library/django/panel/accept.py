"""Content negotiation: pages by default, JSON for clients that ask for it."""

from __future__ import annotations

from django.http import HttpRequest


def wants_json(request: HttpRequest) -> bool:
    """Whether the client accepts JSON (``application/json`` or ``…+json``)."""
    accept = request.META.get("HTTP_ACCEPT", "").lower()
    return "application/json" in accept or "+json" in accept
