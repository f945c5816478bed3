"""A column's type and server default → a manifest field's options (pure).

:func:`field_type` answers the options, or a :class:`Unsupported` saying why the
column cannot be a field; :func:`field_default` does the same for the default.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import mysql, postgresql

from .catalog import Column

# The manifest's limits (specs/manifest.md): a decimal's digits, a string's length.
MAX_PRECISION, MAX_SCALE = 38, 30
MAX_LENGTH = 10_485_760
# Integer ranges where the column is narrower than the manifest's 64 bits (SQLite's
# INTEGER is always 64-bit).
_SIGNED = {"tiny": 7, "small": 15, "medium": 23, "int": 31}
_NOW = re.compile(
    r"(now|current_timestamp|localtimestamp|statement_timestamp|transaction_timestamp"
    r"|clock_timestamp)(\s*\(\s*\d*\s*\))?|(current_timestamp)",
    re.IGNORECASE,
)
_TODAY = re.compile(r"current_date(\s*\(\s*\))?|curdate\(\s*\)", re.IGNORECASE)
_QUOTED = re.compile(r"^\(?'((?:[^']|'')*)'\)?(::[\w\s\".]+(\[\])?)*$")
_NUMBER = re.compile(r"^\(?(-?\d+(\.\d+)?)\)?(::[\w\s\".]+)*$")
_BOOLEAN = {"true": True, "false": False}
_STRING_FORMATS = ((sa.Uuid, "uuid"), (sa.DateTime, "date-time"), (sa.Date, "date"))


@dataclass(frozen=True)
class Unsupported:
    """Why a column's type or default cannot be said in a manifest."""

    reason: str


def field_type(column: Column, backend: str) -> dict[str, Any] | Unsupported:
    """The field options (``type``, ``format``, limits, ``enum``) of ``column``."""
    if isinstance(column.type, postgresql.DOMAIN):  # its base type (its CHECK: a note)
        column = replace(column, type=column.type.data_type)
    return _field_type(column, backend)


def _field_type(column: Column, backend: str) -> dict[str, Any] | Unsupported:
    found = column.type
    if column.type_name is not None or isinstance(found, sa.types.NullType):
        return Unsupported(f"type '{column.type_name or found}' is not supported")
    if isinstance(found, sa.Enum):
        return {"type": "string", "enum": list(found.enums)}
    if isinstance(found, sa.Boolean) or _mysql_boolean(found):
        return {"type": "boolean"}
    if isinstance(found, sa.Integer):
        return {"type": "integer", **_integer_range(found, backend)}
    if isinstance(found, sa.Numeric) and not isinstance(found, sa.Float):
        return _decimal(found)
    if isinstance(found, sa.Float):
        return {"type": "number"}
    for kind, string_format in _STRING_FORMATS:
        if isinstance(found, kind):
            return {"type": "string", "format": string_format}
    if isinstance(found, sa.String):
        return _string(found)
    return Unsupported(f"type '{_type_name(found)}' is not supported")


def domain_check(column: Column) -> str | None:
    """The CHECK of a PostgreSQL domain ``column`` is declared with, if any."""
    found = column.type
    if isinstance(found, postgresql.DOMAIN) and found.check is not None:
        return f"{found.name}: CHECK ({' '.join(str(found.check).split())})"
    return None


def _type_name(found: Any) -> str:
    try:
        return str(found)
    except Exception:  # a type that cannot compile without a dialect
        return type(found).__name__


def _mysql_boolean(found: Any) -> bool:
    """MySQL's BOOLEAN is TINYINT(1)."""
    return isinstance(found, mysql.TINYINT) and found.display_width == 1


def _integer_range(found: Any, backend: str) -> dict[str, int]:
    if backend == "sqlite" or isinstance(found, sa.BigInteger):
        return {}
    if isinstance(found, mysql.TINYINT):
        bits = _SIGNED["tiny"]
    elif isinstance(found, mysql.MEDIUMINT):
        bits = _SIGNED["medium"]
    elif isinstance(found, sa.SmallInteger):
        bits = _SIGNED["small"]
    else:
        bits = _SIGNED["int"]
    if getattr(found, "unsigned", False):
        return {"minimum": 0, "maximum": 2 ** (bits + 1) - 1}
    return {"minimum": -(2**bits), "maximum": 2**bits - 1}


def _decimal(found: Any) -> dict[str, Any] | Unsupported:
    precision, scale = found.precision, found.scale
    if precision is None:
        # NUMERIC without digits: the manifest's defaults (15, 2) apply; a note says so.
        return {"type": "number", "format": "decimal"}
    scale = scale or 0
    if precision > MAX_PRECISION or scale > MAX_SCALE:
        return Unsupported(
            f"NUMERIC({precision}, {scale}) has more digits than a manifest decimal "
            f"holds (precision ≤ {MAX_PRECISION}, scale ≤ {MAX_SCALE})"
        )
    return {
        "type": "number",
        "format": "decimal",
        "precision": precision,
        "scale": scale,
    }


def _string(found: Any) -> dict[str, Any]:
    length = getattr(found, "length", None)
    if isinstance(found, sa.Text) or (length is None and _is_long_text(found)):
        return {"type": "string", "format": "text"}
    if length is not None and 0 < length <= MAX_LENGTH:
        return {"type": "string", "maxLength": length}
    return {"type": "string"}


def _is_long_text(found: Any) -> bool:
    return isinstance(found, sa.CLOB | mysql.LONGTEXT | mysql.MEDIUMTEXT)


def field_default(
    column: Column, options: dict[str, Any]
) -> dict[str, Any] | Unsupported:
    """``default:`` or ``default_sql:`` for ``column``'s server default, or why not."""
    text = (column.default or "").strip()
    if not text or text.upper() == "NULL":
        return {}
    kind = options.get("format")
    if _NOW.fullmatch(text) and kind == "date-time":
        return {"default_sql": "now()"}
    if _TODAY.fullmatch(text) and kind == "date":
        return {"default_sql": "current_date"}
    value = _constant(text, options)
    if isinstance(value, Unsupported):
        return value
    return {"default": value}


def _date_time(text: str) -> str | Unsupported:
    """A date-time as the manifest writes it: ``2024-01-31T12:00:00Z``."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return Unsupported(f"the server default '{text}' is not a date-time")
    written = moment.isoformat()
    if moment.utcoffset() is not None and not moment.utcoffset():
        return written.removesuffix("+00:00") + "Z"
    return written


def _constant(text: str, options: dict[str, Any]) -> Any:
    """The constant a default's SQL text holds, as the field's type reads it."""
    kind = options["type"]
    quoted = _QUOTED.match(text)
    raw = quoted.group(1).replace("''", "'") if quoted else text
    number = _NUMBER.match(raw)
    if kind == "boolean":
        if raw.lower() in _BOOLEAN:
            return _BOOLEAN[raw.lower()]
        if raw in ("0", "1"):
            return raw == "1"
    elif kind == "integer" and number and number.group(2) is None:
        return int(number.group(1))
    elif kind == "number" and number:
        value = number.group(1)
        return int(value) if number.group(2) is None else float(value)
    elif kind == "string" and quoted:
        return _date_time(raw) if options.get("format") == "date-time" else raw
    return Unsupported(f"the server default {text} cannot be said in a manifest")
