"""Content negotiation: pages by default, JSON for clients that ask for it."""

from __future__ import annotations

from starlette.requests import HTTPConnection


def wants_json(connection: HTTPConnection) -> bool:
    """Whether the client accepts JSON (``application/json`` or ``…+json``)."""
    accept = connection.headers.get("accept", "").lower()
    return "application/json" in accept or "+json" in accept
