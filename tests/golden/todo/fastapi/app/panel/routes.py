"""The generic CRUD routes: one table of routes serves every registered resource.

Each endpoint validates on the event loop, then does all of its database work in one
threadpool hop (a unit of work of the resource's store); a record, and a list page
nobody narrowed, are read on the event loop instead, which is quicker than the hop.
Clients get JSON unless they prefer ``text/html`` (``*/*`` is JSON); browsers are sent
to the pages (a 303 after each change, with a flash message); a client accepting
neither gets 406 before anything is done.

These are Starlette routes, not FastAPI's: each runs the panel's ``guard`` and finds
its resource inline (:class:`CrudRoute`), where FastAPI's dependency resolution and
route handling cost a record read a third of its time. They take no parameters
FastAPI would validate, and the panel's OpenAPI document is its own (``oag``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from fastapi import Request, Response
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool
from starlette.routing import Match, Route
from starlette.types import Scope

from app.core.config import Settings
from app.core.readers import LoopReader
from panel_core.abilities import DELETE, VIEW
from panel_core.after_save import SAVE_CHOICE, after_save, deleted_message
from panel_core.children import with_children
from panel_core.delete_page import (
    CONFIRMED_FIELD,
    NONE_LEFT,
    NOTHING_TICKED,
    delete_question,
    mass_delete_question,
    ticked_keys,
)
from panel_core.file_writes import FileWrites
from panel_core.inputs import without_blank_secrets
from panel_core.pagination import PageUrls, list_body
from panel_core.resource_pages import resource_templates
from panel_core.translation import gettext, ngettext
from panel_core.versions import VERSION_FIELD, Expected, expected_version

from .accept import require_acceptable, wants_json
from .authorize import actor, authorize_record
from .bodies import read_body
from .children import children_keys
from .files import (
    create_with_files,
    delete_with_files,
    file_body,
    storage_of,
    update_with_files,
)
from .formdata import form_value
from .guards import guard
from .public_url import public_origin_of
from .redirects import back, see_other
from .registry import PanelResource, Registry
from .responses import (
    deleted_response,
    json_response,
    record_response,
    saved_response,
)
from .templating import render
from .urls import CRUD, form_page_url, page_url, record_url


async def panel_resource(request: Request) -> PanelResource:
    """The resource named in the path (406 first for a client taking no answer)."""
    require_acceptable(request)
    registry: Registry = request.app.state.registry
    return registry.get(request.path_params["resourceUri"])


Endpoint = Callable[[Request, PanelResource], Awaitable[Response]]


class CrudRoute(Route):
    """A CRUD route: the panel's ``guard``, then the resource, then ``endpoint``.

    The same steps, in the same order, as a FastAPI route of a router created with
    ``dependencies=PANEL_GUARDS`` whose endpoint depends on ``panel_resource``. A
    match names the route in the scope (``scope["route"]``, as FastAPI's routes do),
    for the current-page checks and the ability the route needs.
    """

    def __init__(
        self, path: str, endpoint: Endpoint, methods: list[str], name: str
    ) -> None:
        async def guarded(request: Request) -> Response:
            await guard(request)
            return await endpoint(request, await panel_resource(request))

        super().__init__(path, guarded, methods=methods, name=name)

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        match, child_scope = super().matches(scope)
        if match is not Match.NONE:
            child_scope["route"] = self
        return match, child_scope


def _engine(request: Request) -> Engine:
    engine: Engine = request.app.state.engine
    return engine


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _expected(request: Request, files: FileWrites | None = None) -> Expected | None:
    """The version the client loaded: ``If-Match``, or the edit form's ``_version``
    (``files``: those stored for the write, removed again if this refuses it)."""
    try:
        return expected_version(
            request.headers.get("if-match"),
            form_value(request, VERSION_FIELD),
            required=_settings(request).require_if_match,
        )
    except BaseException:
        if files is not None:
            files.discard()
        raise


async def mass_delete(request: Request, panel: PanelResource) -> Response:
    """Delete the records listed in ``ids``, all in one transaction (from the pages:
    once confirmed)."""
    body = await read_body(request, _settings(request).max_body_size)
    query = request.query_params.multi_items()
    if wants_json(request):
        keys = panel.inputs.ids(body, query)
    else:
        ticked = ticked_keys(panel, body, query)
        if ticked is None:
            return back(request, _index_page(panel), gettext(NOTHING_TICKED), "error")
        keys = ticked
        if form_value(request, CONFIRMED_FIELD) is None:
            asking = await run_in_threadpool(_mass_confirmation, request, panel, keys)
            if asking is None:
                return back(request, _index_page(panel), gettext(NONE_LEFT), "error")
            names = resource_templates(panel.uri, "delete.html")
            return render(request, names, asking)
    engine, acting = _engine(request), actor(request, panel)
    deleted = await run_in_threadpool(
        delete_with_files,
        panel,
        storage_of(request),
        partial(panel.store.delete_many, engine, keys, acting),
        lambda: [record for _, record in panel.store.records_of(engine, keys, acting)],
        for_good=not panel.resource.soft_delete,
    )
    if not wants_json(request):
        said = ngettext("%(num)s record deleted.", "%(num)s records deleted.", deleted)
        return back(request, _index_page(panel), said % {"num": deleted})
    return deleted_response(deleted)


async def index(request: Request, panel: PanelResource) -> Response:
    """List records: paginated, sorted, filtered and searched."""
    if not wants_json(request):
        return see_other(page_url(panel.uri, "index-page", query=request.url.query))
    params = request.query_params.multi_items()
    query = panel.list_query(params, paging_modes=True)
    found = None
    reader: LoopReader | None = request.app.state.reader
    if reader is not None and not panel.lifecycle.scoped and not panel.store.links:
        found = await panel.store.read_page(reader, query)  # nothing narrowed
    if found is None:
        found = await run_in_threadpool(
            panel.store.list_page, _engine(request), query, actor(request, panel)
        )
    rows, total = found
    urls = PageUrls(panel.crud_url, params, public_origin_of(request))
    body = list_body(query, rows, total, urls)
    return json_response(body)


async def store(request: Request, panel: PanelResource) -> Response:
    """Create a record."""
    body, files = await file_body(request, panel)
    if files is None:
        values = panel.inputs.for_create(body)
        record = await run_in_threadpool(
            panel.store.create, _engine(request), values, actor(request, panel)
        )
    else:
        record = await run_in_threadpool(
            create_with_files,
            files,
            panel,
            _engine(request),
            body,
            actor(request, panel),
        )
    key = panel.resource.key_of(record)
    if not wants_json(request):
        return back(request, *_after_save(request, panel, record, created=True))
    return saved_response(
        record,
        redirect=form_page_url(panel.uri, key),
        status_code=201,
        location=public_origin_of(request) + record_url(panel.crud_url, key),
    )


async def show(request: Request, panel: PanelResource) -> Response:
    """Show one record."""
    key = panel.key(request.path_params["resourceItem"])
    if not wants_json(request):
        return see_other(page_url(panel.uri, "detail-page", key))
    asked = panel.children_asked(request.query_params.multi_items())
    reader: LoopReader | None = request.app.state.reader
    lifecycle = panel.lifecycle
    if reader is not None and not lifecycle.scoped and not panel.store.links:
        record = await panel.store.read(reader, key)  # quicker than a pool hop
    else:
        record = await run_in_threadpool(
            panel.store.fetch, _engine(request), key, actor(request, panel)
        )
    await authorize_record(request, panel, VIEW, record)
    if not asked:
        return record_response(record)
    keys = await children_keys(request, asked, key)
    return record_response(record, with_children(record, keys))


async def update(request: Request, panel: PanelResource) -> Response:
    """Change a record; fields absent from the body stay as they are."""
    key = panel.key(request.path_params["resourceItem"])
    body, files = await file_body(request, panel)
    expected = _expected(request, files)  # after the body: a multipart form's too
    acting = actor(request, panel)
    if files is None:
        body = without_blank_secrets(type(panel.resource), body)
        values = panel.inputs.for_update(body)
        record = await run_in_threadpool(
            panel.store.update, _engine(request), key, values, acting, expected
        )
    else:
        engine = _engine(request)
        record = await run_in_threadpool(
            update_with_files, files, panel, engine, key, body, acting, expected
        )
    if not wants_json(request):
        return back(request, *_after_save(request, panel, record, created=False))
    return saved_response(record, redirect=form_page_url(panel.uri, key))


async def destroy(request: Request, panel: PanelResource) -> Response:
    """Delete a record (from the pages: once confirmed)."""
    key = panel.key(request.path_params["resourceItem"])
    expected = _expected(request)
    if not wants_json(request) and form_value(request, CONFIRMED_FIELD) is None:
        asking = await run_in_threadpool(_confirmation, request, panel, key)
        names = resource_templates(panel.uri, "delete.html")
        return render(request, names, asking)
    engine, acting = _engine(request), actor(request, panel)
    fetch = partial(panel.store.fetch, engine, key, acting)
    # A page names the record it deleted: read it first.
    named = None if wants_json(request) else await run_in_threadpool(fetch)
    await run_in_threadpool(
        delete_with_files,
        panel,
        storage_of(request),
        partial(panel.store.delete, engine, key, acting, expected),
        lambda: [named or fetch()],
        for_good=not panel.resource.soft_delete,
    )
    if named is not None:
        return back(request, _index_page(panel), deleted_message(panel, named))
    return deleted_response()


def _confirmation(request: Request, panel: PanelResource, key: Any) -> dict[str, Any]:
    """The confirmation page's context for deleting ``key``; 409 if the delete rules
    refuse it."""
    engine, acting = _engine(request), actor(request, panel)

    def deletable_record() -> Any:
        record = panel.store.fetch(engine, key, acting)
        acting.authorize_record(DELETE, record)
        return record

    return delete_question(
        panel,
        panel.store.deletion(engine, key, acting),
        key,
        deletable_record,
        redirect=form_value(request, "_redirect"),
        version=form_value(request, VERSION_FIELD),
    )


def _mass_confirmation(
    request: Request, panel: PanelResource, keys: list[Any]
) -> dict[str, Any] | None:
    """``_confirmation`` of a mass delete from the index page (``None``: none of the
    records is left to delete)."""
    engine, acting = _engine(request), actor(request, panel)
    records = panel.store.records_of(engine, keys, acting)
    if not records:
        return None
    plan = panel.store.mass_deletion(engine, [key for key, _ in records], acting)
    redirect = form_value(request, "_redirect")
    return mass_delete_question(panel, plan, records, redirect=redirect)


def _after_save(
    request: Request, panel: PanelResource, record: dict[str, Any], *, created: bool
) -> tuple[str, str]:
    """Where the saved form goes (its ``_save`` button) and what it says there."""
    choice = form_value(request, SAVE_CHOICE)
    return after_save(panel, record, choice, created=created)


def _index_page(panel: PanelResource) -> str:
    return page_url(panel.uri, "index-page")


def crud_routes(prefix: str) -> list[Route]:
    """The CRUD routes under the panel's ``prefix``, in the order they are matched."""
    crud, record = prefix + CRUD, prefix + CRUD + "/{resourceItem}"
    return [
        CrudRoute(crud, mass_delete, ["DELETE"], "crud.massDelete"),
        CrudRoute(crud, index, ["GET"], "crud.index"),
        CrudRoute(crud, store, ["POST"], "crud.store"),
        CrudRoute(record, show, ["GET"], "crud.show"),
        CrudRoute(record, update, ["PUT", "PATCH"], "crud.update"),
        CrudRoute(record, destroy, ["DELETE"], "crud.destroy"),
    ]
