"""One-time messages for the next page ("Saved.", "2 records deleted.")."""

from __future__ import annotations

from starlette.requests import HTTPConnection

_KEY = "_flash"
KINDS = frozenset({"success", "error", "info"})


def flash(connection: HTTPConnection, message: str, kind: str = "success") -> None:
    """Show ``message`` on the next page this session renders."""
    if "session" in connection.scope:
        messages = connection.session.get(_KEY, [])
        connection.session[_KEY] = [*messages, [kind, message]]


def pop_flashes(connection: HTTPConnection) -> list[tuple[str, str]]:
    """The messages waiting for this session, removed from it."""
    if "session" not in connection.scope or _KEY not in connection.session:
        return []
    messages = connection.session.pop(_KEY)
    return [(kind, text) for kind, text in messages if kind in KINDS]
