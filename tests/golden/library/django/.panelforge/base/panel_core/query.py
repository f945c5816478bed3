"""List queries: ``page``, ``per_page``, ``sort``, ``filter[…]`` (with the operators
of ``panel_core.filters``), ``search``, tags,
``total`` (exact, estimate or none) and ``cursor`` (keyset paging).

Parsing checks every name against the resource's declaration, so storage only ever
sees whitelisted field names and values of the field's own type. A cursor is an
opaque token to clients: base64url of the JSON ``{"s": sort, "d": "next"|"prev",
"v": [values]}``, one value per ordering term (the sort, then the key); a token that
does not decode to exactly that, for this sort, is refused like any invalid parameter.
"""

from __future__ import annotations

import base64
import binascii
import decimal
import json
import math
import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from functools import partial
from typing import Any

from .composite_keys import parse_composite_key
from .fields import BelongsTo, Field, Select, json_type
from .filters import EQUALS, TEXT_MATCHES, Filter, operators, parameter, usage
from .resource import Resource
from .translation import gettext, gettext_noop

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
# Keeps OFFSET (page × per_page) far inside a 64-bit integer.
MAX_PAGE = 2**31 - 1

_INTEGER = re.compile(r"[+-]?[0-9]{1,19}")
_BOOLEANS = {"true": True, "1": True, "false": False, "0": False}
# ``filter[field]`` or ``filter[field][operator]``; anything else named filter… is
# refused.
_FILTER = re.compile(r"filter\[([^\[\]]*)\](?:\[([^\[\]]+)\])?")
# String formats not stored as text: searching them compares their text form.
_NOT_TEXT = frozenset({"date", "date-time", "uuid", "decimal"})
# ``total=``: count every matching row, estimate past a cap, or skip the count.
EXACT = "exact"
ESTIMATE = "estimate"
NO_TOTAL = "none"
TOTAL_MODES = (EXACT, ESTIMATE, NO_TOTAL)
# ``total=estimate`` counts at most this many rows; past it the store estimates.
ESTIMATE_CAP = 10_000
# Longer tokens are refused before decoding (a cursor holds a few sort values).
MAX_CURSOR_LENGTH = 2048
_INVALID_CURSOR = gettext_noop(
    "The cursor is invalid: use a next_cursor or prev_cursor as given."
)
# The parameters of the JSON list besides ``filter[<field>]``; any other is refused.
LIST_PARAMETERS = (
    "page",
    "per_page",
    "sort",
    "search",
    "query-tag",
    "total",
    "cursor",
)
_UNKNOWN = gettext_noop(
    "The %(name)s parameter is unknown: use page, per_page, sort, filter[field], "
    "search, query-tag, total or cursor."
)


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
class Cursor:
    """Where a keyset page starts: after (or, ``before``, before) these values.

    ``values`` holds one value per term of ``ListQuery.keyset``, in the field's type.
    """

    values: tuple[Any, ...]
    before: bool = False


@dataclass(frozen=True)
class ListQuery:
    """A validated list request.

    ``keyset`` is true in cursor mode (``cursor=`` given, even empty: the first
    page); ``cursor`` is then where the page starts, ``None`` for the first page.
    """

    page: int
    per_page: int
    sort: tuple[Sort, ...]
    filters: tuple[Filter, ...] = ()
    search: str | None = None
    query_tag: str | None = None
    total: str = EXACT
    keyset: bool = False
    cursor: Cursor | None = None
    key: str = "id"
    # A composite key's parts, in its order (the tie-break is all of them).
    key_parts: tuple[str, ...] = ()

    @property
    def offset(self) -> int:
        """Rows skipped before this page (none in cursor mode)."""
        return 0 if self.keyset else (self.page - 1) * self.per_page

    @property
    def order(self) -> tuple[Sort, ...]:
        """The sort, then the key ascending unless sorted by it: a total order
        (a composite key: each part the sort does not name yet)."""
        named = {term.name for term in self.sort}
        keys = self.key_parts or (self.key,)
        return (*self.sort, *(Sort(key) for key in keys if key not in named))

    @property
    def backwards(self) -> bool:
        """Whether rows are read in reverse order (a ``prev`` cursor's page)."""
        return self.cursor is not None and self.cursor.before

    @property
    def limit(self) -> int:
        """Rows to read: one more than a page when the next page is found by it."""
        counted = self.total == EXACT and not self.keyset
        return self.per_page if counted else self.per_page + 1

    @property
    def sort_text(self) -> str:
        """The sort as written in ``sort=``."""
        return ",".join(("-" if t.descending else "") + t.name for t in self.sort)


def to_utc(value: datetime) -> datetime:
    """An aware datetime in UTC; a naive one is taken to be UTC already.

    ``ValueError`` when UTC falls outside years 1 to 9999
    (``0001-01-01T00:00:00+01:00``): Python cannot hold it.
    """
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError("is out of range") from None


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
        if json_format == "decimal":
            return _decimal(text)
    except ValueError:
        raise ValueError(f"must be a valid {json_format}") from None
    return text


def _decimal(text: str) -> decimal.Decimal:
    try:
        value = decimal.Decimal(text)
    except decimal.InvalidOperation:
        raise ValueError("must be a decimal number") from None
    if not value.is_finite():
        raise ValueError("must be a decimal number")
    return value


def coerce_value(field: Field, value: Any) -> Any:
    """A declared value (a query tag's filter) in the field's storage type."""
    return parse_value(field, value) if isinstance(value, str) else value


def searched_as_text(field: Field) -> bool:
    """Whether the column is text; others (dates, UUIDs, numbers) are cast to it."""
    return json_type(field) == "string" and field.json_format not in _NOT_TEXT


def parse_key(resource: type[Resource], text: str) -> Any | None:
    """The record key written in a URL, or ``None`` when it cannot be one (a
    composite key's parts are read by :func:`~.composite_keys.parse_composite_key`)."""
    if resource.key_parts:
        parsers = [partial(parse_value, field) for field in resource.key_fields]
        return parse_composite_key(parsers, text)
    try:
        return parse_value(resource.key_field, text)
    except ValueError:
        return None


def parse_list_query(
    resource: type[Resource],
    params: Iterable[tuple[str, str]],
    *,
    max_per_page: int,
    paging_modes: bool = False,
) -> ListQuery:
    """Validate the list parameters of a request (but ``filter=x``,
    ``filter[x][$ne]=…`` or ``filter[x][from][y]`` is refused: it would not filter).

    ``paging_modes`` reads ``total`` and ``cursor`` and refuses unknown parameters
    (the JSON list does, so a misspelt filter never silently lists everything; pages
    and exports ignore them, as they ignore ``total`` and ``cursor``).
    """
    errors: dict[str, list[str]] = {}
    values, filters = _split_parameters(params, errors, known_only=paging_modes)
    page = _bounded_int(values.get("page"), 1, 1, MAX_PAGE, "page", errors)
    per_page = _bounded_int(
        values.get("per_page"), resource.per_page, 1, max_per_page, "per_page", errors
    )
    sort = _parse_sort(resource, values.get("sort") or resource.default_sort, errors)
    parsed_filters = _parse_filters(resource, filters, errors)
    search = values.get("search") or None
    if search is not None and "\x00" in search:
        errors["search"] = [gettext("The search term must not contain NUL characters.")]
    tag = values.get("query-tag") or None
    if tag is not None and tag not in resource.query_tag_map:
        errors["query-tag"] = [
            gettext("'%(tag)s' is not a query tag of this resource.") % {"tag": tag}
        ]
    total = _parse_total(values, paging_modes, errors)
    keyset = paging_modes and "cursor" in values
    if keyset:
        _check_cursor_mode(resource, values, sort, errors)
    if errors:
        raise QueryError(errors)
    query = ListQuery(
        page,
        per_page,
        sort,
        parsed_filters,
        search,
        tag,
        total,
        keyset,
        key=resource.key_name(),
        key_parts=resource.key_parts,
    )
    if keyset and values["cursor"]:
        cursor = decode_cursor(resource, query, values["cursor"])
        query = replace(query, cursor=cursor)
    return query


def _split_parameters(
    params: Iterable[tuple[str, str]],
    errors: dict[str, list[str]],
    *,
    known_only: bool,
) -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """(other parameters, filters by field name and operator); ``filter=x`` or
    ``filter[x][from][y]=…`` is refused, not ignored, and with ``known_only`` any
    parameter the list does not know."""
    values: dict[str, str] = {}
    filters: dict[tuple[str, str], str] = {}
    for name, value in params:
        match = _FILTER.fullmatch(name)
        if match:
            filters[(match.group(1), match.group(2) or EQUALS)] = value
        elif name == "filter" or name.startswith("filter["):
            message = gettext(
                "The %(name)s parameter is not a filter: use filter[field]=value "
                "or filter[field][operator]=value."
            ) % {"name": name}
            errors[name] = [message]
        elif known_only and name not in LIST_PARAMETERS:
            errors[name] = [gettext(_UNKNOWN) % {"name": name}]
        else:
            values[name] = value
    return values, filters


def _parse_total(
    values: dict[str, str], paging_modes: bool, errors: dict[str, list[str]]
) -> str:
    if not paging_modes:
        return EXACT
    text = values.get("total")
    if not text:
        return NO_TOTAL if "cursor" in values else EXACT
    if text not in TOTAL_MODES:
        errors["total"] = [gettext("The total must be one of: exact, estimate, none.")]
        return EXACT
    if "cursor" in values and text != NO_TOTAL:
        errors["total"] = [
            gettext("A cursor page is never counted: drop total or use none.")
        ]
    return NO_TOTAL if "cursor" in values else text


def _check_cursor_mode(
    resource: type[Resource],
    values: dict[str, str],
    sort: tuple[Sort, ...],
    errors: dict[str, list[str]],
) -> None:
    if "page" in values:
        errors["page"] = [gettext("The page cannot be combined with a cursor.")]
    if resource.key_parts:
        errors["cursor"] = [
            gettext(
                "Cursor paging is not available for a composite key: "
                "page with page= instead."
            )
        ]
        return
    nullable = [t.name for t in sort if resource.field_map[t.name].accepts_null]
    messages = [
        gettext(
            "'%(name)s' can be null: cursor paging needs a sort on non-null fields."
        )
        % {"name": name}
        for name in nullable
    ]
    # A relation sorts by the related record's name, which a cursor cannot hold.
    messages += [
        gettext(
            "'%(name)s' sorts by the related record's name: cursor paging cannot "
            "follow it, page with page= instead."
        )
        % {"name": t.name}
        for t in sort
        if isinstance(resource.field_map[t.name], BelongsTo) and t.name not in nullable
    ]
    if messages:
        errors["sort"] = messages


def encode_cursor(query: ListQuery, record: dict[str, Any], *, before: bool) -> str:
    """The token of the page after (``before``: before) ``record`` in ``query``."""
    values = [_json_value(record[term.name]) for term in query.order]
    token = {"s": query.sort_text, "d": "prev" if before else "next", "v": values}
    text = json.dumps(token, separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _json_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return to_utc(value).isoformat()
    if isinstance(value, date | uuid.UUID):
        return str(value)
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    return value


def decode_cursor(resource: type[Resource], query: ListQuery, token: str) -> Cursor:
    """The position a token names, else ``QueryError`` (tampered, or another sort)."""
    try:
        if len(token) > MAX_CURSOR_LENGTH:
            raise ValueError
        padded = (token + "=" * (-len(token) % 4)).encode("ascii")
        data = json.loads(base64.b64decode(padded, altchars=b"-_", validate=True))
        if not isinstance(data, dict) or set(data) != {"s", "d", "v"}:
            raise ValueError
        if data["d"] not in ("next", "prev") or not isinstance(data["v"], list):
            raise ValueError
    except (ValueError, UnicodeError, binascii.Error, RecursionError):
        raise QueryError({"cursor": [gettext(_INVALID_CURSOR)]}) from None
    if data["s"] != query.sort_text:
        message = gettext(
            "The cursor belongs to another sort order: drop it or the sort."
        )
        raise QueryError({"cursor": [message]})
    terms = query.order
    if len(data["v"]) != len(terms):
        raise QueryError({"cursor": [gettext(_INVALID_CURSOR)]})
    try:
        values = tuple(
            _cursor_value(resource.field_map[term.name], value)
            for term, value in zip(terms, data["v"], strict=True)
        )
    except ValueError:
        raise QueryError({"cursor": [gettext(_INVALID_CURSOR)]}) from None
    return Cursor(values, before=data["d"] == "prev")


def _cursor_value(field: Field, value: Any) -> Any:
    """A JSON value of a token as the field's type; refuses any other shape."""
    kind = json_type(field)
    if kind == "integer":
        if type(value) is not int or not INT64_MIN <= value <= INT64_MAX:
            raise ValueError
    elif kind == "number":
        if type(value) not in (int, float) or not math.isfinite(value):
            raise ValueError
        value = float(value)
    elif kind == "boolean":
        if type(value) is not bool:
            raise ValueError
    elif isinstance(value, str):
        value = _parse_string(field.json_format, value)
    else:
        raise ValueError
    _check_range(field, value)
    return value


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
    message = gettext("The %(name)s must be an integer between %(low)s and %(high)s.")
    errors[name] = [message % {"name": name, "low": low, "high": high}]
    return default


def _parse_sort(
    resource: type[Resource], text: str, errors: dict[str, list[str]]
) -> tuple[Sort, ...]:
    terms = [Sort(t.removeprefix("-"), t.startswith("-")) for t in text.split(",")]
    unknown = [t.name for t in terms if t.name not in resource.sortable_fields]
    if unknown:
        errors["sort"] = [
            gettext("'%(name)s' is not a sortable field.") % {"name": name}
            for name in unknown
        ]
        return ()
    return tuple(terms)


def _parse_filters(
    resource: type[Resource],
    filters: dict[tuple[str, str], str],
    errors: dict[str, list[str]],
) -> tuple[Filter, ...]:
    parsed: list[Filter] = []
    for (name, operator), text in filters.items():
        key = parameter(name, operator)
        link = resource.many_to_many_map.get(name)
        if name not in resource.filterable_fields and link is None:
            errors[key] = [
                gettext("'%(name)s' is not a filterable field.") % {"name": name}
            ]
            continue
        field = resource.field_map[name] if link is None else link.item_field
        if operator != EQUALS and operator not in operators(field):
            message = gettext(
                "The %(parameter)s parameter is not a filter of %(label)s: "
                "use %(usage)s."
            )
            shown = {"parameter": key, "label": field.label, "usage": usage(field)}
            errors[key] = [message % shown]
            continue
        try:
            value = _filter_value(field, operator, text)
        except ValueError as exc:
            errors[key] = [f"The {key} value {exc}."]
            continue
        parsed.append(Filter(name, operator, value))
    return tuple(parsed)


def _filter_value(field: Field, operator: str, text: str) -> Any:
    """The value of one filter in the field's type (text to look for, for a
    text match), else ``ValueError``."""
    if operator in TEXT_MATCHES:
        if not text:
            raise ValueError("must not be empty")
        if "\x00" in text:
            raise ValueError("must not contain NUL characters")
        return text
    value = parse_value(field, text)
    _check_range(field, value)
    _check_option(field, value)
    return value


def _check_option(field: Field, value: Any) -> None:
    """Refuse a filter value that is none of the field's options: none can match."""
    if isinstance(field, Select) and value not in field.options:
        raise ValueError("is not one of the options")


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
