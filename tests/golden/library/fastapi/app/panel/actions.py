"""The action routes: resource handlers, async methods, components, stand-alone pages.

Paths and methods come from the kernel's route table (``panel_core.routes``), so
``app.url_path_for(name, …)`` and the kernel's ``url_for`` agree. Include this router
before the pages router: ``/resource/{resourceUri}/{pageUri}`` matches ``…/handler``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request, Response

from panel_core.current import Site
from panel_core.http_methods import allow_header
from panel_core.pages import COMPONENT, Page, PageError
from panel_core.routes import ROUTES
from panel_core.translation import gettext

from . import views
from .errors import NotFound
from .guards import PANEL_GUARDS
from .handlers import HANDLERS
from .methods import call_method
from .registry import PanelResource, Registry
from .responses import json_response
from .templating import render

router = APIRouter(dependencies=PANEL_GUARDS, include_in_schema=False)


def _route(name: str) -> Callable[[Callable[..., Awaitable[Response]]], Any]:
    """Register an endpoint under every path pattern of the kernel route ``name``."""

    def register(endpoint: Callable[..., Awaitable[Response]]) -> Any:
        spec = ROUTES[name]
        for path in spec.paths:
            router.add_api_route(path, endpoint, methods=list(spec.methods), name=name)
        return endpoint

    return register


def _site(request: Request) -> Site:
    site: Site = request.app.state.site
    return site


def _resource(request: Request) -> PanelResource | None:
    uri = request.path_params.get("resourceUri")
    registry: Registry = request.app.state.registry
    return registry.get(uri) if uri else None


def _page(request: Request, panel: PanelResource | None) -> Page:
    """The page named in the path: one of the resource's, or a stand-alone one."""
    uri = request.path_params["pageUri"]
    try:
        if panel is not None:
            return panel.resource.find_page(uri)
        return _site(request).page(uri)
    except PageError:
        raise NotFound(gettext("Page not found")) from None


@_route("handler")
async def handler(request: Request) -> Response:
    """Run a resource handler: ``export`` or ``import``."""
    registry: Registry = request.app.state.registry
    panel = registry.get(request.path_params["resourceUri"])
    params = request.path_params
    name = params.get("handlerUri") or request.query_params.get("handlerUri", "")
    found = HANDLERS.get(name)
    if found is None:
        raise NotFound(gettext("Handler not found"))
    if request.method not in found.methods:
        allow = {"Allow": allow_header(found.methods)}
        body = {"message": "Method Not Allowed"}
        return json_response(body, status_code=405, headers=allow)
    return await found.run(request, panel)


@_route("method")
async def method(request: Request) -> Response:
    """Call an async method of the resource, or of the stand-alone page."""
    panel = _resource(request)
    page = _page(request, panel)
    target = panel.resource if panel is not None else page
    return await call_method(request, target, request.query_params.get("method", ""))


@_route("component")
async def component(request: Request) -> Response:
    """The HTML of one component of a page."""
    panel = _resource(request)
    page = _page(request, panel)
    name = request.query_params.get(COMPONENT, "")
    if panel is None:
        raise NotFound(f"Page {page.uri} has no component {name!r}")
    return await views.render_fragment(request, panel, page.uri, name)


@_route("page")
async def page(request: Request) -> Response:
    """A stand-alone page: ``panel/pages/<uri>.html``, else ``panel/page.html``."""
    found = _page(request, None)
    names = [f"panel/pages/{found.uri}.html", "panel/page.html"]
    return render(request, names, {"page": found})
