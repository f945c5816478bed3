"""The docs routes, outside /admin: ``/docs`` (Swagger UI) and the JSON and YAML spec.

``DOCS_ACCESS`` decides who reaches them: anyone, logged-in users (the panel's own
authentication), or nobody (the routes do not exist: 404). Swagger UI's files are
served from the project itself, so the page loads nothing from elsewhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, FastAPI, Request, Response
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, Template
from starlette.staticfiles import StaticFiles

from app.core.config import PROJECT_DIR, Settings
from app.panel.auth import authenticated
from app.panel.core.oag import (
    BUILTIN_VIEW,
    DOCS_PATH,
    DOCS_ROUTE_NAME,
    route_path,
    swagger_config,
    yaml_route,
)
from app.panel.core.resource import Resource
from app.panel.sessions import stored_csrf_token
from app.panel.stack import uses_jwt

from .spec import SpecKind, SpecSource

HERE = Path(__file__).resolve().parent
ASSETS_PATH = f"{DOCS_PATH}/assets"
ASSETS_ROUTE_NAME = "oag.assets"
_CSP = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)
PAGE_HEADERS = {
    "Content-Security-Policy": _CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}
_READ = ["GET", "HEAD"]
_MEDIA_TYPES: dict[SpecKind, str] = {
    "json": "application/json",
    "yaml": "application/yaml",
}


def docs_template(view: str) -> Template:
    """The /docs template: built in, or a file (relative to the project, or absolute).

    A template that does not exist fails when the app is created.
    """
    if view == BUILTIN_VIEW:
        loader, name = FileSystemLoader(HERE / "templates"), "docs.html"
    else:
        path = PROJECT_DIR / view
        loader, name = FileSystemLoader(path.parent), path.name
    env = Environment(
        loader=loader,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    return env.get_template(name)


class DocsRoutes:
    """The endpoints of one app's docs, configured once from its settings."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.source = SpecSource(settings)
        self.template = docs_template(settings.oag_view)
        self.jwt = uses_jwt(settings)

    def _asset(self, request: Request, path: str) -> str:
        url = request.app.url_path_for(ASSETS_ROUTE_NAME, path=path)
        return request.scope.get("root_path", "") + str(url)

    def page_context(self, request: Request) -> dict[str, Any]:
        """What the docs template sees."""
        spec_url = request.scope.get("root_path", "") + str(
            request.app.url_path_for(self.settings.oag_route)
        )
        return {
            "title": self.settings.oag_title,
            "spec_url": spec_url,
            # Only a logged-in session holds one: anonymous readers get no session.
            "csrf_token": stored_csrf_token(request),
            "config": swagger_config(spec_url, jwt=self.jwt),
            "css_url": self._asset(request, "swagger-ui/swagger-ui.css"),
            "bundle_url": self._asset(request, "swagger-ui/swagger-ui-bundle.js"),
            "script_url": self._asset(request, "docs.js"),
        }

    async def docs(self, request: Request) -> Response:
        """The API documentation, with Swagger UI."""
        html = self.template.render(self.page_context(request))
        return HTMLResponse(html, headers=PAGE_HEADERS)

    def spec_json(self, request: Request) -> Response:
        """The OpenAPI document as JSON."""
        return self._spec(request, "json")

    def spec_yaml(self, request: Request) -> Response:
        """The OpenAPI document as YAML."""
        return self._spec(request, "yaml")

    def _spec(self, request: Request, kind: SpecKind) -> Response:
        resources: list[type[Resource]] = [
            type(panel.resource) for panel in request.app.state.registry
        ]
        return Response(
            self.source.read(kind, resources),
            media_type=_MEDIA_TYPES[kind],
            headers={"X-Content-Type-Options": "nosniff"},
        )


def install_docs(app: FastAPI, settings: Settings) -> None:
    """Add /docs, the spec routes and Swagger UI's files to ``app``, as configured."""
    if settings.docs_access == "off":
        return
    guards = [Depends(authenticated)] if settings.docs_access == "authenticated" else []
    routes = DocsRoutes(settings)
    router = APIRouter(dependencies=guards)
    json_route = settings.oag_route
    router.add_api_route(DOCS_PATH, routes.docs, methods=_READ, name=DOCS_ROUTE_NAME)
    router.add_api_route(
        route_path(json_route), routes.spec_json, methods=_READ, name=json_route
    )
    yaml_name = yaml_route(json_route)
    router.add_api_route(
        route_path(yaml_name), routes.spec_yaml, methods=_READ, name=yaml_name
    )
    app.include_router(router)
    app.mount(ASSETS_PATH, StaticFiles(directory=HERE / "static"), ASSETS_ROUTE_NAME)
