"""One-time messages for the next page ("Saved.", "2 records deleted."), and a
refused form kept for its form page (``panel_core.refused_form``)."""

from __future__ import annotations

from typing import Any

from starlette.requests import HTTPConnection

from panel_core.refused_form import SESSION_KEY, RefusedForm, form_kept_for

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


def keep_refused_form(connection: HTTPConnection, kept: dict[str, Any] | None) -> bool:
    """Keep a refused form for its form page's next GET (``panel_core.refused_form``);
    ``False``: there is no session, or nothing to keep (it did not fit)."""
    if kept is None or "session" not in connection.scope:
        return False
    connection.session[SESSION_KEY] = kept
    return True


def take_refused_form(connection: HTTPConnection, page: str) -> RefusedForm | None:
    """The refused form kept for the form page at ``page``, removed from the session
    (any form page's GET removes a kept form, whichever page it was kept for)."""
    if "session" not in connection.scope or SESSION_KEY not in connection.session:
        return None
    return form_kept_for(connection.session.pop(SESSION_KEY), page)
