"""One-time messages for the next page ("Saved.", "2 records deleted."), and a
refused form kept for its form page (``panel_core.refused_form``).

They live in the Django session; without one (JWT mode) there is no next page to show
them on, and nothing is kept.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from panel_core.refused_form import SESSION_KEY, RefusedForm, form_kept_for

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


def keep_refused_form(request: HttpRequest, kept: dict[str, Any] | None) -> bool:
    """Keep a refused form for its form page's next GET (``panel_core.refused_form``);
    ``False``: there is no session, or nothing to keep (it did not fit)."""
    session = getattr(request, "session", None)
    if kept is None or session is None:
        return False
    session[SESSION_KEY] = kept
    return True


def take_refused_form(request: HttpRequest, page: str) -> RefusedForm | None:
    """The refused form kept for the form page at ``page``, removed from the session
    (any form page's GET removes a kept form, whichever page it was kept for)."""
    session = getattr(request, "session", None)
    if session is None or SESSION_KEY not in session:
        return None
    return form_kept_for(session.pop(SESSION_KEY), page)
