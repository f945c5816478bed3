"""A refused form save, sent back to its form page (post/redirect/get).

A browser's create or edit form that a save refuses (invalid input, a unique value
taken, a refused upload: 422; the record changed meanwhile: 409) is answered with a
303 to its form page, so reloading that page never posts the form again. What the page
shows again travels in the session, for one GET: the values sent, the errors, the
version the user started from and whether someone else changed the record. A reload
of the form page then shows it afresh (the record's values, or a new record's
defaults), as after any other one-time message.

Never kept: a secret field's value (passwords; the form never shows one anyway) and
files (a browser cannot be handed a file back: a file field that had one chosen says
to choose it again). The FastAPI panels' sessions live in a signed cookie, which
browsers keep to about 4 KB: a form whose kept JSON exceeds ``KEPT_LIMIT`` bytes (a
long text) is not kept, and is shown again in the answer to the save itself (422 or
409), as every refused form is where there is no session (JWT mode).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import fields as kernel
from .forms import submitted_values
from .resource import Resource
from .translation import gettext, gettext_noop

# The session's key of the kept form.
SESSION_KEY = "_refused_form"
# The most bytes of JSON a kept form may take (ASCII-escaped, as a cookie holds it).
KEPT_LIMIT = 2048
CHOOSE_AGAIN = gettext_noop("The file was not saved: choose it again.")


@dataclass(frozen=True)
class RefusedForm:
    """What a refused form shows again: values, errors, version, ``changed``."""

    values: dict[str, str]
    errors: dict[str, list[str]] = field(default_factory=dict)
    version: str | None = None
    changed: bool = False

    @property
    def status(self) -> int:
        """The status of the form shown in the answer to the save itself."""
        return 409 if self.changed else 422


def refused_form(
    resource: type[Resource],
    pairs: Sequence[tuple[str, str]],
    errors: Mapping[str, Sequence[str]],
    *,
    uploaded: Collection[str] = (),
    version: str | None = None,
    changed: bool = False,
) -> RefusedForm:
    """The form sent as ``pairs``, refused with ``errors``; ``uploaded``: the file
    fields it carried a file for (not saved, so to be chosen again)."""
    kept_errors = {name: list(messages) for name, messages in errors.items()}
    for spec in kernel.file_fields(resource.writable_fields):
        if spec.name in uploaded and not kept_errors.get(spec.name):
            kept_errors[spec.name] = [gettext(CHOOSE_AGAIN)]
    values = submitted_values(resource, pairs)
    return RefusedForm(values, kept_errors, version, changed)


def _never_kept(resource: type[Resource]) -> set[str]:
    secret = {f.name for f in resource.fields if f.write_only}
    return secret | {f.name for f in kernel.file_fields(resource.fields)}


def kept_form(
    resource: type[Resource], form: RefusedForm, page: str
) -> dict[str, Any] | None:
    """What the session keeps of ``form`` for the form page at ``page`` (``None``:
    more than ``KEPT_LIMIT`` bytes)."""
    never = _never_kept(resource)
    data = {
        "page": page,
        "values": {k: v for k, v in form.values.items() if k not in never},
        "errors": form.errors,
        "version": form.version,
        "changed": form.changed,
    }
    size = len(json.dumps(data, separators=(",", ":")).encode())
    return data if size <= KEPT_LIMIT else None


def _strings(found: Any) -> bool:
    return isinstance(found, dict) and all(isinstance(k, str) for k in found)


def form_kept_for(data: Any, page: str) -> RefusedForm | None:
    """The refused form the session kept for the form page at ``page`` (``None``:
    none, or another page's)."""
    if not isinstance(data, dict) or data.get("page") != page:
        return None
    values, errors = data.get("values"), data.get("errors")
    if not (_strings(values) and _strings(errors)):
        return None
    version = data.get("version")
    return RefusedForm(
        {k: str(v) for k, v in values.items()},
        {k: [str(m) for m in ms] for k, ms in errors.items() if isinstance(ms, list)},
        version if isinstance(version, str) else None,
        data.get("changed") is True,
    )
