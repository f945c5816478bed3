"""Content negotiation (``panel_core.negotiation``): JSON for the API unless the client
prefers a page; pages unless the client asks for JSON."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from panel_core import negotiation
from panel_core.errors import NotAcceptable

NEITHER = "Send `Accept: application/json`: this URL answers JSON."


def _accept(connection: HTTPConnection) -> str:
    return connection.headers.get("accept", "")


def wants_json(connection: HTTPConnection) -> bool:
    """Whether to answer JSON: on the API unless ``text/html`` is preferred, on
    other URLs when JSON is asked for."""
    return negotiation.wants_json(_accept(connection), connection.url.path)


def wants_page_json(connection: HTTPConnection) -> bool:
    """Whether a client asking for a page prefers JSON (a 406 then)."""
    return negotiation.page_wants_json(_accept(connection))


def require_acceptable(connection: HTTPConnection) -> None:
    """406 for a client that accepts neither JSON nor a page, before any work."""
    if negotiation.api_answer(_accept(connection)) is None:
        raise NotAcceptable(NEITHER)
