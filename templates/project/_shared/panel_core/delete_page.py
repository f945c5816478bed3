"""The page that asks before a delete from the pages.

A delete sent from the pages (a form, ``_method=DELETE``) is never done at once: the
answer is this page, as Django admin's "Are you sure?", naming the record (or listing
the selected records of a mass delete) and, when a cascade takes others along, how
many records of each resource go too; its form sends the delete again, confirmed
(``_confirmed``), and works without JavaScript. A delete the rules refuse shows the
409 instead, naming what refers to the record. JSON clients are never asked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .delete_rules import NOTHING_DELETED, DeletePlan, DeleteRules, undeletable
from .errors import InvalidInput
from .labels import record_label
from .registry import PanelResource
from .translation import gettext, gettext_noop
from .urls import page_url, record_url

CONFIRMED_FIELD = "_confirmed"
# What the list says when a mass delete from the page cannot even be asked.
# (Translated where shown: ``gettext(NOTHING_TICKED)``.)
NOTHING_TICKED = gettext_noop("Tick the records to delete first.")
NONE_LEFT = gettext_noop("Nothing was deleted: the selected records no longer exist.")


# The most records a mass delete's question lists by name (a page ticks at most its
# largest per_page of them; more are counted).
LISTED = 100


def ticked_keys(
    panel: PanelResource[Any], body: Mapping[str, Any], query: Sequence[tuple[str, str]]
) -> list[Any] | None:
    """The keys a page's mass delete ticked; ``None`` when there are none to read
    (the list says ``NOTHING_TICKED`` rather than a 422 page)."""
    try:
        keys: list[Any] = panel.inputs.ids(body, query)
    except InvalidInput:
        return None
    return keys


def delete_question(
    panel: PanelResource[Any],
    plan: DeletePlan | None,
    key: Any,
    load_record: Callable[[], Mapping[str, Any]],
    *,
    redirect: str | None,
    version: str | None,
) -> dict[str, Any]:
    """The confirmation page's context for deleting ``key``; the rules' 409 if they
    refuse it. ``plan``: what the delete rules would do (``None``: nothing else).

    ``load_record`` reads the record the user may delete (checking that ability).
    """
    rules = panel.store.delete_rules
    resource = type(panel.resource)
    if plan is not None and rules is not None and plan.blocking:
        what = undeletable(panel.store.label, resource, key, load_record)
        raise rules.refusal(plan, what, many=False)
    record = load_record()
    name = f"{panel.store.label} {record_label(resource, key, record)}"
    detail = page_url(panel.uri, "detail-page", key)
    return {
        **_question(panel, rules, plan, name, many=False),
        "crumbs": [(resource.title, page_url(panel.uri, "index-page")), (name, detail)],
        "action": record_url(panel.crud_url, key),
        "ids": [],
        "cancel_url": detail,
        "redirect": redirect or page_url(panel.uri, "index-page"),
        "version": version,
    }


def mass_delete_question(
    panel: PanelResource[Any],
    plan: DeletePlan | None,
    records: Sequence[tuple[Any, Mapping[str, Any]]],
    *,
    redirect: str | None,
) -> dict[str, Any]:
    """``delete_question`` of a mass delete from the index page: ``records`` are the
    selected ones the user may reach, as ``(key, values)``."""
    rules = panel.store.delete_rules
    if plan is not None and rules is not None and plan.blocking:
        raise rules.refusal(plan, NOTHING_DELETED, many=True)
    resource = type(panel.resource)
    index = page_url(panel.uri, "index-page")
    count = len(records)
    noun = panel.store.label if count == 1 else (resource.title or panel.store.label)
    return {
        **_question(panel, rules, plan, f"{count} {noun}", many=True),
        "crumbs": [(resource.title, index)],
        "listed": [
            {
                "label": record_label(resource, key, values),
                "url": page_url(panel.uri, "detail-page", key),
            }
            for key, values in records[:LISTED]
        ],
        "unlisted": max(0, count - LISTED),
        "action": panel.crud_url,
        "ids": [key for key, _ in records],
        "cancel_url": index,
        "redirect": redirect or index,
        "version": None,
    }


def _question(
    panel: PanelResource[Any],
    rules: DeleteRules | None,
    plan: DeletePlan | None,
    name: str,
    *,
    many: bool,
) -> dict[str, Any]:
    """What both questions say: the heading, what goes along, where deletes go."""
    trash = bool(type(panel.resource).soft_delete)
    cascaded = _cascaded(rules, plan) if rules is not None and plan is not None else []
    return {
        "heading": (
            gettext("Move %(name)s to the trash?")
            if trash
            else gettext("Delete %(name)s?")
        )
        % {"name": name},
        "name": name,
        "many": many,
        "trash": trash,
        "cascaded": cascaded,
        "confirmed_field": CONFIRMED_FIELD,
    }


def _cascaded(rules: DeleteRules, plan: DeletePlan) -> list[dict[str, Any]]:
    return [
        {**entry, "url": page_url(entry["resource"], "index-page")}
        for entry in rules.cascade_counts(plan)
    ]
