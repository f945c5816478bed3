"""A resource's ``display``: how the panel names its records (M038).

The format is parsed by the panel kernel's own parser (``panel_core/labels.py``), so
a display that passes here is one the emitted project accepts; each placeholder must
name a field the pages show, as a plain value.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import Issue
from ..spec.openapi import load_kernel
from .fieldvalues import field_kind, field_type
from .hints import shown, suggestion_hint
from .yamlnodes import Document

CODE = "M038"
_NOT_SCALAR = ("array", "object")
_HINT = "use a field name, or plain placeholders like '{first_name} {last_name}'"


def display_issues(document: Document, resource: str, spec: Any) -> Iterator[Issue]:
    """A ``display`` the kernel cannot parse, or naming a field it cannot show."""
    options = spec if isinstance(spec, dict) else {}
    display, fields = options.get("display"), options.get("fields")
    if not isinstance(display, str) or not display or not isinstance(fields, dict):
        return
    if "key" not in options:
        fields = {"id": {"type": "integer"}, **fields}
    where = ("resources", resource, "display")
    labels = load_kernel().labels
    try:
        parts = labels.parse_display(display)
    except labels.DisplayError as exc:
        yield document.issue(where, str(exc), CODE, _HINT)
        return
    for name in labels.display_fields(parts):
        problem = _field_problem(resource, fields, name)
        if problem:
            yield document.issue(where, problem[0], CODE, problem[1])


def _field_problem(
    resource: str, fields: Mapping[str, Any], name: str
) -> tuple[str, str | None] | None:
    """Why the field ``name`` cannot name a record, with a hint; None if it can."""
    if name not in fields:
        message = f"names {shown(name)}, which is not a field of '{resource}'"
        hint = suggestion_hint(name, list(fields), f"fields of '{resource}' are")
        return message, hint or _HINT
    spec = fields[name]
    if isinstance(spec, dict) and spec.get("type") in _NOT_SCALAR:
        return f"names '{name}', which holds many values, not one", _HINT
    if field_type(spec) is None:
        return None  # the schema reported it
    if spec.get("format") == "password":
        return f"names '{name}', a password field, which is never shown", None
    if spec.get("relation") is not None:
        message = f"names '{name}', {field_kind(spec)}: it would show a key"
        return message, "name a field of the record itself"
    return None
