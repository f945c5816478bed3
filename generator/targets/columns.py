"""Column facts every target's models share: integer ranges, defaults as code, indexes.

The frameworks spell columns differently, but agree on which columns get an index,
which integer fits 32 bits and what Python value a default is.
"""

from __future__ import annotations

import datetime
from typing import Any

from ..model import ir
from .pysource import literal

_INT32 = (-(2**31), 2**31 - 1)


def fits_int32(low: Any, high: Any) -> bool:
    """Whether both bounds are known and the range fits a 32-bit integer."""
    return (
        low is not None and high is not None and _INT32[0] <= low <= high <= _INT32[1]
    )


def default_code(field: ir.Field) -> str | None:
    """Python source of the value a new record gets when the body names no value."""
    if field.has_default:
        return _value_code(field, field.default)
    if field.format == "uuid" and (field.read_only or field.is_key):
        return "uuid.uuid4"
    return None


def _value_code(field: ir.Field, value: Any) -> str:
    if isinstance(value, str) and field.format == "date":
        parsed = datetime.date.fromisoformat(value)
        return f"datetime.date({parsed.year}, {parsed.month}, {parsed.day})"
    if isinstance(value, str) and field.format == "date-time":
        return f"datetime.datetime.fromisoformat({literal(value)})"
    if isinstance(value, str) and field.format == "uuid":
        return f"uuid.UUID({literal(value)})"
    return literal(value)


def is_integer_key(field: ir.Field) -> bool:
    """Whether ``field`` is an integer primary key."""
    return field.is_key and field.type == "integer"


def indexed(field: ir.Field) -> bool:
    """Whether the column gets an index."""
    # Sorting needs the index; a foreign key needs it when its target is deleted;
    # a unique field's index is what keeps it unique.
    return not field.is_key and (
        field.sortable or field.relation is not None or field.unique
    )
