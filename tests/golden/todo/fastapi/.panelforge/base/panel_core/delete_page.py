"""The page that asks before a delete takes other records with it.

A delete sent from the pages (a form, ``_method=DELETE``) of a record that a cascade
would take others with is not done at once: the answer is this page, listing how many
records of each resource go too (as Django admin's "Are you sure?"), with a form that
sends the delete again, confirmed (``_confirmed``). A delete the rules refuse shows
the 409 instead; one that takes nothing else along is done directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .delete_rules import DeletePlan, DeleteRules
from .labels import record_label
from .registry import PanelResource
from .urls import page_url, record_url

CONFIRMED_FIELD = "_confirmed"


def needs_confirmation(plan: DeletePlan | None) -> bool:
    """Whether a page's delete must be confirmed first: a cascade takes records."""
    return plan is not None and not plan.blocking and bool(plan.waves)


def confirmation_context(
    panel: PanelResource[Any],
    rules: DeleteRules,
    plan: DeletePlan,
    record: Mapping[str, Any],
    *,
    redirect: str | None,
    version: str | None,
) -> dict[str, Any]:
    """The confirmation page: what goes with the record, and the confirming form."""
    resource = type(panel.resource)
    (key,) = plan.keys
    name = f"{panel.store.label} {record_label(resource, key, record)}"
    return {
        "heading": f"Delete {name}?",
        "name": name,
        "crumbs": [
            (resource.title, page_url(panel.uri, "index-page")),
            (name, page_url(panel.uri, "detail-page", key)),
        ],
        "cascaded": _cascaded(rules, plan),
        "action": record_url(panel.crud_url, key),
        "ids": [],
        "cancel_url": page_url(panel.uri, "detail-page", key),
        "redirect": redirect or page_url(panel.uri, "index-page"),
        "version": version,
        "confirmed_field": CONFIRMED_FIELD,
    }


def mass_confirmation_context(
    panel: PanelResource[Any],
    rules: DeleteRules,
    plan: DeletePlan,
    *,
    redirect: str | None,
) -> dict[str, Any]:
    """The confirmation page of a mass delete: the same, for the selected records."""
    resource = type(panel.resource)
    index = page_url(panel.uri, "index-page")
    name = f"{len(plan.keys)} {rules.label(panel.uri, len(plan.keys))}"
    return {
        "heading": f"Delete {name}?",
        "name": name,
        "crumbs": [(resource.title, index)],
        "cascaded": _cascaded(rules, plan),
        "action": panel.crud_url,
        "ids": list(plan.keys),
        "cancel_url": index,
        "redirect": redirect or index,
        "version": None,
        "confirmed_field": CONFIRMED_FIELD,
    }


def _cascaded(rules: DeleteRules, plan: DeletePlan) -> list[dict[str, Any]]:
    return [
        {**entry, "url": page_url(entry["resource"], "index-page")}
        for entry in rules.cascade_counts(plan)
    ]
