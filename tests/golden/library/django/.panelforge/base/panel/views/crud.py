"""The generic CRUD API: two class-based views serve every registered resource.

``CollectionView`` answers ``/admin/resource/<uri>/crud`` (``crud.index``,
``crud.store``, ``crud.massDelete``), ``ItemView`` ``…/crud/<key>`` (``crud.show``,
``crud.update``, ``crud.destroy``). Clients get JSON unless they prefer ``text/html``
(``*/*`` is JSON); browsers are sent to the pages (a 303 after each change, with a
flash message); a client accepting neither gets 406 before anything is done. Errors are the
kernel's exceptions, answered by ``panel.errors.PanelErrorMiddleware``. The user may
use the route (``panel.authorize``); the stores keep it to its scope and run the
resource's hooks.
"""

from __future__ import annotations

from functools import partial
from typing import Any
from urllib.parse import parse_qsl

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views import View

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
from panel_core.urls import form_page_url, page_url, record_url
from panel_core.versions import VERSION_FIELD, Expected, expected_version

from ..accept import require_acceptable, wants_json
from ..acting import actor
from ..bodies import form_value, read_body
from ..children import children_keys
from ..files import create_with_files, delete_with_files, file_body, update_with_files
from ..public_url import public_origin_of
from ..redirects import back, see_other
from ..registry import PanelResource, registry
from ..responses import (
    deleted_response,
    json_response,
    record_response,
    saved_response,
)
from ..templating import render

# HEAD and OPTIONS are refused with 405, as the FastAPI panels refuse them.
_COLLECTION = ["get", "post", "delete"]
_ITEM = ["get", "put", "patch", "delete"]


class _CrudView(View):
    """Refuses, before any work, a client that accepts no answer it could get."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        """406 first, then the method's view."""
        if request.method and request.method.lower() in self.http_method_names:
            require_acceptable(request)
        return super().dispatch(request, *args, **kwargs)


class CollectionView(_CrudView):
    """List, create and mass-delete the records of one resource."""

    http_method_names = _COLLECTION

    def get(self, request: HttpRequest, resourceUri: str) -> HttpResponse:
        """List records: paginated, sorted, filtered and searched."""
        panel = registry().get(resourceUri)
        query_string = request.META.get("QUERY_STRING", "")
        if not wants_json(request):
            return see_other(page_url(panel.uri, "index-page", query=query_string))
        params = parse_qsl(query_string, keep_blank_values=True)
        query = panel.list_query(params, paging_modes=True)
        rows, total = panel.store.list_page(query, actor(request, panel))
        urls = PageUrls(panel.crud_url, params, public_origin_of(request))
        body = list_body(query, rows, total, urls)
        return json_response(body)

    def post(self, request: HttpRequest, resourceUri: str) -> HttpResponse:
        """Create a record."""
        panel = registry().get(resourceUri)
        body, files = file_body(request, panel)
        if files is None:
            record = panel.store.create(
                panel.inputs.for_create(body), actor(request, panel)
            )
        else:
            record = create_with_files(files, panel, body, actor(request, panel))
        key = panel.resource.key_of(record)
        if not wants_json(request):
            return back(request, *_after_save(request, panel, record, created=True))
        return saved_response(
            record,
            redirect=form_page_url(panel.uri, key),
            status=201,
            location=public_origin_of(request) + record_url(panel.crud_url, key),
        )

    def delete(self, request: HttpRequest, resourceUri: str) -> HttpResponse:
        """Delete the records listed in ``ids``, all in one transaction (from the
        pages: once confirmed)."""
        panel = registry().get(resourceUri)
        query = parse_qsl(request.META.get("QUERY_STRING", ""), keep_blank_values=True)
        body = read_body(request)
        if wants_json(request):
            keys = panel.inputs.ids(body, query)
        else:
            ticked = ticked_keys(panel, body, query)
            if ticked is None:
                return back(
                    request, _index_page(panel), gettext(NOTHING_TICKED), "error"
                )
            keys = ticked
            if form_value(request, CONFIRMED_FIELD) is None:
                asking = _mass_confirmation(request, panel, keys)
                if asking is None:
                    return back(
                        request, _index_page(panel), gettext(NONE_LEFT), "error"
                    )
                names = resource_templates(panel.uri, "delete.html")
                return render(request, names, asking)
        acting = actor(request, panel)
        deleted = delete_with_files(
            panel,
            partial(panel.store.delete_many, keys, acting),
            lambda: [record for _, record in panel.store.records_of(keys, acting)],
            for_good=not panel.resource.soft_delete,
        )
        if not wants_json(request):
            said = ngettext(
                "%(num)s record deleted.", "%(num)s records deleted.", deleted
            )
            return back(request, _index_page(panel), said % {"num": deleted})
        return deleted_response(deleted)


class ItemView(_CrudView):
    """Show, change and delete one record."""

    http_method_names = _ITEM

    def get(
        self, request: HttpRequest, resourceUri: str, resourceItem: str
    ) -> HttpResponse:
        """Show one record."""
        panel = registry().get(resourceUri)
        key = panel.key(resourceItem)
        if not wants_json(request):
            return see_other(page_url(panel.uri, "detail-page", key))
        asked = panel.children_asked(
            (n, v) for n, vs in request.GET.lists() for v in vs
        )
        acting = actor(request, panel)
        record = panel.store.fetch(key, acting)
        acting.authorize_record(VIEW, record)
        if not asked:
            return record_response(record)
        keys = children_keys(request, asked, key)
        return record_response(record, with_children(record, keys))

    def put(
        self, request: HttpRequest, resourceUri: str, resourceItem: str
    ) -> HttpResponse:
        """Change a record; fields absent from the body stay as they are."""
        panel = registry().get(resourceUri)
        key = panel.key(resourceItem)
        body, files = file_body(request, panel)
        expected = _expected(request, files)  # after the body: a multipart form's too
        acting = actor(request, panel)
        if files is None:
            body = without_blank_secrets(type(panel.resource), body)
            values = panel.inputs.for_update(body)
            record = panel.store.update(key, values, acting, expected)
        else:
            record = update_with_files(files, panel, key, body, acting, expected)
        if not wants_json(request):
            return back(request, *_after_save(request, panel, record, created=False))
        return saved_response(record, redirect=form_page_url(panel.uri, key))

    patch = put

    def delete(
        self, request: HttpRequest, resourceUri: str, resourceItem: str
    ) -> HttpResponse:
        """Delete a record (from the pages: once confirmed)."""
        panel = registry().get(resourceUri)
        key = panel.key(resourceItem)
        expected = _expected(request)
        if not wants_json(request) and form_value(request, CONFIRMED_FIELD) is None:
            asking = _confirmation(request, panel, key)
            names = resource_templates(panel.uri, "delete.html")
            return render(request, names, asking)
        acting = actor(request, panel)
        fetch = partial(panel.store.fetch, key, acting)
        # A page names the record it deleted: read it first.
        named = None if wants_json(request) else fetch()
        delete_with_files(
            panel,
            partial(panel.store.delete, key, acting, expected),
            lambda: [named or fetch()],
            for_good=not panel.resource.soft_delete,
        )
        if named is not None:
            return back(request, _index_page(panel), deleted_message(panel, named))
        return deleted_response()


def _confirmation(
    request: HttpRequest, panel: PanelResource, key: Any
) -> dict[str, Any]:
    """The confirmation page's context for deleting ``key``; 409 if the delete rules
    refuse it."""
    acting = actor(request, panel)

    def deletable_record() -> Any:
        record = panel.store.fetch(key, acting)
        acting.authorize_record(DELETE, record)
        return record

    return delete_question(
        panel,
        panel.store.deletion(key, acting),
        key,
        deletable_record,
        redirect=form_value(request, "_redirect"),
        version=form_value(request, VERSION_FIELD),
    )


def _mass_confirmation(
    request: HttpRequest, panel: PanelResource, keys: list[Any]
) -> dict[str, Any] | None:
    """``_confirmation`` of a mass delete from the index page (``None``: none of the
    records is left to delete)."""
    acting = actor(request, panel)
    records = panel.store.records_of(keys, acting)
    if not records:
        return None
    plan = panel.store.mass_deletion([key for key, _ in records], acting)
    redirect = form_value(request, "_redirect")
    return mass_delete_question(panel, plan, records, redirect=redirect)


def _expected(request: HttpRequest, files: FileWrites | None = None) -> Expected | None:
    """The version the client loaded: ``If-Match``, or the edit form's ``_version``
    (``files``: those stored for the write, removed again if this refuses it)."""
    try:
        return expected_version(
            request.META.get("HTTP_IF_MATCH"),
            form_value(request, VERSION_FIELD),
            required=settings.PANEL_REQUIRE_IF_MATCH,
        )
    except BaseException:
        if files is not None:
            files.discard()
        raise


def _after_save(
    request: HttpRequest, panel: PanelResource, record: dict[str, Any], *, created: bool
) -> tuple[str, str]:
    """Where the saved form goes (its ``_save`` button) and what it says there."""
    choice = form_value(request, SAVE_CHOICE)
    return after_save(panel, record, choice, created=created)


def _index_page(panel: PanelResource) -> str:
    return page_url(panel.uri, "index-page")
