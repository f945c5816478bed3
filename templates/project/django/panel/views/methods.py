"""The ``method`` and ``component`` routes: a page's async methods and components.

Both name a page, of a resource (``/admin/method/<pageUri>/<resourceUri>``) or
stand-alone (``/admin/method/<pageUri>``). ``method`` takes any HTTP method, as in
MoonShine; in session mode the CSRF token is demanded on every one of them, GET
included (``panel.csrf``), since a method may change data. ``component`` renders one
component of a resource's page (``?_component_name=table``).
"""

from __future__ import annotations

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_GET, require_http_methods

from panel_core.errors import NotFound
from panel_core.pages import COMPONENT, Page, PageError
from panel_core.routes import ANY
from panel_core.translation import gettext

from ..methods import call_method
from ..pages import render_fragment
from ..registry import PanelResource, registry
from ..site import site


def _find(page_uri: str, resource_uri: str | None) -> tuple[PanelResource | None, Page]:
    """The resource named in the path (if any), then its page or a stand-alone one."""
    panel = registry().get(resource_uri) if resource_uri else None
    try:
        if panel is not None:
            return panel, panel.resource.find_page(page_uri)
        return None, site().page(page_uri)
    except PageError:
        raise NotFound(gettext("Page not found")) from None


@require_http_methods(ANY)
def method(
    request: HttpRequest,
    pageUri: str,  # noqa: N803 (the kernel's route parameter names)
    resourceUri: str | None = None,  # noqa: N803
) -> HttpResponseBase:
    """Call an async method of the resource, or of the stand-alone page."""
    panel, page = _find(pageUri, resourceUri)
    target = panel.resource if panel is not None else page
    return call_method(request, target, request.GET.get("method", ""))


@require_GET
def component(
    request: HttpRequest,
    pageUri: str,  # noqa: N803 (the kernel's route parameter names)
    resourceUri: str | None = None,  # noqa: N803
) -> HttpResponseBase:
    """The HTML of one component of a page."""
    panel, page = _find(pageUri, resourceUri)
    name = request.GET.get(COMPONENT, "")
    if panel is None:
        raise NotFound(f"Page {page.uri} has no component {name!r}")
    return render_fragment(request, panel, name, page.uri)
