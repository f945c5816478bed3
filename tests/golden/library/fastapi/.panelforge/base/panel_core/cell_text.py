"""Values as people read them in list and detail cells.

Only the cells of the index table and the detail page use these: JSON, CSV, form
inputs and record names (``panel_core.labels.value_text``, mirrored by the picker's
JavaScript) keep the values as stored.
"""

from __future__ import annotations

import datetime
import decimal
from typing import Any

# Integers get thousands separators from this many digits on: 12,345 but 2024, so
# years, counts and codes of four digits read as written (as style guides that drop
# the separator in four-digit numbers do). Keys and links never get them: they are
# identifiers, typed back into URLs and searches. Floats and decimals are amounts
# and measures, always separated (1,234.5; 1,234.50) so a column of them aligns in
# the reader's eye.
INTEGER_SEPARATOR_DIGITS = 5


def date_time_text(value: datetime.datetime) -> str:
    """``2026-11-27 13:45 UTC``: to the minute, in UTC (naive values are stored UTC)."""
    if value.tzinfo is not None:
        value = value.astimezone(datetime.UTC)
    return value.strftime("%Y-%m-%d %H:%M") + " UTC"


def integer_text(value: int) -> str:
    """``12,345``; below :data:`INTEGER_SEPARATOR_DIGITS` digits, as it is."""
    if len(str(abs(value))) < INTEGER_SEPARATOR_DIGITS:
        return str(value)
    return format(value, ",")


def float_text(value: float) -> str:
    """``1,234.5``; a whole value without ``.0`` (``120``)."""
    if value.is_integer() and abs(value) < 1e16:  # exact as an int up to here
        return format(int(value), ",")
    return format(value, ",")


def decimal_text(value: decimal.Decimal, scale: int | None = None) -> str:
    """``1,234.50``: ``scale`` decimals (else the value's own) kept, with separators."""
    if not value.is_finite():
        return str(value)
    if scale is None:
        scale = max(0, -int(value.as_tuple().exponent))
    return format(value, f",.{scale}f")


def number_text(value: Any, scale: int | None = None) -> str:
    """A number of an integer, number or decimal field (``scale`` for a decimal)."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, decimal.Decimal) or scale is not None:
        try:
            exact = decimal.Decimal(str(value))
        except decimal.InvalidOperation:
            return str(value)
        return decimal_text(exact, scale)
    if isinstance(value, int):
        return integer_text(value)
    if isinstance(value, float):
        return float_text(value)
    return str(value)
