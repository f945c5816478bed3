"""The generic CRUD routes: one router serves every registered resource, in JSON.

Each endpoint validates on the event loop, then does all of its database work in one
threadpool hop (a unit of work of the resource's store).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool

from app.core.config import Settings

from .bodies import read_body
from .errors import NotAcceptable
from .pagination import PageUrls, paginator
from .registry import PanelResource, Registry
from .responses import deleted_response, json_response, saved_response
from .urls import CRUD, form_page_url, record_url


async def panel_resource(request: Request) -> PanelResource:
    """The resource named in the path; the client must accept JSON."""
    accept = request.headers.get("accept", "").lower()
    if "application/json" not in accept and "+json" not in accept:
        raise NotAcceptable("This URL serves JSON: send Accept: application/json.")
    registry: Registry = request.app.state.registry
    return registry.get(request.path_params["resourceUri"])


Panel = Annotated[PanelResource, Depends(panel_resource)]

router = APIRouter(prefix=CRUD)


def _engine(request: Request) -> Engine:
    engine: Engine = request.app.state.engine
    return engine


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


@router.delete("", name="crud.massDelete")
async def mass_delete(request: Request, panel: Panel) -> Response:
    """Delete the records listed in ``ids``, all in one transaction."""
    body = await read_body(request, _settings(request).max_body_size)
    keys = panel.inputs.ids(body, request.query_params.multi_items())
    deleted = await run_in_threadpool(panel.store.delete_many, _engine(request), keys)
    return deleted_response(deleted)


@router.get("", name="crud.index")
async def index(request: Request, panel: Panel) -> Response:
    """List records: paginated, sorted, filtered and searched."""
    params = request.query_params.multi_items()
    query = panel.list_query(params)
    items, total = await run_in_threadpool(
        panel.store.list_page, _engine(request), query
    )
    urls = PageUrls(panel.crud_url, params)
    body = paginator(
        items, total=total, page=query.page, per_page=query.per_page, urls=urls
    )
    return json_response(body)


@router.post("", name="crud.store")
async def store(request: Request, panel: Panel) -> Response:
    """Create a record."""
    body = await read_body(request, _settings(request).max_body_size)
    values = panel.inputs.for_create(body)
    record = await run_in_threadpool(panel.store.create, _engine(request), values)
    key = record[panel.resource.key_name()]
    return saved_response(
        record,
        redirect=form_page_url(panel.uri, key),
        status_code=201,
        location=record_url(panel.crud_url, key),
    )


@router.get("/{resourceItem}", name="crud.show")
async def show(request: Request, panel: Panel) -> Response:
    """Show one record."""
    key = panel.key(request.path_params["resourceItem"])
    record = await run_in_threadpool(panel.store.fetch, _engine(request), key)
    return json_response(record)


@router.api_route("/{resourceItem}", methods=["PUT", "PATCH"], name="crud.update")
async def update(request: Request, panel: Panel) -> Response:
    """Change a record; fields absent from the body stay as they are."""
    key = panel.key(request.path_params["resourceItem"])
    body = await read_body(request, _settings(request).max_body_size)
    values = panel.inputs.for_update(body)
    record = await run_in_threadpool(panel.store.update, _engine(request), key, values)
    return saved_response(record, redirect=form_page_url(panel.uri, key))


@router.delete("/{resourceItem}", name="crud.destroy")
async def destroy(request: Request, panel: Panel) -> Response:
    """Delete a record."""
    key = panel.key(request.path_params["resourceItem"])
    await run_in_threadpool(panel.store.delete, _engine(request), key)
    return deleted_response()
