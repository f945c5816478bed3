"""Content negotiation (``panel_core.negotiation``): JSON for the API unless the client
prefers a page."""

from __future__ import annotations

from django.http import HttpRequest

from panel_core.errors import NotAcceptable
from panel_core.negotiation import api_answer, page_refuses

NEITHER = "Send `Accept: application/json`: this URL answers JSON."


def _accept(request: HttpRequest) -> str:
    return str(request.META.get("HTTP_ACCEPT", ""))


def wants_json(request: HttpRequest) -> bool:
    """Whether to answer JSON: the client does not prefer ``text/html``."""
    return api_answer(_accept(request)) != "html"


def wants_page_json(request: HttpRequest) -> bool:
    """Whether a client asking for a page prefers JSON (a 406 then)."""
    return page_refuses(_accept(request))


def require_acceptable(request: HttpRequest) -> None:
    """406 for a client that accepts neither JSON nor a page, before any work."""
    if api_answer(_accept(request)) is None:
        raise NotAcceptable(NEITHER)
