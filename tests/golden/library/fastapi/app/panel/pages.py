"""The panel's pages: home, and each resource's index, form and detail pages.

``resource.page`` has two path patterns, with and without ``{resourceItem}``, both under
that name: ``url_path_for`` picks the one whose parameters are given. This router is
included last, since ``/resource/{resourceUri}/{pageUri}`` also matches ``…/crud``.

Errors of page requests are pages too (``install_page_errors``); a form the save
refuses is sent back to its form page, which shows it again with its values and the
errors beside the fields (``panel_core.refused_form``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException

from panel_core.children import prefilled_values
from panel_core.dashboard import dashboard_context
from panel_core.pages import FRAGMENT
from panel_core.refused_form import kept_form, refused_form
from panel_core.translation import gettext
from panel_core.versions import VERSION_FIELD

from .accept import wants_json, wants_page_json
from .dashboard import dashboard_changes, dashboard_summaries
from .errorpages import error_page, error_response
from .errors import (
    InvalidInput,
    NotAcceptable,
    NotFound,
    PanelError,
    PreconditionFailed,
    Unauthenticated,
)
from .files import UPLOADED_KEY
from .flash import keep_refused_form, take_refused_form
from .formdata import FORM_KEY, form_value, is_form_submission
from .guards import PANEL_GUARDS
from .redirects import see_other
from .registry import PanelResource, Registry
from .responses import json_response
from .templating import render
from .urls import form_page_url, login_url
from .views import (
    detail_page,
    form_page,
    import_page,
    index_page,
    refused_form_page,
    render_fragment,
)

_FORM_ROUTES = frozenset({"crud.store", "crud.update"})


async def page_resource(request: Request) -> PanelResource:
    """The resource named in the path, for a client that reads pages."""
    registry: Registry = request.app.state.registry
    panel = registry.get(request.path_params["resourceUri"])
    if wants_page_json(request):
        raise NotAcceptable(f"This URL serves a page; the JSON API is {panel.crud_url}")
    return panel


Page = Annotated[PanelResource, Depends(page_resource)]

router = APIRouter(dependencies=PANEL_GUARDS, include_in_schema=False)


@router.get("", name="index")
async def home(request: Request) -> Response:
    """The panel's home, the dashboard: each resource the user may list."""
    summaries = await dashboard_summaries(request)
    changes = await dashboard_changes(request)
    return render(request, "panel/home.html", dashboard_context(summaries, changes))


@router.get("/resource/{resourceUri}/{pageUri}", name="resource.page")
async def resource_page(request: Request, panel: Page) -> Response:
    """A resource's index page (or one of its fragments), its create form, or its
    import page."""
    page_uri = request.path_params["pageUri"]
    fragment = request.query_params.get(FRAGMENT)
    if page_uri == "index-page" and fragment:
        return await render_fragment(request, panel, page_uri, fragment)
    if page_uri == "index-page":
        return await index_page(request, panel)
    if page_uri == "import-page":
        return import_page(request, panel)
    if page_uri == "form-page":
        refused = take_refused_form(request, form_page_url(panel.uri))
        if refused is not None:
            return await refused_form_page(request, panel, None, refused)
        params = request.query_params.multi_items()
        prefilled = prefilled_values(type(panel.resource), params)
        return await form_page(request, panel, values=prefilled)
    raise NotFound(gettext("Page not found"))


@router.get("/resource/{resourceUri}/{pageUri}/{resourceItem}", name="resource.page")
async def resource_item_page(request: Request, panel: Page) -> Response:
    """A record's edit form or detail page."""
    key = panel.key(request.path_params["resourceItem"])
    page_uri = request.path_params["pageUri"]
    if page_uri == "form-page":
        refused = take_refused_form(request, form_page_url(panel.uri, key))
        if refused is not None:
            return await refused_form_page(request, panel, key, refused)
        return await form_page(request, panel, key)
    if page_uri == "detail-page":
        return await detail_page(request, panel, key)
    raise NotFound(gettext("Page not found"))


async def _form_again(
    request: Request, exc: InvalidInput | PreconditionFailed
) -> Response:
    """The refused form's page again (``panel_core.refused_form``): a 303 to it, the
    form kept in the session; without a session, or too big to keep, the form itself
    with its values beside the errors (422) or beside what someone else saved
    meanwhile (409; its version now the form's)."""
    registry: Registry = request.app.state.registry
    panel = registry.get(request.path_params["resourceUri"])
    item = request.path_params.get("resourceItem")
    key = None if item is None else panel.key(item)
    changed = isinstance(exc, PreconditionFailed)
    form = refused_form(
        type(panel.resource),
        request.scope.get(FORM_KEY, []),
        {} if changed else exc.errors,
        uploaded=request.scope.get(UPLOADED_KEY, ()),
        version=None if changed else form_value(request, VERSION_FIELD),
        changed=changed,
    )
    url = form_page_url(panel.uri, key)
    if keep_refused_form(request, kept_form(type(panel.resource), form, url)):
        return see_other(url)
    return await refused_form_page(request, panel, key, form, form.status)


def _to_login(request: Request) -> Response:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return see_other(login_url(target if request.method == "GET" else None))


def _unauthenticated(request: Request, exc: Unauthenticated) -> Response:
    # A challenge (``WWW-Authenticate: Bearer``) means tokens: there is no login page.
    if exc.headers:
        body = {"message": exc.message}
        return json_response(body, status_code=401, headers=exc.headers)
    return _to_login(request)


async def _page_error(request: Request, exc: PanelError) -> Response:
    route = getattr(request.scope.get("route"), "name", None)
    if isinstance(exc, Unauthenticated):
        return _unauthenticated(request, exc)
    form = is_form_submission(request)
    again = isinstance(exc, InvalidInput | PreconditionFailed)
    if again and route in _FORM_ROUTES and form:
        return await _form_again(request, exc)
    return error_response(request, exc)


async def _http_page(request: Request, exc: HTTPException) -> Response:
    return error_page(request, exc.status_code, str(exc.detail))


async def _input_page(request: Request, exc: RequestValidationError) -> Response:
    del exc
    return error_page(request, 422, "The request is not valid.")


Handler = Callable[[Request, Any], Awaitable[Response]]


def _negotiated(json_handler: Handler, page_handler: Handler) -> Handler:
    async def handle(request: Request, exc: Any) -> Response:
        handler = json_handler if wants_json(request) else page_handler
        return await handler(request, exc)

    return handle


def install_page_errors(app: FastAPI) -> None:
    """Answer errors of page requests with pages; JSON requests keep their handlers."""
    page_handlers: dict[type[Exception], Handler] = {
        PanelError: _page_error,
        HTTPException: _http_page,
        RequestValidationError: _input_page,
    }
    for exc_class, page_handler in page_handlers.items():
        json_handler = app.exception_handlers[exc_class]
        app.add_exception_handler(exc_class, _negotiated(json_handler, page_handler))
