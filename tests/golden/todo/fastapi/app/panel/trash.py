"""The trash of a resource with ``soft_delete``: its list, restore, delete for good.

``crud.trash`` is a page, or JSON for a client naming ``application/json`` (paginated
like ``crud.index``); ``crud.restore`` and ``crud.forceDelete`` answer as the other
CRUD routes do (JSON, or a 303 back to the trash with a flash message). Included
before the pages' router: ``/resource/{resourceUri}/{pageUri}`` matches ``…/trash``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool

from app.core.db import transaction
from panel_core.file_writes import files_removed_after
from panel_core.pagination import PageUrls, list_body
from panel_core.resource_pages import list_params, resource_templates
from panel_core.storage import Storage
from panel_core.translation import gettext
from panel_core.trash import require_trash, trash_context, trash_url

from .accept import require_acceptable, wants_json
from .authorize import actor, page_abilities
from .choices import Labels, load_labels, targets
from .files import storage_of
from .guards import PANEL_GUARDS
from .public_url import public_origin_of
from .redirects import back
from .registry import PanelResource, Registry
from .responses import deleted_response, json_response, record_response
from .templating import render

router = APIRouter(
    prefix="/resource/{resourceUri}", dependencies=PANEL_GUARDS, include_in_schema=False
)


def _panel(request: Request) -> PanelResource:
    registry: Registry = request.app.state.registry
    panel = registry.get(request.path_params["resourceUri"])
    require_trash(panel)
    return panel


def _engine(request: Request) -> Engine:
    engine: Engine = request.app.state.engine
    return engine


@router.get("/trash", name="crud.trash")
async def trash(request: Request) -> Response:
    """The records in the trash: a page, or JSON paginated like the list."""
    panel = _panel(request)
    engine, acting = _engine(request), actor(request, panel)
    if wants_json(request):
        params = request.query_params.multi_items()
        query = panel.list_query(params, paging_modes=True)
        rows, total = await run_in_threadpool(
            panel.store.list_page, engine, query, acting, trashed=True
        )
        urls = PageUrls(trash_url(panel.uri), params, public_origin_of(request))
        return json_response(list_body(query, rows, total, urls))
    params = list_params(request.query_params.multi_items())
    query = panel.list_query(params)
    found = targets(request.app.state.registry, panel)
    pickers = {target.field: actor(request, target.panel) for target in found}

    def load() -> tuple[list[dict[str, Any]], int | None, Labels]:
        items, total = panel.store.list_page(engine, query, acting, trashed=True)
        with transaction(engine) as connection:
            return items, total, load_labels(connection, found, items, pickers)

    items, total, labels = await run_in_threadpool(load)
    context = trash_context(
        panel,
        params,
        query,
        items=items,
        total=total,
        labels=labels,
        can=await page_abilities(request, panel),
    )
    return render(request, resource_templates(panel.uri, "trash.html"), context)


@router.post("/crud/{resourceItem}/restore", name="crud.restore")
async def restore(request: Request) -> Response:
    """Take a record out of the trash."""
    require_acceptable(request)
    panel = _panel(request)
    key = panel.key(request.path_params["resourceItem"])
    record = await run_in_threadpool(
        panel.store.restore, _engine(request), key, actor(request, panel)
    )
    if not wants_json(request):
        return back(request, trash_url(panel.uri), gettext("Restored."))
    return record_response(record)


@router.delete("/crud/{resourceItem}/force", name="crud.forceDelete")
async def force_delete(request: Request) -> Response:
    """Delete a record in the trash for good."""
    require_acceptable(request)
    panel = _panel(request)
    key = panel.key(request.path_params["resourceItem"])
    await run_in_threadpool(
        _force_delete, panel, storage_of(request), _engine(request), key, request
    )
    if not wants_json(request):
        return back(request, trash_url(panel.uri), gettext("Deleted for good."))
    return deleted_response()


def _force_delete(
    panel: PanelResource, storage: Storage, engine: Engine, key: Any, request: Request
) -> None:
    """Delete a trashed record for good; its files (and a cascade's) once committed."""
    with files_removed_after(storage):
        panel.store.force_delete(engine, key, actor(request, panel))
