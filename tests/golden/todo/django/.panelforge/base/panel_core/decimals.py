"""Exact decimals: how a :class:`~panel_core.fields.Decimal` field's values travel.

In JSON a decimal is a string with exactly ``scale`` decimals (``"12.30"``), as
Django REST framework and Pydantic write them: a JSON number becomes a binary float
in JavaScript and in most clients, which cannot hold 0.1. A request may also give a
JSON number; it is read from its text (``12.30`` is 12.30, never the float nearest
to it), so too many decimals are refused, never rounded.
"""

from __future__ import annotations

import decimal
import json
from collections.abc import Collection, Mapping
from typing import Any

import orjson

from .errors import InvalidInput

# SQLite keeps a NUMERIC value that is not whole as a REAL (a double), which holds
# 15 significant digits exactly: on SQLite a decimal may have no more.
SQLITE_DIGITS = 15


def quantum(scale: int) -> decimal.Decimal:
    """The step of a value with ``scale`` decimals: ``0.01`` for 2."""
    return decimal.Decimal(1).scaleb(-scale)


# More digits than any column holds: arithmetic on a value never rounds it.
_EXACT = decimal.Context(prec=100)


def digits(value: decimal.Decimal) -> tuple[int, int]:
    """``(decimals, whole digits)`` a finite value needs: ``(1, 2)`` for 12.50
    (counted from its digits, never rounded to a context's precision)."""
    if not value:
        return 0, 0
    _, found, exponent = value.as_tuple()
    zeros = len(found) - len("".join(map(str, found)).rstrip("0"))
    places = max(-(int(exponent) + zeros), 0)
    return places, max(value.adjusted() + 1, 0)


def significant(value: decimal.Decimal) -> int:
    """How many significant digits a finite value has: 3 for 12.30."""
    text = "".join(map(str, value.as_tuple().digits)).strip("0")
    return len(text)


def to_decimal(value: Any, scale: int) -> decimal.Decimal:
    """``value`` (a Decimal, its text, an int or a stored float) with ``scale``
    decimals; a float goes through its shortest text (``12.3`` → ``12.30``)."""
    if isinstance(value, float):
        value = repr(value)
    return exact(decimal.Decimal(value), scale)


def exact(value: decimal.Decimal, scale: int) -> decimal.Decimal:
    """``value`` with ``scale`` decimals (it has no more), zero never negative."""
    found = value.quantize(quantum(scale), context=_EXACT)
    return found if found else found.copy_abs()


def text(value: decimal.Decimal) -> str:
    """A Decimal as JSON writes it: positional, never ``1E+2``."""
    return format(value, "f")


def refuse_inexact(
    database: str, values: Mapping[str, Any], labels: Mapping[str, str]
) -> None:
    """On SQLite (``database``: the vendor's name), a 422 for each decimal of
    ``labels`` with more significant digits than it stores exactly."""
    if database != "sqlite":
        return
    errors = {
        name: [
            f"The {label} field must have at most {SQLITE_DIGITS} significant "
            "digits on this database (SQLite)."
        ]
        for name, label in labels.items()
        if isinstance(values.get(name), decimal.Decimal)
        and significant(values[name]) > SQLITE_DIGITS
    }
    if errors:
        raise InvalidInput(errors)


def json_default(value: Any) -> Any:
    """orjson's hook for what it cannot write itself: Decimals, as text; stored
    files (:class:`panel_core.files.StoredFile`) as their ``panel_json``."""
    if isinstance(value, decimal.Decimal):
        return text(value)
    as_json = getattr(value, "panel_json", None)
    if as_json is not None:
        return as_json()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def pattern(precision: int, scale: int, *, signed: bool = True) -> str:
    """The JSON-Schema pattern of a value's text: digits before and after the point
    (a minus sign only when ``signed``: the value may be negative)."""
    whole = precision - scale
    before = f"[0-9]{{1,{whole}}}" if whole else "0"
    after = rf"(\.[0-9]{{1,{scale}}})?" if scale else ""
    sign = "-?" if signed else ""
    return f"^{sign}{before}{after}$"


def example(precision: int, scale: int) -> str:
    """A value to show in the spec: ``12.30`` for NUMERIC(10, 2)."""
    whole = "12"[: precision - scale] or "0"
    after = ("30" + "0" * scale)[:scale]
    return f"{whole}.{after}" if scale else whole


def exact_numbers(body: bytes, names: Collection[str]) -> bytes:
    """A JSON body whose numbers under ``names`` are given as their text instead
    (``12.30`` → ``"12.30"``), so no float ever holds them; else unchanged."""
    try:
        as_written = json.loads(body, parse_float=_Written, parse_int=_Written)
    except (ValueError, RecursionError):
        return body  # not JSON: Pydantic says what is wrong with it
    if not isinstance(as_written, dict):
        return body
    found = {
        name: str(value)
        for name, value in as_written.items()
        if name in names and isinstance(value, _Written)
    }
    if not found:
        return body
    try:
        values = orjson.loads(body)
    except orjson.JSONDecodeError:
        return body  # NaN, Infinity: Pydantic refuses them
    values.update(found)
    try:
        return orjson.dumps(values)
    except TypeError:  # an integer beyond 64 bits: Pydantic refuses it
        return json.dumps(values).encode()


class _Written(str):
    """A JSON number's text, as the body wrote it."""
