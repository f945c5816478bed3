"""The history of changes in ``panel_history`` (``HistoryRow``, migration 0003).

The store writes the rows (``panel_core.history`` says what they hold) inside the
transaction of the change they record; pages read them back newest first.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from typing import Any

from panel_core.history import Entry, row_values, stored_key
from panel_core.history_pages import ROW_KEYS

from .models import HistoryRow

_NEWEST = ("-at", "-id")


def write(entries: Iterable[Entry | None]) -> None:
    """Add the rows of ``entries`` (``None``: nothing changed), in the current
    transaction."""
    rows = [HistoryRow(**row_values(entry)) for entry in entries if entry is not None]
    if rows:
        HistoryRow.objects.bulk_create(rows)


def of_record(resource: str, key: Any, limit: int) -> list[dict[str, Any]]:
    """The latest ``limit`` changes of one record, newest first."""
    rows = HistoryRow.objects.filter(resource=resource, record_key=stored_key(key))
    return list(rows.order_by(*_NEWEST).values(*ROW_KEYS)[:limit])


def recent(resources: Sequence[str], limit: int) -> list[dict[str, Any]]:
    """The latest ``limit`` changes of any record of ``resources``."""
    if not resources:
        return []
    rows = HistoryRow.objects.filter(resource__in=resources)
    return list(rows.order_by(*_NEWEST).values(*ROW_KEYS)[:limit])


def prune(before: datetime.datetime) -> int:
    """Remove the changes made before ``before``; how many were removed."""
    removed, _by_model = HistoryRow.objects.filter(at__lt=before).delete()
    return removed
