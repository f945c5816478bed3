"""Errors and fragments of the panel's pages.

``error_response`` answers a ``PanelError`` of a page request: a form the save
refuses is sent back to its form page (303, ``panel_core.refused_form``),
nobody logged in goes to the login page (303), anything else is the error page with
its status. ``panel.errors.error_response`` answers JSON clients, and pages here.
``render_fragment`` renders one part of a page alone (``?_fragment-load=table``, and
the ``component`` route).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse

from panel_core.error_page import error_context
from panel_core.errors import (
    InvalidInput,
    NotFound,
    PanelError,
    PreconditionFailed,
    Referenced,
    Unauthenticated,
)
from panel_core.pages import FRAGMENTS
from panel_core.refused_form import kept_form, refused_form
from panel_core.urls import form_page_url, login_url
from panel_core.versions import VERSION_FIELD

from .bodies import form_value, read_body
from .current import panel_route
from .files import multipart_form, uploaded_fields
from .flash import keep_refused_form
from .formdata import is_form_submission
from .redirects import see_other
from .registry import PanelResource, registry
from .resource_pages import index_context, refused_form_page
from .responses import json_response
from .templating import render, render_partial, resource_templates

_FORM_ROUTES = frozenset({"crud.store", "crud.update"})


def error_page(
    request: HttpRequest,
    status: int,
    message: str,
    errors: dict[str, list[str]] | None = None,
    headers: dict[str, str] | None = None,
    references: list[dict[str, Any]] | None = None,
) -> HttpResponse:
    """The error page: a title, the message, and the way back."""
    context = error_context(status, message, errors, references or [])
    response = render(request, "panel/error.html", context, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def _to_login(request: HttpRequest) -> HttpResponse:
    target = request.get_full_path() if request.method == "GET" else None
    return see_other(login_url(target))


def _form_again(
    request: HttpRequest, exc: InvalidInput | PreconditionFailed
) -> HttpResponse:
    """The refused form's page again (``panel_core.refused_form``): a 303 to it, the
    form kept in the session; without a session, or too big to keep, the form itself
    with its values beside the errors (422) or beside what someone else saved
    meanwhile (409; its version now the form's)."""
    match = request.resolver_match
    kwargs = match.kwargs if match is not None else {}
    panel = registry().get(kwargs["resourceUri"])
    item = kwargs.get("resourceItem")
    key = None if item is None else panel.key(item)
    # Form pairs (an urlencoded form's without the form's own "_" fields).
    multipart = multipart_form(request)
    body = read_body(request) if multipart is None else multipart
    changed = isinstance(exc, PreconditionFailed)
    form = refused_form(
        type(panel.resource),
        body if isinstance(body, list) else [],
        {} if changed else exc.errors,
        uploaded=uploaded_fields(request),
        version=None if changed else form_value(request, VERSION_FIELD),
        changed=changed,
    )
    url = form_page_url(panel.uri, key)
    if keep_refused_form(request, kept_form(type(panel.resource), form, url)):
        return see_other(url)
    return refused_form_page(request, panel, key, form, form.status)


def error_response(request: HttpRequest, exc: PanelError) -> HttpResponse:
    """``exc`` as a page (``panel.errors.error_response`` answers JSON clients)."""
    if isinstance(exc, Unauthenticated):
        # A challenge (``WWW-Authenticate: Bearer``) means tokens: no login page.
        if exc.headers:
            body = {"message": exc.message}
            return json_response(body, status=exc.status_code, headers=exc.headers)
        return _to_login(request)
    sent = is_form_submission(request) or multipart_form(request) is not None
    form = sent and panel_route(request) in _FORM_ROUTES
    if isinstance(exc, InvalidInput | PreconditionFailed) and form:
        return _form_again(request, exc)
    errors = exc.errors if isinstance(exc, InvalidInput) else {}
    references = exc.references if isinstance(exc, Referenced) else []
    return error_page(
        request, exc.status_code, exc.message, errors, exc.headers, references
    )


def render_fragment(
    request: HttpRequest,
    panel_resource: PanelResource,
    name: str,
    page_uri: str = "index-page",
) -> HttpResponse:
    """One part of a page alone: ``("index-page", "table")`` is the index table."""
    template = FRAGMENTS.get((page_uri, name))
    if template is None:
        raise NotFound(f"Page {page_uri} has no fragment {name!r}")
    context = index_context(request, panel_resource)
    names = resource_templates(panel_resource.uri, template)
    return render_partial(request, names, context)
