"""What the error page shows: a title, the message, and ways on from there.

Both frameworks render ``panel/error.html`` with this context. A field's error that
only repeats the message is not listed again; a delete the rules refused lists what
refers to the record, each resource linked to its list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .pages import ERROR_TITLES
from .translation import gettext, gettext_noop
from .urls import page_url


def error_context(
    status: int,
    message: str,
    errors: Mapping[str, Sequence[str]] | None = None,
    references: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The error page's context for an answer of ``status``."""
    shown = {
        name: [text for text in texts if text != message]
        for name, texts in (errors or {}).items()
    }
    return {
        "title": gettext(ERROR_TITLES.get(status, gettext_noop("Error"))),
        "status_code": status,
        "message": message,
        "errors": {name: texts for name, texts in shown.items() if texts},
        "references": [
            {**entry, "url": page_url(entry["resource"], "index-page")}
            for entry in references
        ],
    }
