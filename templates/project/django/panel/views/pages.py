"""The panel's pages: home, each resource's pages, and the stand-alone pages.

``resource.page`` has two path patterns, with and without ``{resourceItem}``, both
served here. A client asking for JSON is told where the API is (406).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from panel_core.children import prefilled_values
from panel_core.dashboard import dashboard_context
from panel_core.errors import NotAcceptable, NotFound
from panel_core.pages import FRAGMENT, PageError
from panel_core.translation import gettext
from panel_core.urls import form_page_url

from ..accept import wants_page_json
from ..flash import take_refused_form
from ..pages import render_fragment
from ..registry import PanelResource, registry
from ..resource_pages import (
    detail_page,
    form_page,
    import_page,
    index_page,
    refused_form_page,
)
from ..site import site
from ..templating import render
from .dashboard import dashboard_changes, dashboard_summaries


def _page_resource(request: HttpRequest, uri: str) -> PanelResource:
    panel = registry().get(uri)
    if wants_page_json(request):
        raise NotAcceptable(f"This URL serves a page; the JSON API is {panel.crud_url}")
    return panel


def home(request: HttpRequest) -> HttpResponse:
    """The panel's home, the dashboard: each resource the user may list."""
    changes = dashboard_changes(request)
    context = dashboard_context(dashboard_summaries(request), changes)
    return render(request, "panel/home.html", context)


def resource_page(
    request: HttpRequest,
    resourceUri: str,  # noqa: N803 (the kernel's route parameter names)
    pageUri: str,  # noqa: N803
    resourceItem: str | None = None,  # noqa: N803
) -> HttpResponse:
    """A resource's index page (or one of its fragments), form, detail or import
    page."""
    panel = _page_resource(request, resourceUri)
    if resourceItem is None:
        fragment = request.GET.get(FRAGMENT)
        if pageUri == "index-page" and fragment:
            return render_fragment(request, panel, fragment, pageUri)
        if pageUri == "index-page":
            return index_page(request, panel)
        if pageUri == "import-page":
            return import_page(request, panel)
        if pageUri == "form-page":
            refused = take_refused_form(request, form_page_url(panel.uri))
            if refused is not None:
                return refused_form_page(request, panel, None, refused)
            params = ((n, v) for n, vs in request.GET.lists() for v in vs)
            prefilled = prefilled_values(type(panel.resource), params)
            return form_page(request, panel, values=prefilled)
        raise NotFound(gettext("Page not found"))
    key = panel.key(resourceItem)
    if pageUri == "form-page":
        refused = take_refused_form(request, form_page_url(panel.uri, key))
        if refused is not None:
            return refused_form_page(request, panel, key, refused)
        return form_page(request, panel, key)
    if pageUri == "detail-page":
        return detail_page(request, panel, key)
    raise NotFound(gettext("Page not found"))


def page(request: HttpRequest, pageUri: str) -> HttpResponse:  # noqa: N803
    """A stand-alone page: ``panel/pages/<uri>.html``, else ``panel/page.html``."""
    try:
        found = site().page(pageUri)
    except PageError:
        raise NotFound(gettext("Page not found")) from None
    names = [f"panel/pages/{found.uri}.html", "panel/page.html"]
    return render(request, names, {"page": found})
