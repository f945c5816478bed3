"""What a field is and which values fit it: shared by the field and resource checks.

A default, an enum entry or a query tag's filter value is checked against the field's
type, enum, length and range limits, pattern and format, with the YAML 1.1 traps
(``no`` read as false) named as such.
"""

from __future__ import annotations

import datetime
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import Issue
from ..model.patterns import engine_search
from .decimals import digits, exact, fit_problem, is_decimal
from .hints import did_you_mean, quoted_list, shown
from .schema import INVALID, expected_types, found
from .yamlnodes import Document, Path, quote_hint, yaml_trap

INT64 = (-(2**63), 2**63 - 1)
FIELD_TYPES = ("string", "integer", "number", "boolean")
_FORMAT_KINDS = {
    "date": "a date",
    "date-time": "a date-time",
    "uuid": "a uuid",
    "password": "a password",
    "email": "an email",
    "uri": "a uri",
    "text": "a text",
}
_TYPE_KINDS = {"integer": "an integer", "number": "a number", "boolean": "a boolean"}
_FORMAT_SHAPES = {
    "date": re.compile(r"\d{4}-\d{2}-\d{2}"),
    "date-time": re.compile(
        r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})?"
    ),
    "uuid": re.compile(r"[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}"),
    "email": re.compile(r"[^@\s]+@[^@\s]+"),
}
_FORMAT_EXAMPLES = {
    "date": "2024-01-31",
    "date-time": "2024-01-31T12:00:00Z",
    "uuid": "12345678-1234-5678-1234-567812345678",
}


def field_type(spec: Any) -> str | None:
    """The declared type of a field, or None when the schema rejected it."""
    value = spec.get("type") if isinstance(spec, dict) else None
    return value if value in FIELD_TYPES else None


def field_kind(spec: Any) -> str:
    """``an integer field``, ``a date field``, ``a string field``: for messages."""
    options = spec if isinstance(spec, dict) else {}
    if options.get("relation") is not None:
        return "a relation field"
    kind = _TYPE_KINDS.get(str(field_type(spec)))
    return f"{kind or _FORMAT_KINDS.get(str(options.get('format')), 'a string')} field"


def is_sortable(spec: Any) -> bool:
    """Whether a field may sort lists: ``sortable``, else not text or password."""
    options = spec if isinstance(spec, dict) else {}
    value = options.get("sortable")
    default = options.get("format") not in ("text", "password")
    return value if isinstance(value, bool) else default


def is_filterable(spec: Any) -> bool:
    """Whether a field may filter lists: ``filterable``, else not password."""
    options = spec if isinstance(spec, dict) else {}
    value = options.get("filterable")
    return value if isinstance(value, bool) else options.get("format") != "password"


def fits(ftype: str, value: Any) -> bool:
    """Whether ``value`` is of the JSON type ``ftype`` (booleans are not numbers)."""
    if isinstance(value, bool):
        return ftype == "boolean"
    checks: dict[str, type | tuple[type, ...]]
    checks = {"string": str, "integer": int, "number": (int, float)}
    return ftype in checks and isinstance(value, checks[ftype])


def same_value(a: Any, b: Any) -> bool:
    """Equality that keeps ``True`` apart from ``1``."""
    if fits("number", a) and fits("number", b):
        return bool(a == b)
    return type(a) is type(b) and a == b


@dataclass(frozen=True)
class FieldContext:
    """One field being checked, with what the checks need around it."""

    document: Document
    path: Path  # ("resources", "Book", "fields", "pages")
    spec: dict[str, Any]
    type: str
    required: bool
    key_types: Mapping[str, str | None]  # resource name → its key's type, if known

    @property
    def name(self) -> str:
        """The field's name."""
        return str(self.path[-1])

    def option(self, key: str) -> Any:
        """The value of option ``key``, None when absent or INVALID."""
        value = self.spec.get(key)
        return None if value is INVALID else value

    def issue(
        self,
        key: str | tuple[Any, ...],
        message: str,
        code: str,
        hint: str | None = None,
    ) -> Issue:
        """An Issue about option ``key`` of this field."""
        parts = key if isinstance(key, tuple) else (key,)
        return self.document.issue((*self.path, *parts), message, code, hint)


def compiled_pattern(ctx: FieldContext) -> re.Pattern[str] | None:
    """The field's ``pattern`` compiled, or None when absent or broken."""
    pattern = ctx.option("pattern")
    if not isinstance(pattern, str):
        return None
    try:
        return re.compile(pattern)
    except (re.error, OverflowError, RecursionError, ValueError):
        return None


def type_problem(
    ctx: FieldContext, key: tuple[Any, ...], value: Any, code: str = "M032"
) -> tuple[str, str, str | None] | None:
    """``(message, code, hint)`` when ``value`` is not of the field's type."""
    node = ctx.document.node((*ctx.path, *key))
    if fits(ctx.type, value):
        return None
    if ctx.type == "string":
        trap = yaml_trap(node, value)
        if trap:
            return trap, "M013", None
    message = f"{found(node, value)}, expected {expected_types(ctx.type)}"
    return message, code, quote_hint(node, value) if ctx.type == "string" else None


def value_problem(
    ctx: FieldContext, key: tuple[Any, ...], value: Any, code: str, *, null: bool
) -> tuple[str, str, str | None] | None:
    """``(message, code, hint)`` unless ``value`` fits (None does with ``null``)."""
    if value is None:
        if null or ctx.option("nullable") is True:
            return None
        return (
            "is empty (null), but the field is not nullable",
            code,
            "add 'nullable: true'",
        )
    problem = type_problem(ctx, key, value, code)
    if problem:
        return problem
    if is_decimal(ctx.spec):
        number = exact(ctx.document.node((*ctx.path, *key)), value)
        message = number is not None and fit_problem(number, *digits(ctx.spec))
        if message:
            return message, code, None
    for check in _VALUE_CHECKS:
        message, hint = check(ctx, value) or (None, None)
        if message:
            return message, code, hint
    return None


def _in_range(ctx: FieldContext, value: Any) -> tuple[str, str | None] | None:
    """An integer within 64 bits; a number a double can hold."""
    if ctx.type == "integer" and not INT64[0] <= value <= INT64[1]:
        hint = "integer fields hold 64-bit integers (the database's BIGINT)"
        return f"{shown(str(value))} is outside the 64-bit integer range", hint
    if ctx.type == "number" and abs(value) > sys.float_info.max:
        return f"{shown(str(value))} is too large for a number field (a double)", None
    return None


def _in_enum(ctx: FieldContext, value: Any) -> tuple[str, str | None] | None:
    options = ctx.option("enum")
    if not isinstance(options, list) or any(same_value(value, o) for o in options):
        return None
    if not all(fits(ctx.type, option) for option in options):
        return None  # the enum itself is wrong, and reported
    message = f"{shown(str(value))} is not one of {quoted_list(options)}"
    return message, did_you_mean(str(value), [str(o) for o in options])


def _in_limits(ctx: FieldContext, value: Any) -> tuple[str, str | None] | None:
    size = len(value) if isinstance(value, str) else None
    bounds = [("minLength", size, "shorter than"), ("maxLength", size, "longer than")]
    number = value if fits("number", value) else None
    bounds += [("minimum", number, "less than"), ("maximum", number, "more than")]
    for key, measured, words in bounds:
        limit = ctx.option(key)
        if measured is None or not fits("number", limit):
            continue
        too_low = key.startswith("min") and measured < limit
        if too_low or (key.startswith("max") and measured > limit):
            return f"{shown(str(value))} is {words} {key} {limit}", None
    return None


def _matches_pattern(ctx: FieldContext, value: Any) -> tuple[str, str | None] | None:
    pattern = compiled_pattern(ctx)
    if pattern is None or not isinstance(value, str):
        return None
    if engine_search(pattern.pattern, value):  # as the panel will check it
        return None
    hint = None
    if pattern.search(value):
        hint = (
            "Python's re would match it, the panel's engine does not (Rust regex: "
            "'$' is the very end of the text)"
        )
    return f"{shown(value)} does not match the field's pattern", hint


def _parses(fmt: str, value: str) -> bool:
    shape = _FORMAT_SHAPES.get(fmt)
    if shape is None:
        return True
    if not shape.fullmatch(value):
        return False
    try:
        if fmt == "date":
            datetime.date.fromisoformat(value)
        elif fmt == "date-time":
            datetime.datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def _has_format(ctx: FieldContext, value: Any) -> tuple[str, str | None] | None:
    fmt = ctx.option("format")
    if not isinstance(value, str) or not isinstance(fmt, str) or _parses(fmt, value):
        return None
    example = _FORMAT_EXAMPLES.get(fmt)
    hint = f"write it like '{example}'" if example else None
    return f"{shown(value)} is not {_FORMAT_KINDS[fmt]}", hint


_VALUE_CHECKS = (_in_range, _in_enum, _in_limits, _matches_pattern, _has_format)
