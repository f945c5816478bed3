"""The resource pages: index (the list), form (create and edit) and detail.

Each page loads what it shows in one threadpool hop, then renders the resource's own
template if it has one (``panel/resources/<uri>/index.html``), else the generic one;
what the templates get is built by the kernel (``panel_core.resource_pages``).
``render_fragment`` renders one part of a page alone (``?_fragment-load=table``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import Request, Response
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool

from app.core import history
from app.core.db import transaction
from panel_core.abilities import UPDATE, VIEW
from panel_core.forms import filter_values, form_values
from panel_core.history import PER_RECORD
from panel_core.import_page import import_context
from panel_core.pages import FRAGMENTS
from panel_core.refused_form import RefusedForm
from panel_core.resource_pages import (
    Errors,
    detail_context,
    form_context,
    list_params,
    resource_templates,
)
from panel_core.resource_pages import index_context as build_index_context

from .authorize import actor, authorize_record, page_abilities
from .children import children_sections
from .choices import Target, load_labels, load_related, targets
from .errors import NotFound
from .registry import PanelResource, Registry
from .templating import render, render_partial


def _engine(request: Request) -> Engine:
    engine: Engine = request.app.state.engine
    return engine


def _registry(request: Request) -> Registry:
    registry: Registry = request.app.state.registry
    return registry


def _pickers(request: Request, found: list[Target]) -> dict[str, Any]:
    """The user acting on each related resource, whose scope limits the options."""
    return {target.field: actor(request, target.panel) for target in found}


async def index_context(request: Request, panel: PanelResource) -> dict[str, Any]:
    """Everything the index page shows: table, pages, search, tags and filters."""
    params = list_params(request.query_params.multi_items())
    query = panel.list_query(params)
    found = targets(_registry(request), panel)
    engine = _engine(request)
    acting, pickers = actor(request, panel), _pickers(request, found)

    def load() -> tuple[list[dict[str, Any]], Any, Any, Any]:
        items, total = panel.store.list_page(engine, query, acting)
        with transaction(engine) as connection:
            labels = load_labels(connection, found, items, pickers)
            current = filter_values(params)
            options = load_related(connection, found, pickers, current)
        return items, total, labels, options

    items, total, labels, options = await run_in_threadpool(load)
    can = await page_abilities(request, panel)
    return build_index_context(
        panel,
        params,
        query,
        items=items,
        total=total,
        labels=labels,
        options=options,
        can=can,
    )


async def index_page(request: Request, panel: PanelResource) -> Response:
    """The list of a resource's records."""
    context = await index_context(request, panel)
    names = resource_templates(panel.uri, "index.html")
    return render(request, names, context)


def import_page(request: Request, panel: PanelResource) -> Response:
    """The CSV import's upload form (``panel_core.import_page``)."""
    names = resource_templates(panel.uri, "import.html")
    return render(request, names, import_context(panel))


async def form_page(
    request: Request,
    panel: PanelResource,
    key: Any = None,
    *,
    values: Mapping[str, str] | None = None,
    errors: Errors | None = None,
    version: str | None = None,
    changed: bool = False,
    status_code: int = 200,
) -> Response:
    """The create form (no ``key``) or the edit form; ``values`` are kept on errors.

    ``version`` is the one the user loaded the form with; ``changed``: someone else
    saved the record since (``panel_core.resource_pages.form_context``).
    """
    found = targets(_registry(request), panel)
    engine = _engine(request)
    acting, pickers = actor(request, panel), _pickers(request, found)

    def load() -> tuple[dict[str, Any] | None, Any]:
        record = None if key is None else panel.store.fetch(engine, key, acting)
        current = form_values(type(panel.resource), record, values)
        with transaction(engine) as connection:
            return record, load_related(connection, found, pickers, current)

    record, options = await run_in_threadpool(load)
    if record is not None:
        await authorize_record(request, panel, UPDATE, record)
    can = await page_abilities(request, panel, record)
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
    return render(request, names, context, status_code=status_code)


async def refused_form_page(
    request: Request,
    panel: PanelResource,
    key: Any,
    form: RefusedForm,
    status_code: int = 200,
) -> Response:
    """The form page again with a refused form's values, errors and version."""
    return await form_page(
        request,
        panel,
        key,
        values=form.values,
        errors=form.errors,
        version=form.version,
        changed=form.changed,
        status_code=status_code,
    )


async def detail_page(request: Request, panel: PanelResource, key: Any) -> Response:
    """One record: every field that is ever shown, and its actions."""
    found = targets(_registry(request), panel)
    engine = _engine(request)
    acting, pickers = actor(request, panel), _pickers(request, found)

    def load() -> tuple[dict[str, Any], Any, list[dict[str, Any]]]:
        record = panel.store.fetch(engine, key, acting)
        with transaction(engine) as connection:
            labels = load_labels(connection, found, [record], pickers)
        return record, labels, history.of_record(engine, panel.uri, key, PER_RECORD)

    record, labels, changes = await run_in_threadpool(load)
    await authorize_record(request, panel, VIEW, record)
    can = await page_abilities(request, panel, record)
    children = await children_sections(request, panel, key)
    context = detail_context(panel, key, record, labels, can, children, changes)
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
