"""The panel's HTML templates: one Jinja environment, created here and nowhere else.

Templates live in ``app/templates/panel/`` and end in ``.html``, so Starlette's
environment escapes every value placed in them. A resource's own version of a page,
``panel/resources/<uri>/<page>.html``, is used before the generic one, as in Django's
admin. Add helpers for templates to ``templates.env.globals``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from .core.resource_pages import PAGE_HEADERS, menu
from .flash import pop_flashes
from .navigation import install_template_helpers
from .sessions import csrf_token
from .urls import PREFIX, page_url

APP_DIR = Path(__file__).resolve().parents[1]
TEMPLATES_DIR = APP_DIR / "templates"
STATIC_DIR = APP_DIR / "static"
STATIC_URL = "/static"

templates = Jinja2Templates(directory=TEMPLATES_DIR)
templates.env.globals.update(page_url=page_url, panel_prefix=PREFIX)
install_template_helpers(templates.env)  # to_page, route, current_route


def static_url(path: str) -> str:
    """The URL of a file under ``app/static/``."""
    return f"{STATIC_URL}/{path}"


templates.env.globals["static_url"] = static_url


def _navigation(request: Request) -> list[dict[str, Any]]:
    registry = getattr(request.app.state, "registry", None)
    current = request.path_params.get("resourceUri")
    return menu((panel.resource for panel in registry or ()), current)


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
