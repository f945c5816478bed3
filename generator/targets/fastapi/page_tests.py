"""Context of the FastAPI project's emitted page tests: the API tests' samples, reused.

The page tests post the same valid payload as the API tests, as a form; the cases
they run depend on the resource (a required field to leave out, a text field to fill
with markup, a field to change).
"""

from __future__ import annotations

from typing import Any

from ...model import ir
from ..test_values import assignment
from .api_tests import _list_constants, _required_constants, api_test_context

# Markup that must come back escaped on every page.
SCRIPT = "<script>alert(1)</script>"


def script_field(resource: ir.Resource) -> ir.Field | None:
    """A writable plain-text field that accepts ``SCRIPT`` as its value, if any."""
    for field in resource.fields:
        plain = field.type == "string" and field.format in (None, "text")
        fits = (field.max_length is None or field.max_length >= len(SCRIPT)) and (
            field.min_length is None or field.min_length <= len(SCRIPT)
        )
        writable = not (resource.is_read_only(field) or field.is_key or field.relation)
        if plain and fits and writable and not (field.pattern or field.enum):
            return field
    return None


def pages_test_context(resource: ir.Resource, project: ir.Project) -> dict[str, Any]:
    """Context of ``tests/test_<module>_pages.py``."""
    base = f"/admin/resource/{resource.uri}"
    constants: list[tuple[str, Any]] = [
        ("URI", resource.uri),
        ("URL", f"{base}/crud"),
        ("INDEX_PAGE", f"{base}/index-page"),
        ("FORM_PAGE", f"{base}/form-page"),
        ("DETAIL_PAGE", f"{base}/detail-page"),
        ("KEY", resource.key),
        ("HIDDEN", tuple(f.name for f in resource.fields if f.format == "password")),
        # How the list's message after a delete ends ("Book “Dune” deleted.").
        ("DELETED", "” moved to the trash." if resource.soft_delete else "” deleted."),
    ]
    required = _required_constants(resource)
    patch = [c for c in _list_constants(resource) if c[0].startswith("PATCH_")]
    script = script_field(resource)
    if script is not None:
        constants += [("SCRIPT_FIELD", script.name), ("SCRIPT", SCRIPT)]
    constants += required + patch
    api = api_test_context(resource, project)
    return {
        "resource_name": resource.name,
        "constants": [assignment(name, value) for name, value in constants],
        "parents": api["parents"],
        "payload": api["payload"],
        "files": api["files"],
        "has": {
            "required": bool(required),
            "patch": bool(patch),
            "script": script is not None,
            "uploads": api["files"] is not None,
        },
    }
