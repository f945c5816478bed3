"""The panel's home, a dashboard: per resource its user may list, how many records
it has, the latest few, its metrics, and an "Add" link when the user may create.

Counting is the list's ``total=estimate`` (``panel_core.pagination.list_body``):
exact up to ``ESTIMATE_CAP``, estimated past it, so a huge table is never counted in
full. The latest records are one page of the list, newest first: by a ``created_at``
date or date-time field when the resource has a sortable one, else by key. Each
framework reads, per resource, that page (two queries, three when estimating) and its
metrics (one query), whatever the number of records; the same answer is the page's
context and the JSON of ``GET <prefix>/dashboard``.

"Recent changes" are the latest rows of the history of changes
(``panel_core.history_pages.recent_changes``) of the resources whose records the user
may view: a resource with a ``scope`` shows those of the live records in the user's
scope (``reachable_rows``), one with a per-record ``can`` none.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from . import fields as kernel
from .cell_text import integer_text
from .history import RECENT
from .labels import value_text
from .metrics import metric_cards
from .pagination import PageUrls, list_body
from .query import ESTIMATE, ESTIMATE_CAP, ListQuery, Sort
from .registry import PanelResource
from .resource import Resource
from .table import display
from .translation import ngettext
from .urls import page_url

# How many of each resource's newest records the dashboard shows.
LATEST = 5
# A field of this name (a date or date-time) orders records by when they were made.
CREATED_AT = "created_at"
_DATES = (kernel.Date, kernel.DateTime)


def newest_first(resource: type[Resource]) -> str:
    """The field the latest records are ordered by, descending."""
    created = resource.field_map.get(CREATED_AT)
    if isinstance(created, _DATES) and CREATED_AT in resource.sortable_fields:
        return CREATED_AT
    return resource.key_name()


def latest_query(resource: type[Resource]) -> ListQuery:
    """The list query of the dashboard: the newest ``LATEST``, counted by estimate."""
    order = (Sort(newest_first(resource), descending=True),)
    return ListQuery(1, LATEST, order, total=ESTIMATE, key=resource.key_name())


def latest_label(resource: type[Resource], key: Any, record: dict[str, Any]) -> str:
    """A latest record's name, its values as list cells show them (an enum's label,
    a date-time to the minute in UTC, numbers with separators), where pickers and
    headings keep them as stored (``panel_core.labels.record_label``)."""
    text = ""
    for literal, name in resource.display_parts:
        field = None if name is None else resource.field_map.get(name)
        value = None if name is None else record.get(name)
        if name is None:
            text += literal
        elif field is not None and value is not None and value != "":
            text += display(field, value).text
        else:
            text += value_text(value)
    return text if text.strip() else f"#{key}"


def resource_summary(
    panel: PanelResource[Any],
    rows: Sequence[dict[str, Any]],
    total: int | None,
    metrics: Sequence[tuple[Any, int]],
    *,
    can_view: bool,
    can_create: bool,
) -> dict[str, Any]:
    """One resource on the dashboard, from what its store read for ``latest_query``
    (``rows``, ``total``) and for its metrics (the ``(sum, count)`` pairs)."""
    resource = type(panel.resource)
    index_url = page_url(panel.uri, "index-page")
    body = list_body(latest_query(resource), rows, total, PageUrls(index_url, ()))
    count = int(body["total"] or 0)
    key_name = resource.key_name()
    latest = []
    for record in body["data"]:
        key = record[key_name]
        url = page_url(panel.uri, "detail-page", key) if can_view else None
        label = latest_label(resource, key, record)
        latest.append({"key": key, "label": label, "url": url})
    return {
        "name": resource.name,
        "uri": panel.uri,
        "title": resource.title or panel.uri,
        "label": panel.store.label,
        "count": count,
        "count_is_estimate": count > ESTIMATE_CAP,
        "list_url": index_url,
        "create_url": page_url(panel.uri, "form-page") if can_create else None,
        "latest": latest,
        "metrics": metric_cards(resource, metrics),
    }


def dashboard_body(summaries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The JSON answer of ``GET <prefix>/dashboard``."""
    return {"resources": list(summaries)}


def count_text(summary: dict[str, Any]) -> str:
    """A resource's count for people, as list cells show integers: "1204 records",
    "12,345 records", "about 2,500,000 records"."""
    count = summary["count"]
    shown = {"num": integer_text(count)}
    if summary["count_is_estimate"]:
        return ngettext("about %(num)s record", "about %(num)s records", count) % shown
    return ngettext("%(num)s record", "%(num)s records", count) % shown


def dashboard_context(
    summaries: Sequence[dict[str, Any]], recent: Sequence[dict[str, Any]] = ()
) -> dict[str, Any]:
    """The home page's context: each resource's card, and the recent changes."""
    cards = [{**summary, "count_text": count_text(summary)} for summary in summaries]
    return {"dashboard": cards, "recent_changes": list(recent)}


def shows_changes(panel: PanelResource[Any]) -> bool:
    """Whether the recent changes may list ``panel``'s (no per-record ``can``,
    which could refuse any record)."""
    return not panel.lifecycle.record_rules


def changes_to_read(panels: Iterable[PanelResource[Any]]) -> int:
    """How many rows to read for the recent changes: more when a scope may hide
    some (``panel_core.history_pages.reachable_rows``)."""
    scoped = any(panel.lifecycle.scoped for panel in panels)
    return RECENT * 5 if scoped else RECENT
