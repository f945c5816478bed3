"""Valid example values for manifest fields, for emitted tests and our e2e tests.

Values are deterministic for a given ``n`` and vary with it, so several records of one
resource differ (unique searches, sorts and filters have something to find).
"""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any
from urllib.parse import quote

from . import ir
from .patterns import engine_search

_FORMAT_SAMPLES = {
    "date": lambda n: f"2024-01-{n % 28 + 1:02d}",
    "date-time": lambda n: f"2024-01-{n % 28 + 1:02d}T10:{n % 60:02d}:00",
    "email": lambda n: f"user{n}@example.com",
    "uri": lambda n: f"https://example.com/item/{n}",
    "uuid": lambda n: str(uuid.UUID(int=n + 1)),
    "password": lambda n: f"correct-horse-{n}-battery",
    "text": lambda n: f"A longer text, number {n}.",
}


def _clamp(value: Any, field: ir.Field) -> Any:
    if field.minimum is not None:
        value = max(value, field.minimum)
    if field.maximum is not None:
        value = min(value, field.maximum)
    return value


def _pattern_sample(field: ir.Field, n: int) -> str | None:
    width = field.max_length or field.min_length or 13
    candidates = [
        str(n).zfill(width)[-width:],
        f"sample{n}",
        "a" * max(1, field.min_length or 1),
        "A1",
    ]
    for candidate in candidates:
        if field.pattern and engine_search(field.pattern, candidate):
            return candidate
    return None


def _string_sample(field: ir.Field, n: int) -> str | None:
    if field.is_file:  # uploaded as a file, never sent as a value
        return None
    if field.pattern:
        return _pattern_sample(field, n)
    text = _FORMAT_SAMPLES.get(field.format or "", lambda k: f"{field.label} {k}")(n)
    if field.min_length and len(text) < field.min_length:
        text = text.ljust(field.min_length, "x")
    if field.max_length is not None:
        text = text[: field.max_length]
    return text


def sample_value(field: ir.Field, n: int = 1) -> Any:
    """A value the API must accept for ``field`` (None when none can be made up)."""
    if field.enum:
        return field.enum[n % len(field.enum)]
    if field.type == "boolean":
        return n % 2 == 0
    if field.type == "integer":
        return int(_clamp(n, field))
    if field.is_decimal:
        return _decimal_sample(field, n)
    if field.type == "number":
        return float(_clamp(n + 0.5, field))
    return _string_sample(field, n)


def _decimal_sample(field: ir.Field, n: int) -> str:
    """A decimal as JSON gives it: text with the field's decimals (``"1.50"``)."""
    precision, scale = field.precision or 15, field.scale or 0
    largest = Decimal(10) ** (precision - scale) - Decimal(1).scaleb(-scale)
    value = min(_clamp(Decimal(n) + Decimal("0.5"), field), largest)
    return format(value.quantize(Decimal(1).scaleb(-scale)), "f")


# Keys the emitted tests hand out per resource and test (more than any test makes).
GIVEN_KEYS = 12


def key_is_given(resource: ir.Resource) -> bool:
    """Whether a create names the record's key (a code, say): integer keys are
    counted and uuid keys drawn by the database instead."""
    if resource.is_composite:
        return False  # the parts are fields of the body, checked as such
    key = resource.key_field
    return not (
        key.type == "integer" or key.format == "uuid" or resource.is_read_only(key)
    )


def _letters(n: int, width: int) -> str:
    """``n`` written with the letters a-z (a, b, ..., z, ba, ...), at least
    ``width`` long."""
    text = ""
    while True:
        n, digit = divmod(n, 26)
        text = "abcdefghijklmnopqrstuvwxyz"[digit] + text
        if not n:
            return text.rjust(width, "a")


def _key_candidates(field: ir.Field, n: int) -> list[str]:
    width = max(field.min_length or 1, 2)
    return [
        str(_string_sample(field, n + 1) or ""),
        _letters(n, width),
        _letters(n, width).upper(),
        str(n + 1).zfill(width),
        f"key-{n + 1}",
    ]


def key_samples(resource: ir.Resource, count: int = GIVEN_KEYS + 2) -> list[str]:
    """``count`` distinct keys a create may give (fewer when the key's pattern and
    limits admit fewer that are easy to find).

    Each family of candidates is tried in turn and the first that gives ``count``
    values wins, so the keys sort alike in Python and in every database collation;
    every one reads the same in a URL.
    """
    field = resource.key_field
    best: list[str] = []
    for family in range(5):
        found: list[str] = []
        for n in range(count * 8):
            value = _key_candidates(field, n)[family]
            if value and value not in found and _fits_a_url(field, value):
                found.append(value)
                if len(found) == count:
                    return found
        best = max(best, found, key=len)
    return best


def _valid_text(field: ir.Field, value: str) -> bool:
    if field.min_length is not None and len(value) < field.min_length:
        return False
    if field.max_length is not None and len(value) > field.max_length:
        return False
    return not field.pattern or engine_search(field.pattern, value)


def _distinct_values(field: ir.Field, count: int) -> list[Any]:
    """``count`` valid values of ``field`` unlike its first two samples (those the
    emitted tests send themselves), fewer when they are hard to find.

    As ``key_samples``: the samples, else the first family of key candidates that
    gives ``count`` values."""
    taken = [sample_value(field, 1), sample_value(field, 2)]
    text = field.type == "string" and not field.format and not field.is_decimal
    best: list[Any] = []
    for family in range(6 if text else 1):
        found: list[Any] = []
        for n in range(3, count * 8 + 3):
            value = (
                sample_value(field, n)
                if family == 0
                else _key_candidates(field, n)[family - 1]
            )
            if value is None or value in taken or value in found:
                continue
            if isinstance(value, str) and not _valid_text(field, value):
                continue
            found.append(value)
            if len(found) == count:
                return found
        best = max(best, found, key=len)
    return best


def _can_vary(resource: ir.Resource, field: ir.Field) -> bool:
    return not (
        field.is_key
        or field.enum
        or field.relation
        or field.type == "boolean"
        or field.format == "password"
        or resource.is_read_only(field)
        or sample_value(field) is None
    )


def distinct_samples(resource: ir.Resource) -> dict[str, list[Any]]:
    """Per field, the values emitted tests give the records they create, one each,
    so that no two share a unique field's value nor a unique group's values: every
    unique field, and one member of each group that has none of them (a field the
    lists neither filter nor search on first); of a composite key, its last part
    unless it is a relation (whose records the tests make anew)."""
    chosen = [f for f in resource.fields if f.unique and _can_vary(resource, f)]
    for group in resource.unique_together:
        members = [resource.field(name) for name in group]
        if any(m in chosen or m.is_key for m in members):
            continue
        varied = [m for m in members if _can_vary(resource, m)]
        varied.sort(key=lambda m: m.filterable or m.name in resource.search)
        chosen += varied[:1]
    if resource.is_composite:  # each record a key of its own: its last part varies
        last = resource.field(resource.key_parts[-1])
        chosen += [] if last.relation or last in chosen else [last]
    return {f.name: _distinct_values(f, GIVEN_KEYS) for f in chosen}


_MISSING_KEYS = {"integer": 999999999, "uuid": "00000000-0000-0000-0000-000000000000"}


def given_keys(resource: ir.Resource) -> list[str]:
    """The keys emitted tests give the records they create, after the sample
    payload's own (none where the database makes the keys)."""
    if not key_is_given(resource):
        return []
    return key_samples(resource)[1 : GIVEN_KEYS + 1]


def missing_key(resource: ir.Resource) -> int | str:
    """A key of the right type and shape that no test record has (a composite
    key: each part's, joined as in its URL)."""
    if resource.is_composite:
        parts = (resource.field(name) for name in resource.key_parts)
        return ",".join(str(_missing_part(part)) for part in parts)
    key = resource.key_field
    found = _MISSING_KEYS.get(key.format or key.type)
    if found is not None:
        return found
    values = key_samples(resource) if key_is_given(resource) else []
    return values[-1] if len(values) == GIVEN_KEYS + 2 else "no-such-key"


def _missing_part(part: ir.Field) -> int | str:
    """A value of a composite key's part that no test record has."""
    if part.format == "date":
        return "1900-01-01"
    return _MISSING_KEYS.get(part.format or part.type, "no-such-key")


def _fits_a_url(field: ir.Field, value: str) -> bool:
    """Whether ``value`` is a valid key that reads the same in a URL (the tests
    compare URLs with the key written into them)."""
    if quote(value, safe="") != value:
        return False
    if field.min_length is not None and len(value) < field.min_length:
        return False
    if field.max_length is not None and len(value) > field.max_length:
        return False
    return not field.pattern or engine_search(field.pattern, value)


def sample_payload(
    resource: ir.Resource, n: int = 1, related: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A create body for ``resource``: every writable field with a sample value.

    ``related`` maps a relation target's resource name to a key that exists.
    """
    payload: dict[str, Any] = {}
    for field in resource.fields:
        if resource.is_read_only(field) or field.is_key and field.type == "integer":
            continue
        if field.is_key and field.format == "uuid":
            continue
        if field.is_key:
            keys = key_samples(resource)
            if keys:
                payload[field.name] = keys[0]
            continue
        if field.relation:
            if related and field.relation in related:
                payload[field.name] = related[field.relation]
            continue
        value = sample_value(field, n)
        if value is not None:
            payload[field.name] = value
    return payload


# The last project ordered and its order: every resource's context asks for its
# project's order, which costs O(resources²) to find.
_last_order: list[tuple[ir.Project, tuple[ir.Resource, ...]]] = []


def creation_order(project: ir.Project) -> list[ir.Resource]:
    """Resources ordered so that relation targets come before their users.

    A cycle of relations is broken at an optional link (a column that takes NULL):
    that record is made first, without the link, which is set once its target
    exists. A cycle without one (refused by the manifest checks) stays in declared
    order. (Found once per project object: projects are frozen.)
    """
    if not (_last_order and _last_order[0][0] is project):
        _last_order[:] = [(project, tuple(_creation_order(project)))]
    return list(_last_order[0][1])


def _creation_order(project: ir.Project) -> list[ir.Resource]:
    ordered: list[ir.Resource] = []
    pending = list(project.resources)
    while pending:
        made = {r.name for r in ordered}
        ready = next(
            (
                resource
                for every in (True, False)
                for resource in pending
                if _targets(resource, every=every) <= made | {resource.name}
            ),
            None,
        )
        if ready is None:
            ordered += pending
            break
        ordered.append(ready)
        pending.remove(ready)
    return ordered


def _targets(resource: ir.Resource, *, every: bool) -> set[str]:
    """The resources ``resource``'s relations point to (``every`` one, or only
    those whose column cannot be left empty)."""
    return {
        f.relation
        for f in resource.fields
        if f.relation and (every or not f.column_nullable)
    }
