"""Content negotiation (``panel_core.negotiation``): JSON for the API unless the client
prefers a page; pages unless the client asks for JSON."""

from __future__ import annotations

from django.http import HttpRequest

from panel_core import negotiation
from panel_core.errors import NotAcceptable

NEITHER = "Send `Accept: application/json`: this URL answers JSON."


def _accept(request: HttpRequest) -> str:
    return str(request.META.get("HTTP_ACCEPT", ""))


def wants_json(request: HttpRequest) -> bool:
    """Whether to answer JSON: on the API unless ``text/html`` is preferred, on
    other URLs when JSON is asked for."""
    return negotiation.wants_json(_accept(request), request.path)


def wants_page_json(request: HttpRequest) -> bool:
    """Whether a client asking for a page prefers JSON (a 406 then)."""
    return negotiation.page_wants_json(_accept(request))


def require_acceptable(request: HttpRequest) -> None:
    """406 for a client that accepts neither JSON nor a page, before any work."""
    if negotiation.api_answer(_accept(request)) is None:
        raise NotAcceptable(NEITHER)
