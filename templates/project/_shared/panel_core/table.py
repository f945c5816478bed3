"""What the index table and the detail page show: columns, rows and display cells.

Values become text here and are escaped by the templates; only http(s) URLs ever become
links, so a stored ``javascript:`` URL stays inert text.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from . import fields as kernel
from .cell_text import date_time_text, number_text
from .files import from_column
from .labels import value_text
from .resource import ManyToMany, Resource
from .translation import gettext
from .urls import page_url

_LONG_TEXT = 80
# How many linked records a list cell names before "+N more".
_FIRST_LINKS = 3


@dataclass(frozen=True)
class Cell:
    """One value as shown: its text, a link when it has one, a kind for the style."""

    text: str
    href: str | None = None
    kind: str = "text"
    # An image's thumbnail (lists) or, with ``href``, the image itself (detail).
    thumb: str | None = None
    # Several related records, each named and linked (a many-to-many field).
    links: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Column:
    """A table heading; sortable ones link to the list sorted by them."""

    name: str
    label: str
    sort_url: str | None = None
    direction: str | None = None


@dataclass(frozen=True)
class Row:
    """One record in the table."""

    key: str
    cells: list[Cell]
    detail_url: str
    edit_url: str


def http_url(value: Any) -> str | None:
    """``value`` when it is an http(s) URL, so it may become a link; else ``None``."""
    if not isinstance(value, str) or any(ord(c) < 33 for c in value):
        return None
    try:
        parts = urlsplit(value)
    except ValueError:
        return None
    return value if parts.scheme in ("http", "https") and parts.netloc else None


def display(
    field: kernel.Field, value: Any, labels: Mapping[Any, str] | None = None
) -> Cell:
    """How ``value`` of ``field`` is shown; ``labels`` name related records."""
    if value is None or value == "":
        return Cell("—", kind="empty")
    if isinstance(field, kernel.Boolean):
        return Cell(gettext("Yes") if value else gettext("No"), kind="boolean")
    if isinstance(field, kernel.File):
        found = from_column(value)
        if found is None:
            return Cell("—", kind="empty")
        if found.is_image:
            return Cell(found.name, found.url, "image", found.url + "?thumb=1")
        return Cell(found.name, href=found.url, kind="file")
    if isinstance(field, kernel.BelongsTo):
        label = (labels or {}).get(value, f"#{value}")
        return Cell(label, href=page_url(field.resource, "detail-page", value))
    if isinstance(field, kernel.Url):
        return Cell(str(value), href=http_url(value))
    return _shown(field, value)


def _shown(field: kernel.Field, value: Any) -> Cell:
    """A plain value as people read it (``panel_core.cell_text``)."""
    if isinstance(field, kernel.Select):
        return Cell(field.label_of(value))
    if field.key or field.key_part:  # an identifier: as it is
        kind = "number" if isinstance(field, kernel.Integer) else "text"
        return Cell(value_text(value), kind=kind)
    if isinstance(field, kernel.Decimal):
        return Cell(number_text(value, field.scale), kind="number")
    if isinstance(field, kernel.Integer | kernel.Number):
        return Cell(number_text(value), kind="number")
    if isinstance(value, datetime.datetime):
        return Cell(date_time_text(value))
    return Cell(value_text(value))


def display_links(
    link: ManyToMany, keys: Sequence[Any], labels: Mapping[Any, str] | None = None
) -> Cell:
    """The records a many-to-many field links, each named and linked to its page."""
    if not keys:
        return Cell("—", kind="empty")
    named = tuple(
        (
            (labels or {}).get(key, f"#{key}"),
            page_url(link.resource, "detail-page", key),
        )
        for key in keys
    )
    return Cell(", ".join(name for name, _ in named), kind="links", links=named)


def first_links(cell: Cell) -> Cell:
    """``cell`` of linked records for the table: the first few, then how many more."""
    if len(cell.links) <= _FIRST_LINKS:
        return cell
    shown = cell.links[:_FIRST_LINKS]
    more = f" +{len(cell.links) - _FIRST_LINKS} more"
    text = ", ".join(name for name, _ in shown) + more
    return Cell(text, kind="links", links=(*shown, (more.strip(), "")))


def shorten(cell: Cell) -> Cell:
    """``cell`` with long text cut for the table."""
    if len(cell.text) <= _LONG_TEXT:
        return cell
    return Cell(cell.text[: _LONG_TEXT - 1] + "…", cell.href, cell.kind, cell.thumb)


def table_fields(resource: type[Resource]) -> tuple[kernel.Field, ...]:
    """The fields the index table shows: ``index_fields``, else every returned one."""
    return resource.index_field_list


def columns(
    resource: type[Resource], params: Sequence[tuple[str, str]]
) -> list[Column]:
    """The table's headings, each sortable one linking to the list sorted by it."""
    current = dict(params).get("sort") or resource.default_sort
    kept = [(k, v) for k, v in params if k not in ("sort", "page")]
    found = []
    for field in table_fields(resource):
        if field.name not in resource.sortable_fields:
            found.append(Column(field.name, field.label))
            continue
        direction = {field.name: "asc", f"-{field.name}": "desc"}.get(current)
        order = f"-{field.name}" if direction == "asc" else field.name
        url = page_url(resource.uri, "index-page", query=[*kept, ("sort", order)])
        found.append(Column(field.name, field.label, url, direction))
    found += [Column(link.name, link.label) for link in resource.index_link_list]
    return found


def rows(
    resource: type[Resource],
    records: Sequence[Mapping[str, Any]],
    labels: Mapping[str, Mapping[Any, str]],
) -> list[Row]:
    """The table's rows: each record's cells, and links to its pages."""
    found = []
    for record in records:
        key = resource.key_of(record)
        cells = [
            shorten(display(f, record[f.name], labels.get(f.name)))
            for f in table_fields(resource)
        ]
        cells += [
            first_links(display_links(link, record[link.name], labels.get(link.name)))
            for link in resource.index_link_list
        ]
        found.append(
            Row(
                key=str(key),
                cells=cells,
                detail_url=page_url(resource.uri, "detail-page", key),
                edit_url=page_url(resource.uri, "form-page", key),
            )
        )
    return found
