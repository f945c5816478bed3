"""The page that asks before a delete takes other records with it.

A delete sent from the pages (a form, ``_method=DELETE``) of a record that a cascade
would take others with is not done at once: the answer is this page, listing how many
records of each resource go too (as Django admin's "Are you sure?"), with a form that
sends the delete again, confirmed (``_confirmed``). A delete the rules refuse shows
the 409 instead; one that takes nothing else along is done directly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .delete_rules import DeletePlan, DeleteRules, undeletable
from .labels import record_label
from .registry import PanelResource
from .urls import page_url, record_url

CONFIRMED_FIELD = "_confirmed"


def needs_confirmation(plan: DeletePlan | None) -> bool:
    """Whether a page's delete must be confirmed first: a cascade takes records."""
    return plan is not None and not plan.blocking and bool(plan.waves)


def delete_question(
    panel: PanelResource[Any],
    plan: DeletePlan | None,
    key: Any,
    load_record: Callable[[], Mapping[str, Any]],
    *,
    redirect: str | None,
    version: str | None,
) -> dict[str, Any] | None:
    """The confirmation page's context if deleting ``key`` takes others along, None
    if it can be done at once; the rules' 409 if they refuse it.

    ``load_record`` reads the record the user may delete (checking that ability) only
    when the page is shown.
    """
    rules = panel.store.delete_rules
    if plan is None or rules is None:
        return None
    if plan.blocking:
        resource = type(panel.resource)
        what = undeletable(panel.store.label, resource, key, load_record)
        raise rules.refusal(plan, what, many=False)
    if not needs_confirmation(plan):
        return None
    return confirmation_context(
        panel, rules, plan, load_record(), redirect=redirect, version=version
    )


def mass_delete_question(
    panel: PanelResource[Any], plan: DeletePlan | None, *, redirect: str | None
) -> dict[str, Any] | None:
    """``delete_question`` of a mass delete from the index page."""
    rules = panel.store.delete_rules
    if plan is None or rules is None:
        return None
    if plan.blocking:
        raise rules.refusal(plan, "Nothing was deleted", many=True)
    if not needs_confirmation(plan):
        return None
    return mass_confirmation_context(panel, rules, plan, redirect=redirect)


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
