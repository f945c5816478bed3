"""The panel's HTML templates: one Jinja environment, created here and nowhere else.

The templates are the kernel's (``panel_core/templates/panel/``, the same files as in
panelforge's Django projects) and end in ``.html``, so Starlette's environment escapes
every value placed in them. A template under ``app/templates/`` is used before the
kernel's, and a resource's own version of a page, ``panel/resources/<uri>/<page>.html``,
before the generic one, as in Django's admin. Add helpers for templates to
``templates.env.globals``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from panel_core import assets
from panel_core.resource_pages import PAGE_HEADERS, menu, viewable
from panel_core.translation import install_translations

from .flash import pop_flashes
from .navigation import install_template_helpers
from .sessions import csrf_token
from .urls import page_url

APP_DIR = Path(__file__).resolve().parents[1]
# The project's own templates, looked up before the kernel's.
TEMPLATES_DIR = APP_DIR / "templates"
# The panel's CSS and JavaScript (``static/panel/``), served at STATIC_URL.
STATIC_DIR = assets.STATIC_DIR
STATIC_URL = "/static"

templates = Jinja2Templates(directory=[TEMPLATES_DIR, assets.TEMPLATES_DIR])
templates.env.globals["page_url"] = page_url
install_template_helpers(templates.env)  # to_page, route, current_route
install_translations(templates.env)  # {% trans %}, _(), current_language()


def static_url(path: str) -> str:
    """The URL of a file under ``panel_core/static/``."""
    return f"{STATIC_URL}/{path}"


templates.env.globals["static_url"] = static_url


def _navigation(request: Request) -> list[dict[str, Any]]:
    registry = getattr(request.app.state, "registry", None)
    current = request.path_params.get("resourceUri")
    user = getattr(request.state, "user", None)
    shown = viewable(registry or (), user)
    return menu((panel.resource for panel in shown), current)


def page_context(request: Request) -> dict[str, Any]:
    """What every page shows: title, menu, user, flash messages, CSRF token."""
    settings = request.app.state.settings
    return {
        "request": request,
        "panel_title": settings.panel_title,
        "navigation": _navigation(request),
        "user": getattr(request.state, "user", None),
        "flashes": pop_flashes(request),
        "csrf_token": csrf_token(request),
    }


def render(
    request: Request,
    names: str | Sequence[str],
    context: Mapping[str, Any],
    *,
    status_code: int = 200,
) -> HTMLResponse:
    """The first of ``names`` that exists, rendered as a page."""
    template = templates.env.get_or_select_template(names)
    html = template.render({**page_context(request), **context})
    return HTMLResponse(html, status_code=status_code, headers=PAGE_HEADERS)


def render_partial(
    request: Request, names: str | Sequence[str], context: Mapping[str, Any]
) -> HTMLResponse:
    """A part of a page alone (no layout, flash messages left for the next page)."""
    template = templates.env.get_or_select_template(names)
    html = template.render({"request": request, **context})
    return HTMLResponse(html, headers=PAGE_HEADERS)
