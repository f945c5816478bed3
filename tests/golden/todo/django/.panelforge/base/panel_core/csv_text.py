"""CSV export and import text: the one place that turns values into cells and back.

Export writes the readable fields, header row first, each value in the text form the
import (and a form) accepts: ``true``/``false``, ISO 8601 dates, plain numbers, empty
for null. Text that a spreadsheet would run as a formula (first character ``=``,
``+``, ``-``, ``@``, tab or carriage return) gets a leading ``'``, and so does text
already starting with ``'``; the import removes exactly that one ``'`` again, so an
export imports back unchanged. Numbers are written as numbers: a spreadsheet never
runs ``-5`` as a formula. A many-to-many field's cell is its keys joined with ``;``
(``3;7``; each key a cell of its own kind, neutralised alike), empty for none. A
file or image field's cell is the stored file's download URL; the import skips those
columns (a file is uploaded, never named), so the records keep their files.
"""

from __future__ import annotations

import csv
import decimal
import io
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from .composite_keys import CompositeKey
from .fields import Field, File, json_type
from .files import StoredFile
from .query import parse_key, parse_value, to_utc
from .resource import Resource
from .translation import gettext

# Between the keys of a many-to-many field's cell.
LINK_SEPARATOR = ";"
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
_ESCAPED = (*_FORMULA, "'")
# String formats whose blank cell means "no value" rather than empty text.
_NOT_TEXT = frozenset({"date", "date-time", "uuid"})


class CsvError(ValueError):
    """The file cannot be imported; ``errors`` name the rows (or ``file``)."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        super().__init__(next(iter(errors.values()))[0])
        self.errors = errors


@dataclass(frozen=True)
class CsvRow:
    """One record of an import: its row label, key (or None) and cell values."""

    label: str
    key: Any
    values: dict[str, Any]  # text, None, or a many-to-many field's list of keys


def neutralise(text: str) -> str:
    """``text`` as a cell no spreadsheet runs as a formula."""
    return "'" + text if text.startswith(_ESCAPED) else text


def restore(cell: str) -> str:
    """The text ``neutralise`` made ``cell`` from (other cells stay as they are)."""
    if cell[:1] == "'" and cell[1:2] and cell[1] in _ESCAPED:
        return cell[1:]
    return cell


def cell(value: Any) -> str:
    """A value as its export cell."""
    if value is None:
        return ""
    if isinstance(value, list):  # a many-to-many field's keys
        return LINK_SEPARATOR.join(cell(key) for key in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, decimal.Decimal):
        return format(value, "f")  # exact, and a number to a spreadsheet
    if isinstance(value, datetime):
        return to_utc(value).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, StoredFile):
        return value.url
    return neutralise(str(value))


def header(resource: type[Resource]) -> list[str]:
    """The export's columns: every readable field, then the many-to-many fields."""
    names = [f.name for f in resource.readable_fields]
    return names + [link.name for link in resource.many_to_many]


def lines(rows: Iterable[Sequence[str]]) -> str:
    """Rows as CSV text (RFC 4180: quoted where needed, CRLF line ends)."""
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue()


def export_lines(resource: type[Resource], records: Iterable[Mapping[str, Any]]) -> str:
    """Records as CSV lines in ``header`` order."""
    names = header(resource)
    return lines([cell(record[name]) for name in names] for record in records)


def export_chunks(
    resource: type[Resource], batches: Iterable[Iterable[Mapping[str, Any]]]
) -> Iterator[str]:
    """A whole export as text chunks: the header row, then one chunk per batch."""
    yield lines([header(resource)])
    for batch in batches:
        yield export_lines(resource, batch)


def read_rows(resource: type[Resource], text: str) -> list[CsvRow]:
    """The records of an import file; ``CsvError`` names every malformed row."""
    rows, errors = parse_rows(resource, text)
    if errors:
        raise CsvError(errors)
    return rows


def parse_rows(
    resource: type[Resource], text: str
) -> tuple[list[CsvRow], dict[str, list[str]]]:
    """The well-formed records of an import file, and why each other row is not
    (a preview lists both); ``CsvError`` when the file itself is unreadable."""
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        table = list(reader)
    except csv.Error as exc:
        message = gettext("The file is not valid CSV: %(problem)s.")
        raise CsvError({"file": [message % {"problem": exc}]}) from None
    if not table or not table[0]:
        raise CsvError({"file": [gettext("The file has no header row.")]})
    columns = _columns(resource, table[0])
    rows: list[CsvRow] = []
    errors: dict[str, list[str]] = {}
    # Rows are counted as a spreadsheet shows them: the header is row 1.
    for number, cells in enumerate(table[1:], start=2):
        label = f"row {number}"
        if not cells:
            continue
        if len(cells) != len(columns):
            message = gettext(
                "The row has %(cells)s cells; the header has %(columns)s."
            )
            errors[label] = [message % {"cells": len(cells), "columns": len(columns)}]
            continue
        try:
            rows.append(_row(resource, label, columns, cells))
        except ValueError as exc:
            errors[label] = [str(exc)]
    return rows, errors


def _columns(resource: type[Resource], names: list[str]) -> list[Field | None]:
    """The field of each header cell; ``None`` for columns the import skips."""
    names = [name.strip() for name in names]
    twice = gettext("The column %(name)r appears twice.")
    problems = [twice % {"name": n} for n in _duplicates(names)]
    columns: list[Field | None] = []
    for name in names:
        link = resource.many_to_many_map.get(name)
        if link is not None:
            columns.append(link.item_field)  # its cell: keys joined with ";"
            continue
        field = resource.field_map.get(name)
        # A has-many field is read-only and has no column: skipped, as read-only
        # fields are.
        if field is None and name not in resource.has_many_map:
            unknown = gettext("The column %(name)r is not a field of this resource.")
            problems.append(unknown % {"name": name})
        writable = field is not None and (field.writable or field.key or field.key_part)
        uploaded = isinstance(field, File)  # a file is uploaded, never named
        columns.append(field if writable and not uploaded else None)
    if problems:
        raise CsvError({"file": problems})
    return columns


def _duplicates(names: list[str]) -> list[str]:
    return sorted({name for name in names if names.count(name) > 1})


def _row(
    resource: type[Resource], label: str, columns: list[Field | None], cells: list[str]
) -> CsvRow:
    key = None
    values: dict[str, Any] = {}
    for field, raw in zip(columns, cells, strict=True):
        if field is None:
            continue
        text = restore(raw)
        if field.name in resource.many_to_many_map:
            keys = (restore(k.strip()) for k in raw.split(LINK_SEPARATOR))
            values[field.name] = [k for k in keys if k]
        elif field.key:
            key = _key(resource, text)
        elif text != "" or (_is_text(field) and not field.accepts_null):
            values[field.name] = text
        elif field.accepts_null:
            values[field.name] = None
    if resource.key_parts:  # the parts are cells of their own, the key their values
        key = _composite_key(resource, values)
    return CsvRow(label, key, values)


def _composite_key(resource: type[Resource], values: dict[str, Any]) -> Any:
    """The key a row's parts name, or None (a part missing or not a value of its
    kind: the row then creates a record, and its checks name the part)."""
    texts = [values.get(name) for name in resource.key_parts]
    if any(not isinstance(text, str) or text == "" for text in texts):
        return None
    try:
        parsed = [
            parse_value(f, t) for f, t in zip(resource.key_fields, texts, strict=True)
        ]
    except ValueError:
        return None
    return CompositeKey(parsed)


def _key(resource: type[Resource], text: str) -> Any:
    if text == "":
        return None
    key = parse_key(resource, text)
    if key is None:
        message = gettext("The %(label)s %(key)r is not a valid key.")
        raise ValueError(message % {"label": resource.key_field.label, "key": text})
    return key


def _is_text(field: Field) -> bool:
    return json_type(field) == "string" and field.json_format not in _NOT_TEXT
