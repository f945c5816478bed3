"""Context of the FastAPI project's emitted tests for a composite-key resource.

A record of such a resource is named by all its key's parts in one URL segment (the
kernel's codec: ``3,17``), so its tests are not the one-field key's: they create a
record and a second one with another key (another record of a relation part, or
another value of a plain part), and show, list, update and delete them by their
encoded keys; a pair stored twice is refused.
"""

from __future__ import annotations

from typing import Any

from ...model import ir
from ...model.samples import missing_key, sample_value
from ..pysource import call, literal
from ..test_values import assignment, distinct_fields, sample
from .api_tests import _relation_items, api_test_context


def _another_part(resource: ir.Resource, project: ir.Project) -> str:
    """The expression of a key part's value unlike the payload's: its last part,
    a new record of the relation's target or the part's second sample value."""
    part = resource.field(resource.key_parts[-1])
    if not part.relation:
        return literal(sample_value(part, 2))
    target = project.resource(part.relation)
    constant = target.module.upper() + "_PAYLOAD"
    relations = _relation_items(target, project, every=False)
    body = (
        "{**" + constant + ", " + ", ".join(relations) + "}" if relations else constant
    )
    made = call("create", ["client", literal(target.uri), body], indent=1)
    return f"{made}[{literal(target.key)}]"


def composite_test_context(
    resource: ir.Resource, project: ir.Project
) -> dict[str, Any]:
    """Context of ``tests/test_<module>_api.py`` and ``…_pages.py`` for a resource
    whose key is several fields."""
    base = f"/admin/resource/{resource.uri}"
    changeable = [
        f for f in distinct_fields(resource) if f.name not in resource.key_parts
    ]
    patch = (
        [
            ("PATCH_FIELD", field.name),
            ("PATCH_VALUE", sample(field, 2)),
        ]
        if (field := next(iter(changeable), None))
        else []
    )
    constants: list[tuple[str, Any]] = [
        ("URI", resource.uri),
        ("URL", f"{base}/crud"),
        ("FORM_PAGE", f"{base}/form-page"),
        ("DETAIL_PAGE", f"{base}/detail-page"),
        ("INDEX_PAGE", f"{base}/index-page"),
        ("LABEL", resource.model_name),
        ("PARTS", list(resource.key_parts)),
        ("MISSING_KEY", str(missing_key(resource))),
        *patch,
    ]
    api = api_test_context(resource, project)
    return {
        "resource_name": resource.name,
        "constants": [assignment(name, value) for name, value in constants],
        "parents": api["parents"],
        "payload": api["payload"],
        "another_part": _another_part(resource, project),
        "last_part": literal(resource.key_parts[-1]),
        "has": {"patch": bool(patch)},
    }
