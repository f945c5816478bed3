"""The resource pages: index (the list), form (create and edit) and detail.

Each page loads what it shows in one threadpool hop, then renders the resource's own
template if it has one (``panel/resources/<uri>/index.html``), else the generic one.
``render_fragment`` renders one part of a page alone (``?_fragment-load=table``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import Request, Response
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool

from app.core.db import transaction

from .choices import load_labels, load_options, targets
from .core.routes import url_for
from .errors import NotFound
from .forms import default_values, filter_widgets, form_widgets, record_values
from .pagination import PageUrls, paginator
from .registry import PanelResource, Registry
from .table import columns, display, rows
from .templating import render, render_partial, resource_templates
from .urls import page_url, record_url

FRAGMENT = "_fragment-load"
FRAGMENTS = {("index-page", "table"): "_table.html"}
Errors = Mapping[str, Sequence[str]]


def _engine(request: Request) -> Engine:
    engine: Engine = request.app.state.engine
    return engine


def _registry(request: Request) -> Registry:
    registry: Registry = request.app.state.registry
    return registry


def list_params(request: Request) -> list[tuple[str, str]]:
    """The list parameters of a page request; blank filters and search are unset."""
    return [
        (name, value)
        for name, value in request.query_params.multi_items()
        if name != FRAGMENT and not (value == "" and name != "query-tag")
    ]


def _resource_context(panel: PanelResource) -> dict[str, Any]:
    return {
        "resource": panel.resource,
        "label": panel.store.label,
        "index_url": page_url(panel.uri, "index-page"),
        "create_url": page_url(panel.uri, "form-page"),
        "crud_url": panel.crud_url,
    }


async def index_context(request: Request, panel: PanelResource) -> dict[str, Any]:
    """Everything the index page shows: table, pages, search, tags and filters."""
    params = list_params(request)
    query = panel.list_query(params)
    found = targets(_registry(request), panel)
    engine = _engine(request)

    def load() -> tuple[list[dict[str, Any]], int, Any, Any]:
        items, total = panel.store.list_page(engine, query)
        with transaction(engine) as connection:
            labels = load_labels(connection, found, items)
            options = load_options(connection, found)
        return items, total, labels, options

    items, total, labels, options = await run_in_threadpool(load)
    index_url = page_url(panel.uri, "index-page")
    resource = type(panel.resource)
    page = paginator(
        items,
        total=total,
        page=query.page,
        per_page=query.per_page,
        urls=PageUrls(index_url, params),
    )
    return {
        **_resource_context(panel),
        "columns": columns(resource, params),
        "rows": rows(resource, items, labels),
        "page": page,
        "search": query.search or "",
        "searchable": bool(resource.search),
        "query_tag": query.query_tag,
        "query_tags": [
            (tag, page_url(panel.uri, "index-page", query={"query-tag": tag.uri}))
            for tag in resource.query_tags
        ],
        "filters": filter_widgets(resource, params, options),
        "sort": dict(params).get("sort", ""),
        "here": page_url(panel.uri, "index-page", query=params),
        "table_templates": resource_templates(panel.uri, "_table.html"),
        "export_url": url_for(
            "handler", {"resourceUri": panel.uri, "handlerUri": "export"}, params
        ),
    }


async def index_page(request: Request, panel: PanelResource) -> Response:
    """The list of a resource's records."""
    context = await index_context(request, panel)
    return render(request, resource_templates(panel.uri, "index.html"), context)


def _heading(panel: PanelResource, key: Any) -> str:
    label = panel.store.label
    return f"New {label}" if key is None else f"Edit {label} {key}"


async def form_page(
    request: Request,
    panel: PanelResource,
    key: Any = None,
    *,
    values: Mapping[str, str] | None = None,
    errors: Errors | None = None,
    status_code: int = 200,
) -> Response:
    """The create form (no ``key``) or the edit form; ``values`` are kept on errors."""
    found = targets(_registry(request), panel)
    engine = _engine(request)

    def load() -> tuple[dict[str, Any] | None, Any]:
        record = panel.store.fetch(engine, key) if key is not None else None
        with transaction(engine) as connection:
            return record, load_options(connection, found)

    record, options = await run_in_threadpool(load)
    resource = type(panel.resource)
    if values is None:
        values = record_values(resource, record) if record else default_values(resource)
    creating = key is None
    errors = errors or {}
    widgets = form_widgets(resource, values, errors, options, creating=creating)
    shown = {widget.name for widget in widgets}
    context = {
        **_resource_context(panel),
        "key": key,
        "heading": _heading(panel, key),
        "widgets": widgets,
        "action": panel.crud_url if creating else record_url(panel.crud_url, key),
        "errors": errors,
        "other_errors": [m for k, ms in errors.items() if k not in shown for m in ms],
    }
    names = resource_templates(panel.uri, "form.html")
    return render(request, names, context, status_code=status_code)


async def detail_page(request: Request, panel: PanelResource, key: Any) -> Response:
    """One record: every field that is ever shown, and its actions."""
    found = targets(_registry(request), panel)
    engine = _engine(request)

    def load() -> tuple[dict[str, Any], Any]:
        record = panel.store.fetch(engine, key)
        with transaction(engine) as connection:
            return record, load_labels(connection, found, [record])

    record, labels = await run_in_threadpool(load)
    fields = type(panel.resource).readable_fields
    context = {
        **_resource_context(panel),
        "key": key,
        "items": [
            (f.label, display(f, record[f.name], labels.get(f.name))) for f in fields
        ],
        "edit_url": page_url(panel.uri, "form-page", key),
        "record_url": record_url(panel.crud_url, key),
    }
    return render(request, resource_templates(panel.uri, "detail.html"), context)


async def render_fragment(
    request: Request, panel_resource: PanelResource, page_uri: str, name: str
) -> Response:
    """One part of a page alone: ``("index-page", "table")`` is the index table."""
    template = FRAGMENTS.get((page_uri, name))
    if template is None:
        raise NotFound(f"Page {page_uri} has no fragment {name!r}")
    context = await index_context(request, panel_resource)
    names = resource_templates(panel_resource.uri, template)
    return render_partial(request, names, context)
