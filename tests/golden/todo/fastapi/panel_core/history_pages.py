"""The history as pages show it: a record's changes, the dashboard's recent ones.

Each framework reads the rows (``panel_core.history`` says what they hold) as dicts
with the keys of ``ROW_KEYS``; these functions turn them into text, values formatted
as the list and detail cells format them (``panel_core.table.display``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from . import fields as kernel
from .cell_text import date_time_text
from .history import CREATED, DELETED, RESTORED, TRASHED, UPDATED, is_whole_key
from .query import parse_key, parse_value
from .registry import PanelResource
from .resource import Resource
from .table import display
from .translation import gettext, gettext_noop
from .urls import page_url

ROW_KEYS = (
    "at",
    "user_id",
    "user_login",
    "resource",
    "record_key",
    "record_label",
    "action",
    "changes",
)

# How pages name each action, in the sentence "%(action)s by %(who)s".
ACTION_TEXTS = {
    CREATED: gettext_noop("created"),
    UPDATED: gettext_noop("updated"),
    DELETED: gettext_noop("deleted"),
    TRASHED: gettext_noop("trashed"),
    RESTORED: gettext_noop("restored"),
}


def _value(field: kernel.Field | None, value: Any) -> str:
    """A recorded JSON value as a cell shows it."""
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "—"
    if field is None or value is None or isinstance(field, kernel.File):
        return "—" if value in (None, "") else str(value)
    try:
        stored = parse_value(field, value) if isinstance(value, str) else value
    except ValueError:
        stored = value
    return display(field, stored).text


def change_lines(resource: type[Resource], changes: Mapping[str, Any]) -> list[str]:
    """``Title: Dune → Dune Messiah`` per changed field; a secret: ``Password: changed``."""
    labels = {m.name: m.label for m in resource.many_to_many}
    lines = []
    for name, values in changes.items():
        field = resource.field_map.get(name)
        label = field.label if field is not None else labels.get(name, name)
        if values is None:
            lines.append(gettext("%(label)s: changed") % {"label": label})
            continue
        old, new = values
        lines.append(f"{label}: {_value(field, old)} → {_value(field, new)}")
    return lines


def _changes(row: Mapping[str, Any]) -> dict[str, Any]:
    """A row's changed fields (kept as JSON text)."""
    found = json.loads(row["changes"] or "{}")
    return found if isinstance(found, dict) else {}


def _when_who(row: Mapping[str, Any]) -> dict[str, str]:
    action = row["action"]
    who = row["user_login"] or "—"
    said = gettext(ACTION_TEXTS.get(action, action))
    return {
        "when": date_time_text(row["at"]),
        "who": who,
        "action": action,
        "done": gettext("%(action)s by %(who)s") % {"action": said, "who": who},
    }


def record_history(
    resource: type[Resource], rows: Iterable[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """A record's history on its detail page, newest first."""
    return [
        {**_when_who(row), "changes": change_lines(resource, _changes(row))}
        for row in rows
    ]


def reachable_rows(
    panels: Mapping[str, PanelResource[Any]],
    rows: Sequence[Mapping[str, Any]],
    existing: Callable[[PanelResource[Any], list[Any]], set[Any]],
) -> list[Mapping[str, Any]]:
    """``rows`` but those of a resource with a ``scope`` whose record the user may
    not reach (or that is no longer live); ``existing(panel, keys)`` answers which
    of ``keys`` the user reaches."""
    wanted: dict[str, dict[str, Any]] = {}
    for row in rows:
        panel = panels.get(row["resource"])
        if panel is not None and panel.lifecycle.scoped:
            key = parse_key(type(panel.resource), row["record_key"])
            if key is not None:
                wanted.setdefault(panel.uri, {})[row["record_key"]] = key
    reached: dict[str, set[str]] = {}
    for uri, keys in wanted.items():
        found = existing(panels[uri], list(keys.values()))
        reached[uri] = {text for text, key in keys.items() if key in found}
    return [
        row
        for row in rows
        if row["resource"] not in panels
        or not panels[row["resource"]].lifecycle.scoped
        or row["record_key"] in reached.get(row["resource"], set())
    ]


def recent_changes(
    panels: Mapping[str, PanelResource[Any]], rows: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The dashboard's recent changes: what changed, linked unless it was deleted or
    moved to the trash."""
    recent = []
    for row in rows:
        panel = panels.get(row["resource"])
        if panel is None:
            continue
        gone = row["action"] in (DELETED, TRASHED) or not is_whole_key(
            row["record_key"]
        )
        url = None if gone else page_url(panel.uri, "detail-page", row["record_key"])
        recent.append(
            {
                **_when_who(row),
                "label": panel.store.label,
                "name": row["record_label"],
                "url": url,
            }
        )
    return recent
