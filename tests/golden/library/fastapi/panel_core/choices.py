"""How related records are offered and named: in tables, on detail pages, in inputs.

A related record is named by its resource's ``display`` (``panel_core.labels``). Each
framework loads the fields a display reads with its own database layer, by these rules:
a belongs-to input offers every record its user may reach as a ``<select>`` when they
are at most ``SELECT_LIMIT``; beyond that it is a key input with a search-as-you-type
picker (``static/panel/picker.js``, over the related resource's own JSON list) and a
"find…" link to the related list for pages without JavaScript. Never a silent cut.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .query import parse_key
from .urls import crud_url, page_url

if TYPE_CHECKING:
    from .resource import Resource

# Up to this many related records, an input offers them all in a select box.
SELECT_LIMIT = 200
# How many found records the picker asks the related list for at a time.
PICKER_PAGE = 20


@dataclass(frozen=True)
class Picker:
    """Where the picker of a related resource searches, and how it names records."""

    search_url: str
    find_url: str
    key_name: str
    display: str
    # Whether the related resource has ``search`` fields; without them the picker
    # looks records up by the key typed.
    searchable: bool = True

    @property
    def search(self) -> str:
        """The related list's JSON URL, asking for one picker page."""
        return f"{self.search_url}?per_page={PICKER_PAGE}"


@dataclass(frozen=True)
class Related:
    """What a belongs-to input offers: every reachable record (``options``) when they
    fit in a select box, else a ``picker`` and the name of the current value."""

    options: tuple[tuple[Any, str], ...] = ()
    picker: Picker | None = None
    current: Mapping[str, str] = field(default_factory=dict)
    # The picker a select box of them all becomes with JavaScript (many-to-many).
    finder: Picker | None = None


def referred(records: Sequence[Mapping[str, Any]], name: str) -> set[Any]:
    """The keys ``records`` refer to in field ``name``: a belongs-to field's value,
    or each key of a many-to-many field's list."""
    keys: set[Any] = set()
    for record in records:
        value = record.get(name)
        if isinstance(value, list):
            keys.update(value)
        elif value is not None:
            keys.add(value)
    return keys


def option_text(key: Any, label: str) -> str:
    """An option's text: the record's name and, to tell equal names apart, its key."""
    tag = f"#{key}"
    return label if label == tag else f"{label} · {tag}"


def picker_for(resource: type[Resource]) -> Picker:
    """The picker searching ``resource``'s records."""
    return Picker(
        search_url=crud_url(resource.uri),
        find_url=page_url(resource.uri, "index-page"),
        key_name=resource.key_name(),
        display=json.dumps(resource.display_parts, separators=(",", ":")),
        searchable=bool(resource.search),
    )


def wanted_key(resource: type[Resource], text: str | None) -> Any | None:
    """The key ``text`` (an input's value) names in ``resource``, if it can be one."""
    return parse_key(resource, text) if text else None


def offer(
    resource: type[Resource],
    rows: Sequence[tuple[Any, str]],
    current: tuple[str, str] | None = None,
) -> Related:
    """The offer for up to ``SELECT_LIMIT + 1`` ``rows`` (key, label) read in order:
    all of them, or a picker showing ``current`` (the input's value and its name)."""
    if len(rows) <= SELECT_LIMIT:
        return Related(options=tuple(rows), finder=picker_for(resource))
    return Related(
        picker=picker_for(resource), current=dict([current] if current else [])
    )
