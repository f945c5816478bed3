"""The page of an action: what it asks before it runs on the selected records.

Reached from a record's action button or from the list's bulk bar (``GET`` of the
action's URL, the selection in its query string); it names the action and how many
records it will run on, shows the confirmation text and the inputs of the action's
fields, and posts to the same URL. After a 422 it shows the input again, with the
messages beside each field. No JavaScript is needed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .forms import form_widgets
from .record_actions import (
    CONFIRMED_FIELD,
    Action,
    Selection,
    action_label,
    action_url,
)
from .registry import PanelResource
from .urls import page_url

Errors = Mapping[str, Sequence[str]]


def action_context(
    panel: PanelResource[Any],
    action: Action,
    chosen: Selection,
    count: int,
    *,
    values: Mapping[str, str] | None = None,
    errors: Errors | None = None,
) -> dict[str, Any]:
    """The action's page: its question, its form, and the records it runs on."""
    resource = type(panel.resource)
    index = page_url(panel.uri, "index-page")
    form = panel.actions.form_class(action)
    errors = errors or {}
    names = {f.name for f in action.fields}
    noun = panel.store.label if count == 1 else resource.title.lower()
    return {
        "heading": f"{action_label(action)}: {count} {noun}",
        "action_label": action_label(action),
        "confirm": action.confirm,
        "count": count,
        "everything": chosen.everything,
        "crumbs": [(resource.title, index)],
        "action": action_url(panel.uri, action.name, chosen.params),
        "widgets": form_widgets(form, values or {}, errors, {}, creating=True),
        "other_errors": [
            m for n, found in errors.items() if n not in names for m in found
        ],
        "errors": bool(errors),
        "cancel_url": index,
        "confirmed_field": CONFIRMED_FIELD,
    }
