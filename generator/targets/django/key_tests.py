"""Context of the Django project's emitted tests of a composite-key resource.

``tests/test_api.py`` runs on the resources keyed by one field; a resource whose key
is several fields gets ``tests/test_<module>_keys.py``: show, list, update and delete
by the encoded key, and a key stored twice refused.
"""

from __future__ import annotations

from typing import Any

from ...model import ir
from ...model.samples import missing_key, sample_value
from ..pysource import literal
from ..test_values import assignment, distinct_fields, sample


def key_test_context(resource: ir.Resource) -> dict[str, Any]:
    """Context of ``tests/test_<module>_keys.py``."""
    base = f"/admin/resource/{resource.uri}"
    last = resource.field(resource.key_parts[-1])
    changeable = [
        f for f in distinct_fields(resource) if f.name not in resource.key_parts
    ]
    field = next(iter(changeable), None)  # a link table may have none
    patch = (
        [("PATCH_FIELD", field.name), ("PATCH_VALUE", sample(field, 2))]
        if field
        else []
    )
    constants: list[tuple[str, Any]] = [
        ("URI", resource.uri),
        ("URL", f"{base}/crud"),
        ("FORM_PAGE", f"{base}/form-page"),
        ("PARTS", list(resource.key_parts)),
        ("MISSING_KEY", str(missing_key(resource))),
        *patch,
    ]
    return {
        "resource_name": resource.name,
        "constants": [assignment(name, value) for name, value in constants],
        "last_part": literal(last.name),
        "other": None if last.relation else literal(sample_value(last, 2)),
        "has": {"patch": field is not None},
    }
