"""Content negotiation (``panel_core.negotiation``): JSON for the API unless the client
prefers a page."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from panel_core.errors import NotAcceptable
from panel_core.negotiation import api_answer, page_refuses

NEITHER = "Send `Accept: application/json`: this URL answers JSON."


def _accept(connection: HTTPConnection) -> str:
    return connection.headers.get("accept", "")


def wants_json(connection: HTTPConnection) -> bool:
    """Whether to answer JSON: the client does not prefer ``text/html``."""
    return api_answer(_accept(connection)) != "html"


def wants_page_json(connection: HTTPConnection) -> bool:
    """Whether a client asking for a page prefers JSON (a 406 then)."""
    return page_refuses(_accept(connection))


def require_acceptable(connection: HTTPConnection) -> None:
    """406 for a client that accepts neither JSON nor a page, before any work."""
    if api_answer(_accept(connection)) is None:
        raise NotAcceptable(NEITHER)
