"""The docs views, outside /admin: ``/docs`` (Swagger UI) and the JSON and YAML spec.

``DOCS_ACCESS`` decides who reaches them: anyone, logged-in users (the panel's own
authentication, ``PANEL["auth"]["middleware"]``), or nobody (``oag.urls`` then has no
routes: 404). Swagger UI's files are the project's static files (``/static/oag/``, from
``panel_core/docs_static/``), so the page loads nothing from elsewhere; the page and
the spec are the same as in panelforge's FastAPI projects.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CSRF_SESSION_KEY, get_token
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_safe
from jinja2 import Template

from app.resources import RESOURCES
from panel.auth import authentication
from panel_core import assets
from panel_core.docs_page import PAGE_HEADERS, SPEC_MEDIA_TYPES, docs_template
from panel_core.errors import Unauthenticated
from panel_core.oag import SpecKind, SpecOptions, SpecSource, swagger_config

from .spec import project_dir, spec_options, uses_jwt


@lru_cache(maxsize=4)
def _template(view: str, base: Path) -> Template:
    return docs_template(view, builtin_dir=assets.DOCS_TEMPLATES_DIR, project_dir=base)


@lru_cache(maxsize=4)
def _source(base: Path, oag_path: str, options: SpecOptions) -> SpecSource:
    # One per configuration: a spec built from the resources is built once.
    return SpecSource(base, oag_path, options)


def _require_access(request: HttpRequest) -> None:
    """With ``DOCS_ACCESS=authenticated``, refuse a request nobody is logged in to."""
    if settings.DOCS_ACCESS != "authenticated":
        return
    auth = authentication()
    if auth.authenticate(request) is None:
        raise Unauthenticated(auth.challenge)


def stored_csrf_token(request: HttpRequest) -> str | None:
    """The session's CSRF token, without making one (anonymous readers get none)."""
    session = getattr(request, "session", None)
    if session is None or CSRF_SESSION_KEY not in session:
        return None
    return get_token(request)


def page_context(request: HttpRequest) -> dict[str, Any]:
    """What the docs template sees."""
    spec_url = reverse(settings.OAG_ROUTE)
    return {
        "title": settings.OAG_TITLE,
        "spec_url": spec_url,
        "csrf_token": stored_csrf_token(request),
        "config": swagger_config(spec_url, jwt=uses_jwt()),
        "css_url": static("oag/swagger-ui/swagger-ui.css"),
        "bundle_url": static("oag/swagger-ui/swagger-ui-bundle.js"),
        "script_url": static("oag/docs.js"),
    }


@require_safe
def docs(request: HttpRequest) -> HttpResponse:
    """The API documentation, with Swagger UI."""
    _require_access(request)
    template = _template(settings.OAG_VIEW, project_dir())
    html = template.render(page_context(request))
    return HttpResponse(html, headers=PAGE_HEADERS)


def _spec(request: HttpRequest, kind: SpecKind) -> HttpResponse:
    _require_access(request)
    source = _source(project_dir(), settings.OAG_PATH, spec_options())
    return HttpResponse(
        source.read(kind, RESOURCES),
        content_type=SPEC_MEDIA_TYPES[kind],
        headers={"X-Content-Type-Options": "nosniff"},
    )


@require_safe
def spec_json(request: HttpRequest) -> HttpResponse:
    """The OpenAPI document as JSON."""
    return _spec(request, "json")


@require_safe
def spec_yaml(request: HttpRequest) -> HttpResponse:
    """The OpenAPI document as YAML."""
    return _spec(request, "yaml")
