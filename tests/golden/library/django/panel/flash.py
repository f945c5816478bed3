"""One-time messages for the next page ("Saved.", "2 records deleted.").

They live in the Django session; without one (JWT mode) there is no next page to show
them on, and nothing is kept.
"""

from __future__ import annotations

from django.http import HttpRequest

_KEY = "_flash"
KINDS = frozenset({"success", "error", "info"})


def flash(request: HttpRequest, message: str, kind: str = "success") -> None:
    """Show ``message`` on the next page this session renders."""
    session = getattr(request, "session", None)
    if session is not None:
        session[_KEY] = [*session.get(_KEY, []), [kind, message]]


def pop_flashes(request: HttpRequest) -> list[tuple[str, str]]:
    """The messages waiting for this session, removed from it."""
    session = getattr(request, "session", None)
    if session is None or _KEY not in session:
        return []
    return [(kind, text) for kind, text in session.pop(_KEY) if kind in KINDS]
