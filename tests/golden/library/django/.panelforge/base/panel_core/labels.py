"""How a record is named wherever the panel names one: pickers, links, headings.

A resource's ``display`` is a field name (``"last_name"``) or a format string over
fields (``"{first_name} {last_name}"``: only plain ``{field}`` placeholders, ``{{``
and ``}}`` for braces). Without it, a record is named by its resource's first text
field, else by its key, as the select boxes of MoonShine's ``BelongsTo`` are. A
blank name falls back to ``#<key>``.
"""

from __future__ import annotations

import datetime
import decimal
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import fields as kernel
from .translation import gettext

if TYPE_CHECKING:
    from .resource import Resource

# One piece of a display: literal text, or the name of the field shown there.
Part = tuple[str, str | None]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PIECE = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]|[^{}]+")


class DisplayError(ValueError):
    """A ``display`` that is not a field name nor a format string of plain fields."""


def parse_display(display: str) -> tuple[Part, ...]:
    """``display`` as literal text and field names, in order; ``DisplayError`` if bad.

    A bare name is one field; anything else is a format string.
    """
    if _NAME.fullmatch(display):
        return (("", display),)
    parts: list[Part] = []
    for match in _PIECE.finditer(display):
        piece = match.group(0)
        if piece in ("{{", "}}"):
            parts.append((piece[0], None))
        elif piece in ("{", "}"):
            raise DisplayError(
                f"has an unbalanced '{piece}' (write '{piece * 2}' for one)"
            )
        elif piece.startswith("{"):
            name = match.group(1)
            if not _NAME.fullmatch(name):
                raise DisplayError(
                    f"has '{piece}': only a plain field name may go between braces"
                )
            parts.append(("", name))
        else:
            parts.append((piece, None))
    if not any(name for _, name in parts):
        raise DisplayError("names no field: put one between braces, like '{name}'")
    return tuple(parts)


def display_fields(parts: tuple[Part, ...]) -> tuple[str, ...]:
    """The fields a display reads, each once, in order."""
    return tuple(dict.fromkeys(name for _, name in parts if name))


def default_display(resource: type[Resource]) -> str:
    """The name of the field naming a record: the first text field, or the key."""
    for field in resource.readable_fields:
        if isinstance(field, kernel.Text | kernel.Email) and not field.key:
            return field.name
    return resource.key_field.name


def value_text(value: Any) -> str:
    """``value`` as the panel shows it in text: date-times to the second."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return gettext("Yes") if value else gettext("No")
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, decimal.Decimal):
        return format(value, "f")  # 0.00000000, never 0E-8
    return str(value)


def record_label(resource: type[Resource], key: Any, values: Mapping[str, Any]) -> str:
    """The name of the record ``key`` of ``resource`` whose fields are ``values``."""
    text = "".join(
        literal if name is None else value_text(values.get(name))
        for literal, name in resource.display_parts
    )
    return text if text.strip() else f"#{key}"
