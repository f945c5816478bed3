"""List queries: ``page``, ``per_page``, ``sort``, ``filter[…]``, ``search``, tags.

Parsing checks every name against the resource's declaration, so storage only ever
sees whitelisted field names and values of the field's own type.
"""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from .fields import Field, json_type
from .resource import Resource

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
# Keeps OFFSET (page × per_page) far inside a 64-bit integer.
MAX_PAGE = 2**31 - 1

_INTEGER = re.compile(r"[+-]?[0-9]{1,19}")
_BOOLEANS = {"true": True, "1": True, "false": False, "0": False}
_FILTER = re.compile(r"filter\[([^\]]*)\]")


class QueryError(ValueError):
    """The query string asks for something the resource does not offer."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        super().__init__(next(iter(errors.values()))[0])
        self.errors = errors


@dataclass(frozen=True)
class Sort:
    """One ordering term: a sortable field, ascending or descending."""

    name: str
    descending: bool = False


@dataclass(frozen=True)
class ListQuery:
    """A validated list request."""

    page: int
    per_page: int
    sort: tuple[Sort, ...]
    filters: tuple[tuple[str, Any], ...] = ()
    search: str | None = None
    query_tag: str | None = None

    @property
    def offset(self) -> int:
        """Rows skipped before this page."""
        return (self.page - 1) * self.per_page


def to_utc(value: datetime) -> datetime:
    """An aware datetime in UTC; a naive one is taken to be UTC already."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def parse_value(field: Field, text: str) -> Any:
    """Query-string text as a value of ``field``'s type, else ``ValueError``."""
    kind = json_type(field)
    if kind == "integer":
        if not _INTEGER.fullmatch(text) or not INT64_MIN <= int(text) <= INT64_MAX:
            raise ValueError("must be an integer")
        return int(text)
    if kind == "number":
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            raise ValueError("must be a number")
        return number
    if kind == "boolean":
        if text.lower() not in _BOOLEANS:
            raise ValueError("must be true, false, 1 or 0")
        return _BOOLEANS[text.lower()]
    return _parse_string(field.json_format, text)


def _parse_string(json_format: str | None, text: str) -> Any:
    if "\x00" in text:
        raise ValueError("must not contain NUL characters")
    try:
        if json_format == "date":
            return date.fromisoformat(text)
        if json_format == "date-time":
            return to_utc(datetime.fromisoformat(text))
        if json_format == "uuid":
            return uuid.UUID(text)
    except ValueError:
        raise ValueError(f"must be a valid {json_format}") from None
    return text


def coerce_value(field: Field, value: Any) -> Any:
    """A declared value (a query tag's filter) in the field's storage type."""
    return parse_value(field, value) if isinstance(value, str) else value


def parse_key(resource: type[Resource], text: str) -> Any | None:
    """The record key written in a URL, or ``None`` when it cannot be one."""
    try:
        return parse_value(resource.key_field, text)
    except ValueError:
        return None


def parse_list_query(
    resource: type[Resource],
    params: Iterable[tuple[str, str]],
    *,
    max_per_page: int,
) -> ListQuery:
    """Validate the list parameters of a request; unknown parameters are ignored."""
    values: dict[str, str] = {}
    filters: dict[str, str] = {}
    for name, value in params:
        match = _FILTER.fullmatch(name)
        if match:
            filters[match.group(1)] = value
        else:
            values[name] = value
    errors: dict[str, list[str]] = {}
    page = _bounded_int(values.get("page"), 1, 1, MAX_PAGE, "page", errors)
    per_page = _bounded_int(
        values.get("per_page"), resource.per_page, 1, max_per_page, "per_page", errors
    )
    sort = _parse_sort(resource, values.get("sort") or resource.default_sort, errors)
    parsed_filters = _parse_filters(resource, filters, errors)
    search = values.get("search") or None
    if search is not None and "\x00" in search:
        errors["search"] = ["The search term must not contain NUL characters."]
    tag = values.get("query-tag") or None
    if tag is not None and tag not in resource.query_tag_map:
        errors["query-tag"] = [f"'{tag}' is not a query tag of this resource."]
    if errors:
        raise QueryError(errors)
    return ListQuery(page, per_page, sort, parsed_filters, search, tag)


def _bounded_int(
    text: str | None,
    default: int,
    low: int,
    high: int,
    name: str,
    errors: dict[str, list[str]],
) -> int:
    if text is None:
        return default
    if _INTEGER.fullmatch(text) and low <= int(text) <= high:
        return int(text)
    errors[name] = [f"The {name} must be an integer between {low} and {high}."]
    return default


def _parse_sort(
    resource: type[Resource], text: str, errors: dict[str, list[str]]
) -> tuple[Sort, ...]:
    terms = [Sort(t.removeprefix("-"), t.startswith("-")) for t in text.split(",")]
    unknown = [t.name for t in terms if t.name not in resource.sortable_fields]
    if unknown:
        errors["sort"] = [f"'{name}' is not a sortable field." for name in unknown]
        return ()
    return tuple(terms)


def _parse_filters(
    resource: type[Resource], filters: dict[str, str], errors: dict[str, list[str]]
) -> tuple[tuple[str, Any], ...]:
    parsed: list[tuple[str, Any]] = []
    for name, text in filters.items():
        key = f"filter[{name}]"
        if name not in resource.filterable_fields:
            errors[key] = [f"'{name}' is not a filterable field."]
            continue
        try:
            value = parse_value(resource.field_map[name], text)
            _check_range(resource.field_map[name], value)
        except ValueError as exc:
            errors[key] = [f"The {key} value {exc}."]
            continue
        parsed.append((name, value))
    return tuple(parsed)


def _check_range(field: Field, value: Any) -> None:
    """Refuse a filter value outside the field's declared range.

    No stored value can lie there, and the column may be narrower than 64 bits (an
    integer field whose bounds fit 32 bits is stored as a 32-bit column), so passing
    such a value to the database would fail instead of matching nothing.
    """
    minimum = getattr(field, "minimum", None)
    maximum = getattr(field, "maximum", None)
    if minimum is not None and value < minimum:
        raise ValueError(f"must be at least {minimum}")
    if maximum is not None and value > maximum:
        raise ValueError(f"must be at most {maximum}")
