"""Sample values the emitted tests of every framework send and compare.

Each value is what the API accepts for a field and writes back (``sample``), chosen
by ``model.samples``; ``assignment`` writes one as a module constant of a
test file, laid out as black would.
"""

from __future__ import annotations

import datetime
from typing import Any

from ..model import ir
from ..model.samples import sample_value
from .pysource import LINE_LENGTH, exploded, literal

# Samples asked for again and again per resource, by the field object itself (kept
# alive here, so its id is not reused): equal fields may still differ (1 vs 1.0).
_SAMPLES: dict[tuple[int, int], tuple[ir.Field, Any]] = {}


def sample(field: ir.Field, n: int = 1) -> Any:
    """A value the API accepts for ``field``, written as the API writes it back."""
    found = _SAMPLES.get((id(field), n))
    if found is None:
        if len(_SAMPLES) > 100_000:
            _SAMPLES.clear()
        found = _SAMPLES[(id(field), n)] = (field, _sample(field, n))
    return found[1]


def _sample(field: ir.Field, n: int) -> Any:
    value = sample_value(field, n)
    if field.format == "date-time" and isinstance(value, str):
        parsed = datetime.datetime.fromisoformat(value)
        if parsed.tzinfo is None:
            value = parsed.replace(tzinfo=datetime.UTC).isoformat()
    return value


def sampled_fields(resource: ir.Resource) -> list[ir.Field]:
    """Writable, non-relation fields that have a sample value."""
    return [
        f
        for f in resource.fields
        if not (resource.is_read_only(f) or f.is_key or f.relation)
        and sample(f) is not None
    ]


def distinct_fields(resource: ir.Resource) -> list[ir.Field]:
    """Sampled fields whose first two samples differ and come back as sent."""
    return [
        f
        for f in sampled_fields(resource)
        if f.format != "password" and sample(f, 1) != sample(f, 2)
    ]


def assignment(name: str, value: Any) -> str:
    """``name = value`` as black lays it out (a long list or tuple exploded)."""
    line = f"{name} = {literal(value)}"
    if len(line) <= LINE_LENGTH or not isinstance(value, list | tuple):
        return line
    opening, closing = ("(", ")") if isinstance(value, tuple) else ("[", "]")
    items = [literal(v) for v in value]
    return exploded(f"{name} = {opening}", items, closing, indent=0)
