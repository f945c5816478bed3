"""A resource's pages: index (the list), form (create and edit) and detail.

Each page reads what it shows with the resource's store and ``panel.choices``, within
the user's scope, then renders the resource's own template if it has one
(``templates/panel/resources/<uri>/index.html``), else the generic one. What the
templates get is built by the kernel (``panel_core.resource_pages``), as in the FastAPI
panels, so both serve the same HTML; ``can`` tells them which buttons and links the
user may use (``panel.authorize.page_abilities``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse

from panel_core.abilities import UPDATE, VIEW
from panel_core.forms import filter_values, form_values
from panel_core.history import PER_RECORD
from panel_core.import_page import import_context
from panel_core.refused_form import RefusedForm
from panel_core.resource_pages import (
    Errors,
    detail_context,
    form_context,
    list_params,
    resource_templates,
)
from panel_core.resource_pages import index_context as build_index_context

from . import history
from .acting import actor
from .authorize import page_abilities
from .children import children_sections
from .choices import load_labels, load_related, targets
from .registry import PanelResource
from .templating import render


def index_context(request: HttpRequest, panel: PanelResource) -> dict[str, Any]:
    """Everything the index page shows: table, pages, search, tags and filters."""
    params = list_params((n, v) for n, vs in request.GET.lists() for v in vs)
    query = panel.list_query(params)
    found = targets(panel)
    acting = actor(request, panel)
    items, total = panel.store.list_page(query, acting)
    return build_index_context(
        panel,
        params,
        query,
        items=items,
        total=total,
        labels=load_labels(found, items, acting),
        options=load_related(found, acting, filter_values(params)),
        can=page_abilities(acting),
    )


def index_page(request: HttpRequest, panel: PanelResource) -> HttpResponse:
    """The list of a resource's records."""
    context = index_context(request, panel)
    names = resource_templates(panel.uri, "index.html")
    return render(request, names, context)


def import_page(request: HttpRequest, panel: PanelResource) -> HttpResponse:
    """The CSV import's upload form (``panel_core.import_page``)."""
    names = resource_templates(panel.uri, "import.html")
    return render(request, names, import_context(panel))


def form_page(
    request: HttpRequest,
    panel: PanelResource,
    key: Any = None,
    *,
    values: Mapping[str, str] | None = None,
    errors: Errors | None = None,
    version: str | None = None,
    changed: bool = False,
    status: int = 200,
) -> HttpResponse:
    """The create form (no ``key``) or the edit form; ``values`` are kept on errors.

    ``version`` is the one the user loaded the form with; ``changed``: someone else
    saved the record since (``panel_core.resource_pages.form_context``).
    """
    acting = actor(request, panel)
    record = None if key is None else panel.store.fetch(key, acting)
    if record is not None:
        acting.authorize_record(UPDATE, record)
    current = form_values(type(panel.resource), record, values)
    options = load_related(targets(panel), acting, current)
    can = page_abilities(acting, record)
    context = form_context(
        panel,
        record,
        options,
        key=key,
        values=values,
        errors=errors,
        can=can,
        version=version,
        changed=changed,
    )
    names = resource_templates(panel.uri, "form.html")
    return render(request, names, context, status=status)


def refused_form_page(
    request: HttpRequest,
    panel: PanelResource,
    key: Any,
    form: RefusedForm,
    status: int = 200,
) -> HttpResponse:
    """The form page again with a refused form's values, errors and version."""
    return form_page(
        request,
        panel,
        key,
        values=form.values,
        errors=form.errors,
        version=form.version,
        changed=form.changed,
        status=status,
    )


def detail_page(request: HttpRequest, panel: PanelResource, key: Any) -> HttpResponse:
    """One record: its detail fields, and the actions its user may take."""
    acting = actor(request, panel)
    record = panel.store.fetch(key, acting)
    acting.authorize_record(VIEW, record)
    labels = load_labels(targets(panel), [record], acting)
    can = page_abilities(acting, record)
    children = children_sections(request, panel, key)
    changes = history.of_record(panel.uri, key, PER_RECORD)
    context = detail_context(panel, key, record, labels, can, children, changes)
    return render(request, resource_templates(panel.uri, "detail.html"), context)
