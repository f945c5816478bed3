"""Column facts every target's models share: integer ranges, defaults as code, indexes.

The frameworks spell columns differently, but agree on which columns get an index,
which integer fits 32 bits and what Python value a default is.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
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
    if field.is_decimal and value is not None:
        return f"decimal.Decimal({literal(str(value))})"
    return literal(value)


def is_integer_key(field: ir.Field) -> bool:
    """Whether ``field`` is an integer primary key."""
    return field.is_key and field.type == "integer"


def big_key(field: ir.Field) -> bool:
    """Whether ``field`` is an integer key stored as BIGINT (not an adopted INTEGER)."""
    return is_integer_key(field) and not (field.stored and field.stored.int32)


def int32(field: ir.Field) -> bool:
    """Whether an adopted table stores ``field`` (a key or relation) as INTEGER."""
    return field.stored is not None and field.stored.int32


def naive(field: ir.Field) -> bool:
    """Whether an adopted table stores ``field`` as a timestamp without time zone."""
    return field.stored is not None and field.stored.naive


def indexed(field: ir.Field) -> bool:
    """Whether the column gets an index (on an adopted table: the one it has)."""
    if field.stored is not None:
        return field.stored.index is not None
    # Sorting needs the index; a foreign key needs it when its target is deleted;
    # a unique field's index is what keeps it unique.
    return not field.is_key and (
        field.sortable or field.relation is not None or field.unique
    )


def later_relations(
    resources: Sequence[ir.Resource],
) -> dict[str, tuple[ir.Field, ...]]:
    """The relations of each resource whose target table is made after its own.

    ``resources`` are the tables a migration creates, in that order (relation
    targets first, a cycle broken at a nullable relation: ``creation_order``). Such a
    relation's foreign key is added once both tables exist, and dropped before
    either table is: PostgreSQL refuses a key to a table that is not there.
    """
    pending = {r.name for r in resources}
    found: dict[str, tuple[ir.Field, ...]] = {}
    for resource in resources:
        pending.discard(resource.name)
        later = tuple(f for f in resource.fields if f.relation in pending)
        if later:
            found[resource.name] = later
    return found
