"""A resource's pages: index (the list), form (create and edit) and detail.

Each page reads what it shows with the resource's store and ``panel.choices``, then
renders the resource's own template if it has one
(``templates/panel/resources/<uri>/index.html``), else the generic one. What the
templates get is built by the kernel (``panel_core.resource_pages``), as in the FastAPI
panels, so both serve the same HTML.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse

from panel_core.resource_pages import (
    Errors,
    detail_context,
    form_context,
    list_params,
    resource_templates,
)
from panel_core.resource_pages import index_context as build_index_context

from .choices import load_labels, load_options, targets
from .registry import PanelResource
from .templating import render


def index_context(request: HttpRequest, panel: PanelResource) -> dict[str, Any]:
    """Everything the index page shows: table, pages, search, tags and filters."""
    params = list_params((n, v) for n, vs in request.GET.lists() for v in vs)
    query = panel.list_query(params)
    found = targets(type(panel.resource))
    items, total = panel.store.list_page(query)
    labels = load_labels(found, items)
    options = load_options(found)
    return build_index_context(
        panel, params, query, items=items, total=total, labels=labels, options=options
    )


def index_page(request: HttpRequest, panel: PanelResource) -> HttpResponse:
    """The list of a resource's records."""
    context = index_context(request, panel)
    return render(request, resource_templates(panel.uri, "index.html"), context)


def form_page(
    request: HttpRequest,
    panel: PanelResource,
    key: Any = None,
    *,
    values: Mapping[str, str] | None = None,
    errors: Errors | None = None,
    status: int = 200,
) -> HttpResponse:
    """The create form (no ``key``) or the edit form; ``values`` are kept on errors."""
    record = panel.store.fetch(key) if key is not None else None
    options = load_options(targets(type(panel.resource)))
    context = form_context(
        panel, record, options, key=key, values=values, errors=errors
    )
    names = resource_templates(panel.uri, "form.html")
    return render(request, names, context, status=status)


def detail_page(request: HttpRequest, panel: PanelResource, key: Any) -> HttpResponse:
    """One record: every field that is ever shown, and its actions."""
    record = panel.store.fetch(key)
    labels = load_labels(targets(type(panel.resource)), [record])
    context = detail_context(panel, key, record, labels)
    return render(request, resource_templates(panel.uri, "detail.html"), context)
