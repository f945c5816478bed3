"""Where a form goes once it saved a record, and the message it shows there.

A record form has three submit buttons, told apart by the ``_save`` field: plain
Save goes back to the list, "Save and continue editing" (``_save=continue``) to the
record's form again, "Save and add another" (``_save=another``) to an empty create
form. The message names the record by its display label, as the one after a delete
from the pages does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .labels import record_label
from .registry import PanelResource
from .translation import gettext
from .urls import form_page_url, page_url

SAVE_CHOICE = "_save"
CONTINUE = "continue"
ANOTHER = "another"


def after_save(
    panel: PanelResource[Any],
    record: Mapping[str, Any],
    choice: str | None,
    *,
    created: bool,
) -> tuple[str, str]:
    """The page to go to and the message to show there."""
    key = panel.resource.key_of(record)
    name = record_label(type(panel.resource), key, record)
    said = gettext("%(label)s “%(name)s” created.") if created else None
    said = said or gettext("%(label)s “%(name)s” saved.")
    message = said % {"label": panel.store.label, "name": name}
    if choice == CONTINUE:
        return form_page_url(panel.uri, key), message
    if choice == ANOTHER:
        return form_page_url(panel.uri), message
    return page_url(panel.uri, "index-page"), message


def deleted_message(panel: PanelResource[Any], record: Mapping[str, Any]) -> str:
    """What the list says once ``record`` was deleted (or moved to the trash)."""
    key = panel.resource.key_of(record)
    name = record_label(type(panel.resource), key, record)
    if type(panel.resource).soft_delete:
        said = gettext("%(label)s “%(name)s” moved to the trash.")
    else:
        said = gettext("%(label)s “%(name)s” deleted.")
    return said % {"label": panel.store.label, "name": name}
