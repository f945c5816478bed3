"""Semantic checks of one field: options fit its type, limits, pattern, enum, default.

The schema has already checked each option's shape; values it rejected are INVALID and
skipped here, so every rule can assume the types the schema promises.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..errors import Issue
from ..model.patterns import engine_problem
from .decimals import digits, exact, fit_problem, is_decimal
from .fieldvalues import INT64, FieldContext, fits, type_problem, value_problem
from .hints import shown, suggestion_hint
from .schema import INVALID

# Options that only some types take.
_APPLIES_TO = {
    "format": ("string", "number"),
    "minLength": ("string",),
    "maxLength": ("string",),
    "pattern": ("string",),
    "minimum": ("integer", "number"),
    "maximum": ("integer", "number"),
    "enum": ("string", "integer"),
    "relation": ("integer", "string"),
    "unique": ("string", "integer", "number"),
}


def field_issues(context: FieldContext) -> Iterator[Issue]:
    """Every semantic problem of one field whose type is known."""
    for rule in _RULES:
        yield from rule(context)


def _applicability(ctx: FieldContext) -> Iterator[Issue]:
    for key, types in _APPLIES_TO.items():
        if key in ctx.spec and ctx.type not in types:
            hint = f"it applies to {' and '.join(types)} fields"
            yield ctx.issue(
                key, f"'{key}' does not apply to {ctx.type} fields", "M027", hint
            )
    if "enum" in ctx.spec and ctx.option("relation") is not None:
        yield ctx.issue("enum", "'enum' does not apply to relation fields", "M027")
    if ctx.option("format") == "password":
        for key in ("sortable", "filterable", "unique"):
            if ctx.option(key) is True:
                yield ctx.issue(key, f"a password field cannot be {key}", "M027")
    if ctx.option("readOnly") is True and ctx.required and "default" not in ctx.spec:
        message = f"'{ctx.name}' is read-only and required, so no request can set it"
        hint = "give it a default or remove it from 'required'"
        yield ctx.issue("readOnly", message, "M027", hint)


def _pair_issue(ctx: FieldContext, low_key: str, high_key: str) -> Iterator[Issue]:
    low, high = ctx.option(low_key), ctx.option(high_key)
    if fits("number", low) and fits("number", high) and low > high:
        message = f"'{low}' is more than {high_key} {high}"
        yield ctx.issue(low_key, message, "M026", f"make {low_key} at most {high_key}")


def _limits(ctx: FieldContext) -> Iterator[Issue]:
    yield from _pair_issue(ctx, "minLength", "maxLength")
    yield from _pair_issue(ctx, "minimum", "maximum")
    if ctx.type != "integer":
        return
    for key in ("minimum", "maximum"):
        value = ctx.option(key)
        if isinstance(value, float):
            message = (
                f"'{value}' is not an integer, as '{ctx.name}' is an integer field"
            )
            yield ctx.issue(key, message, "M026")
        elif isinstance(value, int) and not INT64[0] <= value <= INT64[1]:
            yield ctx.issue(
                key, f"'{value}' is outside the 64-bit integer range", "M026"
            )


def _decimal_options(ctx: FieldContext) -> Iterator[Issue]:
    """``format: decimal`` only on numbers, the only format numbers take;
    ``precision`` and ``scale`` only with it."""
    fmt = ctx.option("format")
    if ctx.type == "number" and isinstance(fmt, str) and fmt != "decimal":
        message = f"'format: {fmt}' does not apply to number fields"
        hint = "number fields take only 'format: decimal' (exact decimals)"
        yield ctx.issue("format", message, "M027", hint)
    elif ctx.type == "string" and fmt == "decimal":
        message = "'format: decimal' applies to number fields"
        yield ctx.issue("format", message, "M027", "use 'type: number'")
    for key in ("precision", "scale"):
        if key in ctx.spec and not is_decimal(ctx.spec):
            message = f"'{key}' applies to decimal fields only"
            hint = "add 'format: decimal' to a number field"
            yield ctx.issue(key, message, "M027", hint)


def _decimal_digits(ctx: FieldContext) -> Iterator[Issue]:
    """A scale within the precision; limits a NUMERIC(precision, scale) holds."""
    if not is_decimal(ctx.spec):
        return
    precision, scale = digits(ctx.spec)
    if scale > precision:
        message = f"'{scale}' is more than precision {precision}"
        hint = "the scale counts the digits after the point, among the precision's"
        yield ctx.issue("scale", message, "M026", hint)
        return
    for key in ("minimum", "maximum"):
        value = exact(ctx.document.node((*ctx.path, key)), ctx.option(key))
        problem = fit_problem(value, precision, scale) if value is not None else None
        if problem:
            yield ctx.issue(key, problem, "M026")


def _pattern(ctx: FieldContext) -> Iterator[Issue]:
    pattern = ctx.option("pattern")
    if not isinstance(pattern, str):
        return
    try:
        re.compile(pattern)
    except re.error as exc:
        hint = f"{exc.msg} at position {exc.pos}" if exc.pos is not None else exc.msg
        message = f"{shown(pattern)} is not a valid regular expression"
        yield ctx.issue("pattern", message, "M025", hint)
        return
    except (OverflowError, RecursionError, ValueError):
        message = f"{shown(pattern)} is not a valid regular expression"
        yield ctx.issue(
            "pattern", message, "M025", "it is too large or too deeply nested"
        )
        return
    reason = engine_problem(pattern)
    if reason:
        message = (
            f"{shown(pattern)} cannot be checked by the panel's regular-expression "
            f"engine: {reason}"
        )
        hint = (
            "the panel matches in linear time (Rust's regex syntax): rewrite it "
            "without look-around or back-references"
        )
        yield ctx.issue("pattern", message, "M036", hint)


def _enum(ctx: FieldContext) -> Iterator[Issue]:
    values = ctx.option("enum")
    if not isinstance(values, list) or ctx.type not in ("string", "integer"):
        return
    for index, value in enumerate(values):
        problem = type_problem(ctx, ("enum", index), value)
        if problem:
            message, code, hint = problem
            yield ctx.issue(("enum", index), message, code, hint)
        elif ctx.type == "integer" and not INT64[0] <= value <= INT64[1]:
            message = f"'{value}' is outside the 64-bit integer range"
            yield ctx.issue(("enum", index), message, "M032")


def _default(ctx: FieldContext) -> Iterator[Issue]:
    if "default" not in ctx.spec or ctx.spec["default"] is INVALID:
        return
    if ctx.option("format") == "password":
        yield ctx.issue("default", "a password field cannot have a default", "M024")
        return
    problem = value_problem(ctx, ("default",), ctx.spec["default"], "M024", null=False)
    if problem:
        yield ctx.issue("default", problem[0], problem[1], problem[2])


def _relation(ctx: FieldContext) -> Iterator[Issue]:
    target = ctx.option("relation")
    if not isinstance(target, str) or ctx.type not in _APPLIES_TO["relation"]:
        return
    if target not in ctx.key_types:
        hint = suggestion_hint(target, list(ctx.key_types), "declared resources are")
        message = f"refers to {shown(target)}, which is not a resource"
        yield ctx.issue("relation", message, "M021", hint)
        return
    key_type = ctx.key_types[target]
    if key_type is not None and key_type != ctx.type:
        message = f"'{ctx.type}' does not match the key of '{target}', {_a(key_type)}"
        yield ctx.issue("type", message, "M028", f"use 'type: {key_type}'")


def _a(word: str) -> str:
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


# What ``default_sql`` may say, and the format of the fields it fills.
_DEFAULT_SQL = {"now()": "date-time", "current_date": "date"}


def _default_sql(ctx: FieldContext) -> Iterator[Issue]:
    value = ctx.option("default_sql")
    if value not in _DEFAULT_SQL:
        return  # absent, or the schema's problem
    wanted = _DEFAULT_SQL[value]
    if ctx.type != "string" or ctx.option("format") != wanted:
        message = f"'{value}' fills {wanted} fields only"
        hint = f"give the field 'format: {wanted}'"
        other = next(
            (v for v, f in _DEFAULT_SQL.items() if f == ctx.option("format")), None
        )
        if ctx.type == "string" and other is not None:
            hint = f"use '{other}' for a {ctx.option('format')} field"
        yield ctx.issue("default_sql", message, "M027", hint)
    if "default" in ctx.spec:
        message = "'default_sql' and 'default' both fill the field in"
        yield ctx.issue("default_sql", message, "M027", "keep one of them")


_RULES = (
    _applicability,
    _decimal_options,
    _limits,
    _decimal_digits,
    _pattern,
    _enum,
    _default,
    _relation,
    _default_sql,
)
