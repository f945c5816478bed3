"""The trash of a resource with ``soft_delete``: its list, restore, delete for good.

``crud.trash`` is a page, or JSON for a client naming ``application/json`` (paginated
like ``crud.index``); ``crud.restore`` and ``crud.forceDelete`` answer as the other
CRUD views do (JSON, or a 303 back to the trash with a flash message), as the FastAPI
panels do.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_http_methods

from panel_core.file_writes import files_removed_after
from panel_core.pagination import PageUrls, list_body
from panel_core.resource_pages import list_params, resource_templates
from panel_core.translation import gettext
from panel_core.trash import require_trash, trash_context, trash_url

from ..accept import require_acceptable, wants_json
from ..acting import actor
from ..authorize import page_abilities
from ..choices import load_labels, targets
from ..files import storage
from ..public_url import public_origin_of
from ..redirects import back
from ..registry import PanelResource, registry
from ..responses import deleted_response, json_response, record_response
from ..templating import render


def _panel(uri: str) -> PanelResource:
    panel = registry().get(uri)
    require_trash(panel)
    return panel


@require_http_methods(["GET"])
def trash(request: HttpRequest, resourceUri: str) -> HttpResponse:  # noqa: N803
    """The records in the trash: a page, or JSON paginated like the list."""
    panel = _panel(resourceUri)
    acting = actor(request, panel)
    if wants_json(request):
        params = parse_qsl(request.META.get("QUERY_STRING", ""), keep_blank_values=True)
        query = panel.list_query(params, paging_modes=True)
        rows, total = panel.store.list_page(query, acting, trashed=True)
        urls = PageUrls(trash_url(panel.uri), params, public_origin_of(request))
        return json_response(list_body(query, rows, total, urls))
    params = list_params((n, v) for n, vs in request.GET.lists() for v in vs)
    query = panel.list_query(params)
    items, total = panel.store.list_page(query, acting, trashed=True)
    context = trash_context(
        panel,
        params,
        query,
        items=items,
        total=total,
        labels=load_labels(targets(panel), items, acting),
        can=page_abilities(acting),
    )
    return render(request, resource_templates(panel.uri, "trash.html"), context)


@require_http_methods(["POST"])
def restore(
    request: HttpRequest, resourceUri: str, resourceItem: str  # noqa: N803
) -> HttpResponse:
    """Take a record out of the trash."""
    require_acceptable(request)
    panel = _panel(resourceUri)
    record = panel.store.restore(panel.key(resourceItem), actor(request, panel))
    if not wants_json(request):
        return back(request, trash_url(panel.uri), gettext("Restored."))
    return record_response(record)


@require_http_methods(["DELETE"])
def force_delete(
    request: HttpRequest, resourceUri: str, resourceItem: str  # noqa: N803
) -> HttpResponse:
    """Delete a record in the trash for good."""
    require_acceptable(request)
    panel = _panel(resourceUri)
    with files_removed_after(storage()):  # the record's files, and a cascade's
        panel.store.force_delete(panel.key(resourceItem), actor(request, panel))
    if not wants_json(request):
        return back(request, trash_url(panel.uri), gettext("Deleted for good."))
    return deleted_response()
