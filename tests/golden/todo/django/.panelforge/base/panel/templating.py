"""The panel's HTML templates: the Jinja environment and ``render``.

The templates are the kernel's (``panel_core/templates/panel/``, the same files as in
panelforge's FastAPI projects), so both frameworks serve the same HTML. Django's Jinja2
backend finds them (settings ``TEMPLATES``' ``DIRS``) and escapes every value placed in
them. A resource's own version of a page,
``templates/panel/resources/<uri>/<page>.html`` in the project, is used before the
generic one, as in Django's admin.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template import engines
from django.template.backends.jinja2 import Jinja2
from jinja2 import Environment

from panel_core.resource_pages import PAGE_HEADERS, menu, viewable

# Where a resource's own template is looked for first (the pages import it from here).
from panel_core.resource_pages import resource_templates as resource_templates
from panel_core.translation import install_translations
from panel_core.urls import page_url

from .acting import panel_user
from .current import panel_route
from .flash import pop_flashes
from .navigation import install_template_helpers
from .registry import registry

STATIC_URL = "/static"


def static_url(path: str) -> str:
    """The URL of a static file (settings ``STATICFILES_DIRS``)."""
    return f"{STATIC_URL}/{path}"


def environment(**options: Any) -> Environment:
    """The Jinja environment of the panel (settings ``TEMPLATES``' ``environment``)."""
    env = Environment(**options)
    env.globals.update(page_url=page_url, static_url=static_url)
    install_template_helpers(env)  # to_page, route, current_route
    install_translations(env)  # {% trans %}, _(), current_language()
    return env


@cache
def jinja_environment() -> Environment:
    """The environment of the project's Jinja2 template backend."""
    for engine in engines.all():
        if isinstance(engine, Jinja2):
            return engine.env
    raise LookupError("settings.TEMPLATES has no Jinja2 backend for the panel")


@receiver(setting_changed)
def _templates_changed(*, setting: str, **kwargs: Any) -> None:
    if setting == "TEMPLATES":  # Django builds its template engines again
        jinja_environment.cache_clear()


def _navigation(request: HttpRequest) -> list[dict[str, Any]]:
    match = request.resolver_match
    current = match.kwargs.get("resourceUri") if match is not None else None
    shown = viewable(registry(), panel_user(request))
    return menu((panel.resource for panel in shown), current)


def csrf_token(request: HttpRequest) -> str:
    """The session's CSRF token for forms and ``<meta>``.

    A visitor without a session gets one (and a token) from the login page only:
    the error pages strangers and robots see store nothing ("" without sessions).
    """
    session = getattr(request, "session", None)
    if session is None:
        return ""
    if session.session_key is None and panel_route(request) != "login":
        return ""
    return get_token(request)


def _viewer(request: HttpRequest) -> dict[str, str] | None:
    user = getattr(request, "panel_user", None)
    if user is None:
        return None
    return {"display_name": user.get_full_name() or user.get_username()}


def page_context(request: HttpRequest) -> dict[str, Any]:
    """What every page shows: title, menu, user, flash messages, CSRF token."""
    return {
        "request": request,
        "panel_title": settings.PANEL_TITLE,
        "navigation": _navigation(request),
        "user": _viewer(request),
        "flashes": pop_flashes(request),
        "csrf_token": csrf_token(request),
    }


def render(
    request: HttpRequest,
    names: str | Sequence[str],
    context: Mapping[str, Any],
    *,
    status: int = 200,
) -> HttpResponse:
    """The first of ``names`` that exists, rendered as a page."""
    template = jinja_environment().get_or_select_template(names)
    html = template.render({**page_context(request), **context})
    return HttpResponse(html, status=status, headers=PAGE_HEADERS)


def render_partial(
    request: HttpRequest, names: str | Sequence[str], context: Mapping[str, Any]
) -> HttpResponse:
    """A part of a page alone (no layout, flash messages left for the next page)."""
    template = jinja_environment().get_or_select_template(names)
    html = template.render({"request": request, **context})
    return HttpResponse(html, headers=PAGE_HEADERS)
